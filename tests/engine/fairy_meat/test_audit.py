"""Issue 15, points 7-10: each point of the audit, checked against the source line it follows."""
from __future__ import annotations

import pytest

from engine.errors import BadOptions
from engine.fairy_meat import GAME
from tests.engine.fairy_meat.helpers import act, both, decide, start, texts, view

ADD = {"kind": "declare", "direction": "add"}
NONE = {"kind": "trumps", "cards": []}


def card(code: str) -> dict[str, str]:
    return {"kind": "numbered", "card": code}


def test_spoils_heap_is_face_down() -> None:
    """"No player is allowed to look through the Spoils Heap or Fairy Deck cards."

    Every view tells the heap's size and its top card (the heap is a face-up pile: "discarded to
    a common face up pile"), never the cards beneath it.
    """
    deck = ["KH", "2C", "7H", "JH", "3S", "9D", "5H", "QS", "4C", "6D", "8C", "10H"]
    state = start(deck)
    for seat in (None, 0, 1):
        seen = view(state, seat)
        assert seen["spoils"] == 2 and seen["spoils_top"]["code"] == "2C"
        assert "KH" not in str({k: v for k, v in seen.items() if k != "fairies"})
    state, _ = act(state, 0, "attack")
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, _ = both(state, card("7H"), card("6D"))
    state, _ = decide(state, 1, {"kind": "damage", "from": "live"})
    # 7♥ and 6♦ went face up, then the rest of both hands face down on top of them
    assert state.spoils[-2:] == ["7H", "6D"] and len(state.spoils_down) == 6
    for seat in (None, 0, 1):
        seen = view(state, seat)
        assert seen["spoils"] == 10 and seen["spoils_top"] is None
        assert "spoils_face_down" not in seen
        assert not isinstance(seen["spoils"], list), "the heap is not listed"
    assert GAME.view(state, None)["spoils"] == len(state.spoils) + len(state.spoils_down)


def test_round_limit_ends_the_match() -> None:
    """RULINGS: "A match ends when a fairy is dead." Two fairies that never hurt each other would never end it.

    Ruling (docs/rules/fairy-meat.md, "The round limit"): a duel lasts at most ``round_limit`` rounds
    (default 40); then the side with more Live and Kill points left wins it, equal points draw it.
    """
    assert GAME.setup({}, 1).options.round_limit == 40 == view(GAME.setup({}, 1), None)["options"]["round_limit"]
    deck = ["KH", "2C", "5C", "6C", "7C", "8C", "KS", "2D", "3C", "4C"]
    state = start(deck, [{}, {"live": 2, "kill": 3}], round_limit=2)
    for _ in range(2):
        first = view(state, None)["turn"]
        state, _ = act(state, first, "fungus")
        state, events = act(state, 1 - first, "fungus")
    assert state.outcome is not None and state.outcome.winner == 0
    said = texts(events)
    assert ("The round limit: 2 rounds played and no fairy is dead. Live and Kill points left: Player 1 6, Player 2 5: "
            "Player 1 wins duel 1.") in said
    assert state.outcome.detail == "Player 1's fairy wins (the last duel reached the round limit)"
    state = start(deck, None, round_limit=1)
    state, _ = act(state, 0, "fungus")
    state, events = act(state, 1, "fungus")
    assert state.outcome is not None and state.outcome.winner is None
    assert "equal, so duel 1 is drawn" in texts(events)[-2]


def test_scenario_flutter_penalty_and_hand_size() -> None:
    """"The Attacking Fairy draws a number of cards equal to their current Kill Points, applying the usual
    modifiers for weapon etc." / "The Defending Fairy draws ... applying any modifiers as usual."

    A scenario fixes those values directly: ``hand_size`` (her combat hands hold exactly that many
    cards) and ``flutter_penalty`` (that many cards less), with no stats bent to get them.
    """
    deck = ["KH", "2C", *(["5C"] * 12)]
    state = start(deck, [{"hand_size": 6}, {"flutter_penalty": 2}])
    assert view(state, None)["options"]["fairies"] == [{"weapon": "claws", "hand_size": 6},
                                                       {"weapon": "claws", "flutter_penalty": 2}]
    state, events = act(state, 0, "attack")
    said = texts(events)
    assert "Player 1 draws a combat hand of 6 cards (scenario hand size 6)." in said
    assert "Player 2 draws a combat hand of 2 cards (Live 3 + Posed: not yet acted 1 - Flutter penalty 2)." in said
    assert [s["hand_count"] for s in view(state, None)["combat"]["sides"]] == [6, 2]
    with pytest.raises(BadOptions, match="hand_size"):
        GAME.setup({"fairies": [{"hand_size": -1}, {}]}, 1)


def test_bands_of_three() -> None:
    """RULINGS: "two-player duel (one fairy each; bands of up to three fairies a side are an option)"; the source:
    "The Fairy (or Fairies) they are attacking is the Defending Fairy (or Fairies)".

    Option ``band: 3``: every fairy draws an Order card and acts in that order (ties draw again, only
    they); an attacker picks her target among the living foes; a dead fairy's combat ends at once,
    her cards go to the Spoils Heap, she takes no more turns and cannot be targeted.
    """
    order = ["KH", "QH", "9H", "9D", "8H", "7H", "3C", "4C"]
    hands = ["10S", "2C", "5C", "6C", "7C", "2S"]
    fungus = ["8C", "9C", "10C", "2D"]
    round_2 = ["3D", "4D", "5D", "6D", "7D"]
    vibro, claws = {"weapon": "vibro_master"}, {"weapon": "claws"}
    fairies = [vibro, claws, claws, claws, claws, {**claws, "live": 1, "kill": 0}]
    state = start([*order, *hands, "JK1", *fungus, *round_2, *(["2H"] * 10)], fairies, band=3)
    seen = view(state, None)
    assert seen["band"] == 3 and len(seen["fairies"]) == 6
    assert [f["name"] for f in seen["fairies"]] == [
        "Player 1's fairy A", "Player 2's fairy A", "Player 1's fairy B", "Player 2's fairy B", "Player 1's fairy C",
        "Player 2's fairy C"]
    # the order: K, Q, then the tied 9s draw again (4♣ beats 3♣), then 8, 7
    assert seen["order"] == [0, 1, 3, 2, 4, 5] and seen["turn_fairy"] == 0 and seen["turn"] == 0
    legal = GAME.legal(state, 0)
    assert [(d["action"], d.get("target")) for d in legal[:6]] == [
        ("attack", 1), ("attack", 3), ("attack", 5), ("wrestle", 1), ("wrestle", 3), ("wrestle", 5)]
    assert legal[2]["label"] == "Attack Player 2's fairy C (Live 1, Kill 0)"
    state, events = act(state, 0, "attack", target=5)
    said = texts(events)
    assert said[0] == "Player 1's fairy A attacks Player 2's fairy C with Vibro-Master (2 attacks from one combat hand)."
    assert "Player 2's fairy C draws a combat hand of 1 card (Live 1 - Vibro-Master 1 + Posed: not yet acted 1)." \
        in said
    assert view(state, None)["combat"]["fighters"] == [0, 5]
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, card("10S"), card("2S"))
    said = texts(events)
    assert "Player 2's fairy C is dead: she takes no more turns and cannot be attacked." in said
    assert "Player 2's fairy C is dead: the combat ends." in said
    assert not [t for t in said if t.startswith("Attack 2 of 2")], "no second attack on a dead fairy"
    assert state.combat is None and len(state.spoils_down) == 4, "the attacker's 4 cards left go face down"
    assert state.outcome is None
    seen = view(state, None)
    assert seen["fairies"][5]["dead"] and seen["turn_fairy"] == 1 and seen["turn"] == 1
    assert [d.get("target") for d in GAME.legal(state, 1) if d["action"] == "attack"] == [0, 2, 4]
    for fid in (1, 3, 2, 4):
        assert view(state, None)["turn_fairy"] == fid
        state, _ = act(state, fid % 2, "fungus")
    seen = view(state, None)
    assert seen["round"] == 2 and seen["order"] == [4, 3, 2, 1, 0], "the dead fairy draws no Order card"
    assert seen["fairies"][5]["order_cards"] == []


def test_bands_bonus_cards_count_only_against_that_foe() -> None:
    """"If the Defending Fairy is the winner then they gain 1 extra card when it is their turn to attack that Fairy
    back this turn ... This bonus cannot be applied to attacks against any other foes."
    """
    deck = ["KH", "QH", "3H", "2H", "2S", "3S", "4S", "5S", "9S", "10S", "8S", "7S", *(["6D"] * 30)]
    state = start(deck, None, band=2, nasty_hits=False)
    assert view(state, None)["order"] == [0, 1, 2, 3]
    state, _ = act(state, 0, "attack", target=1)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, card("2S"), card("9S"))
    assert ("Player 2's fairy A gains 4 bonus cards for her attack on Player 1's fairy A this round (4 in all)."
            in texts(events))
    assert view(state, None)["fairies"][1]["bonus_against"] == [{"fairy": 0, "cards": 4}]
    _, events = act(state, 1, "attack", target=0)
    assert "Player 2's fairy A draws a combat hand of 8 cards (Kill 3 + for attacking 1 + bonus 4)." in texts(events)
    _, events = act(state, 1, "attack", target=2)
    assert "Player 2's fairy A draws a combat hand of 4 cards (Kill 3 + for attacking 1)." in texts(events)

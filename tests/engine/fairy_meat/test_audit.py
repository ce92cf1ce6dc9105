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

"""One focused test per rule of the source and the rulings, each from an exact scenario deck."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.fairy_meat import GAME
from engine.fairy_meat.cards import Colour
from engine.fairy_meat.combat import evaluate, points_for
from engine.fairy_meat.rules import Table, nasty_result
from engine.fairy_meat.state import Combat, DamageScale, Options, Side
from tests.engine.fairy_meat.helpers import act, both, decide, events_of, fairy, fight, start, texts, told, view

ADD = {"kind": "declare", "direction": "add"}
SUB = {"kind": "declare", "direction": "subtract"}
NONE = {"kind": "trumps", "cards": []}
NO_NASTY = {"nasty_hits": False, "fungus": False}


def trumps(*codes: str, colour: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "trumps", "cards": list(codes)}
    if colour:
        out["colour"] = colour
    return out


def card(code: str) -> dict[str, str]:
    return {"kind": "numbered", "card": code}


def bare(decisions: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.items() if k != "label"} for d in decisions]


def play_numbered(state: Any, a: str, d: str, directions: tuple[dict[str, str], dict[str, str]] = (ADD, ADD),
                  attacker: int = 0) -> tuple[Any, list[Any]]:
    """Declare, both say None, play these Numbered cards (``a`` the attacker's)."""
    cards = {attacker: card(a), 1 - attacker: card(d)}
    state, _ = both(state, *directions)
    state, _ = both(state, NONE, NONE)
    return both(state, cards[0], cards[1])


def take(state: Any, seat: int, *pools: str) -> tuple[Any, list[Any]]:
    events: list[Any] = []
    for pool in pools:
        state, more = decide(state, seat, {"kind": "damage", "from": pool})
        events += more
    return state, events


# -- the game, its options and the Fairy Deck -----------------------------------------------------


def test_a_two_seat_game_named_fairy_meat() -> None:
    assert (GAME.name, GAME.title) == ("fairy_meat", "Fairy Meat")
    assert GAME.seats({}) == 2
    assert GAME.scenario({"deck": ["5C", "6C"]}) and GAME.scenario({"fairies": [{}, {}]}) and not GAME.scenario({})


def test_the_fairy_deck_is_52_cards_and_2_jokers_colours_balanced() -> None:
    deck = Options.parse({}).fairy_deck()
    assert len(deck) == 54 and deck.count("JK1") == deck.count("JK2") == 1
    numbered = [c for c in deck if c[:-1] in {str(n) for n in range(2, 11)}]
    assert len(numbered) == 36 and sum(c[-1] in "HD" for c in numbered) == 18
    assert len(GAME.setup({}, 1).deck) + len(GAME.setup({}, 1).spoils) == 54


@pytest.mark.parametrize(("options", "size", "trumps"), [
    ({"decks": 2}, 106, 34),
    ({"jokers": False}, 52, 16),
    ({"jokers": 4}, 56, 20),
    ({"trumps": "more"}, 70, 34),
    ({"trumps": "fewer"}, 46, 10),
    ({"numbered": "extreme"}, 58, 18),
    ({"numbered": "median"}, 50, 18),
    ({"colours": "more_red"}, 45, 18),
])
def test_stacking_the_odds(options: dict[str, Any], size: int, trumps: int) -> None:
    """The source's deck variations: more packs, jokers on/off, more or fewer Trumps, extreme or median numbers."""
    deck = Options.parse(options).fairy_deck()
    assert len(deck) == size
    assert sum(1 for c in deck if c[:-1] in ("J", "Q", "K", "A") or c.startswith("JK")) == trumps
    counts = Counter(c[:-1] for c in deck)
    if options.get("numbered") == "extreme":
        assert counts["4"] == counts["5"] == counts["6"] == 0 and counts["2"] == counts["10"] == 8
    if options.get("numbered") == "median":
        assert counts["2"] == counts["9"] == 0 and counts["5"] == 8
    if options.get("colours") == "more_red":
        assert not any(c.endswith("C") and c[:-1].isdigit() for c in deck)


@pytest.mark.parametrize("options", [
    {"bogus": 1}, {"decks": 0}, {"jokers": 9}, {"trumps": "many"}, {"best_of": 2}, {"fungus": True, "nasty_hits": False},
    {"deck": ["5C"]}, {"deck": ["ZZ", "5C"]}, {"fairies": [{}]}, {"fairies": [{"live": 0, "kill": 0}, {}]},
    {"fairies": [{"live": 2}, {}]}, {"fairies": [{"weapon": "sword"}, {}]}, {"fairies": [{"conditions": ["hexed"]}, {}]},
    {"fairies": [{"conditions": ["panicked", "confused"]}, {}]}, {"answer_seconds": 0}, {"damage_scale": "double"},
])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(BadOptions):
        GAME.setup(options, 1)


# -- set-up -----------------------------------------------------------------------------------------


def test_weapons_are_chosen_sealed_and_revealed_together() -> None:
    state = GAME.setup({}, 5)
    assert view(state, 0)["phase"] == "setup" and view(state, 0)["waiting_for"] == [0, 1]
    assert [d["weapon"] for d in GAME.legal(state, 0)] == ["claws", "moon_dagger", "vibro_master"]
    assert GAME.timer(state) is None
    locked, events = decide(state, 1, {"kind": "weapon", "weapon": "vibro_master"})
    assert GAME.version(locked) == 1 and GAME.opened(locked, 0) == 0
    assert texts(events, 0) == texts(events, None) == ["Player 2 has locked in."]
    assert texts(events, 1) == ["You lock in: Vibro-Master."]
    for seat in (0, None):
        seen = view(locked, seat)
        assert seen["locked"] == [False, True] and seen["my_choice"] is None
        assert [f["weapon"] for f in seen["fairies"]] == [None, None]
    assert "vibro" not in json.dumps(view(locked, None)).lower()
    assert view(locked, 1)["my_choice"] == {"kind": "weapon", "weapon": "vibro_master"}
    assert GAME.legal(locked, 1) == [] and GAME.timer(locked) == (0, 30)
    with pytest.raises(NotYourTurn):
        GAME.apply(locked, 1, {"kind": "weapon", "weapon": "claws"})
    state, events = decide(locked, 0, {"kind": "weapon", "weapon": "moon_dagger"})
    assert events_of(events, "weapons")[0].public["text"] == (
        "Player 1 takes Moon Dagger (Live 3, Kill 3, Twinkle 1); Player 2 takes Vibro-Master (Live 3, Kill 3, Twinkle 1).")
    assert [f["weapon"] for f in view(state, None)["fairies"]] == ["moon_dagger", "vibro_master"]
    assert view(state, None)["phase"] == "action"


def test_split_points_is_a_sealed_split_of_six_at_least_one_each() -> None:
    state = GAME.setup({"split_points": True}, 5)
    legal = bare(GAME.legal(state, 0))
    assert len(legal) == 15 and legal[0] == {"kind": "weapon", "weapon": "claws", "live": 3, "kill": 3}
    assert {(d["live"], d["kill"]) for d in legal} == {(3, 3), (2, 4), (4, 2), (1, 5), (5, 1)}
    with pytest.raises(IllegalDecision):
        GAME.apply(state, 0, {"kind": "weapon", "weapon": "claws", "live": 0, "kill": 6})
    state, _ = both(state, {"kind": "weapon", "weapon": "claws", "live": 1, "kill": 5},
                    {"kind": "weapon", "weapon": "claws", "live": 4, "kill": 2})
    assert [(f["live"], f["kill"], f["twinkle"]) for f in view(state, None)["fairies"]] == [(1, 5, 1), (4, 2, 1)]


def test_scenario_fairies_skip_their_set_up() -> None:
    state = start(["KH", "2C", "3C"], [{"live": 2, "kill": 5, "twinkle": 3, "weapon": "vibro_master",
                                        "conditions": ["gbh"], "mushrooms": 1}, {}])
    seen = fairy(state, 0)
    assert (seen["live"], seen["kill"], seen["twinkle"], seen["weapon"], seen["conditions"], seen["mushrooms"]) == (
        2, 5, 3, "vibro_master", ["gbh"], 1)
    assert fairy(state, 1)["mushrooms"] == 2 and view(state, None)["phase"] == "action"


# -- rounds and Order cards ------------------------------------------------------------------------------


def test_the_higher_order_card_acts_first() -> None:
    state = start(["3C", "QD", "4C"])
    assert view(state, None)["order"] == [1, 0] and view(state, None)["turn"] == 1
    assert GAME.legal(state, 0) == [] and [d["action"] for d in GAME.legal(state, 1)][:2] == ["attack", "wrestle"]


def test_order_ties_draw_again_and_a_joker_is_15() -> None:
    state = start(["5H", "5S", "JK1", "AS", "2C"])
    seen = view(state, None)
    assert seen["order"] == [0, 1]
    assert [c["code"] for c in seen["fairies"][0]["order_cards"]] == ["5H", "JK1"]
    assert [c["value"] for c in seen["fairies"][1]["order_cards"]] == [5, 14]


def test_panicked_acts_first_confused_acts_last() -> None:
    assert view(start(["2C", "KH", "3C"], [{"conditions": ["panicked"]}, {}]), None)["order"] == [0, 1]
    assert view(start(["KH", "2C", "3C"], [{"conditions": ["confused"]}, {}]), None)["order"] == [1, 0]
    both_panicked = [{"conditions": ["panicked"]}, {"conditions": ["panicked"]}]
    assert view(start(["2C", "KH", "3C"], both_panicked), None)["order"] == [1, 0]


# -- combat hands -----------------------------------------------------------------------------------------


def test_vibro_master_two_attacks_one_more_card_one_less_for_the_defender() -> None:
    state = start(["KH", "2C", *["2H"] * 5, *["3H"] * 3, "4H"], [{"weapon": "vibro_master"}, {}])
    state, events = act(state, 0, "attack")
    assert texts(events)[:3] == [
        "Player 1 attacks Player 2 with Vibro-Master (2 attacks from one combat hand).",
        "Player 1 draws a combat hand of 5 cards (Kill 3 + Vibro-Master 1 + for attacking 1).",
        "Player 2 draws a combat hand of 3 cards (Live 3 - Vibro-Master 1 + Posed: not yet acted 1).",
    ]
    assert view(state, 1)["combat"]["attacks"] == 2 and [s["hand_count"] for s in view(state, 1)["combat"]["sides"]] == [5, 3]


def test_moon_dagger_one_more_attack_card() -> None:
    state = fight(["2H"] * 5, ["3H"] * 4, fairies=[{"weapon": "moon_dagger"}, {}])
    assert view(state, None)["combat"]["attacks"] == 1


def test_gbh_and_dazed_cost_cards_and_dazed_loses_posed() -> None:
    state = start(["KH", "2C", "2H", "3H", "4H", "5H", "6H", "7H"], [{"conditions": ["gbh"]}, {"conditions": ["dazed"]}])
    state, events = act(state, 0, "attack")
    assert texts(events)[1:3] == [
        "Player 1 draws a combat hand of 3 cards (Kill 3 + for attacking 1 - GBH 1).",
        "Player 2 draws a combat hand of 2 cards (Live 3 - Dazed 1).",
    ]


def test_the_opponent_sees_only_the_count_of_a_combat_hand() -> None:
    state = fight(["7H", "JH", "3S", "9D"], ["5H", "QS", "4C", "6D"])
    blob = json.dumps(view(state, 1), ensure_ascii=False)
    assert not any(f'"{code}"' in blob for code in ["7H", "JH", "3S", "9D"])
    assert view(state, 1)["combat"]["sides"][0]["hand_count"] == 4
    spectator = view(state, None)
    assert spectator["hand"] is None and [s["hand_count"] for s in spectator["combat"]["sides"]] == [4, 4]
    assert not any(f'"{c}"' in json.dumps(spectator) for c in ["7H", "JH", "3S", "9D", "5H", "QS", "4C", "6D"])


# -- declaring, Trumps and Numbered cards -------------------------------------------------------------------


def test_add_or_subtract_is_declared_sealed_and_revealed_together() -> None:
    state = fight(["7H", "JH", "3S", "9D"], ["5H", "QS", "4C", "6D"])
    assert view(state, None)["phase"] == "declare" and GAME.timer(state) is None
    state, events = decide(state, 0, SUB)
    assert texts(events, 1) == ["Player 1 has locked in."] and GAME.timer(state) == (1, 30)
    state, events = decide(state, 1, ADD)
    assert texts(events)[-1] == "Player 1 will subtract her Trumps; Player 2 will add her Trumps."
    assert [s["direction"] for s in view(state, None)["combat"]["sides"]] == ["subtract", "add"]


def test_trump_selections_are_one_colour_jokers_take_a_named_colour() -> None:
    state = fight(["JH", "QD", "KS", "7H"], ["JK1", "QH", "5C", "6C"])
    state, _ = both(state, ADD, ADD)
    assert bare(GAME.legal(state, 0)) == [
        NONE, trumps("JH", colour="red"), trumps("QD", colour="red"), trumps("JH", "QD", colour="red"),
        trumps("KS", colour="black")]
    assert bare(GAME.legal(state, 1)) == [
        NONE, trumps("QH", colour="red"), trumps("JK1", colour="red"), trumps("QH", "JK1", colour="red"),
        trumps("JK1", colour="black")]
    with pytest.raises(IllegalDecision, match="one colour"):
        GAME.apply(state, 0, trumps("JH", "KS"))
    with pytest.raises(IllegalDecision, match="not in your combat hand"):
        GAME.apply(state, 0, trumps("AS"))
    with pytest.raises(IllegalDecision, match="name the colour"):
        GAME.apply(state, 1, trumps("JK1"))
    with pytest.raises(IllegalDecision, match="only Trumps"):
        GAME.apply(state, 0, trumps("7H"))
    state, _ = decide(state, 0, trumps("QD", "JH"))
    state, events = decide(state, 1, trumps("JK1", colour="black"))
    assert texts(events)[-1] == "Player 1 reveals J♥ Q♦ (red); Player 2 reveals Joker 1 (black)."


def test_a_fairy_must_play_a_numbered_card_if_she_has_one() -> None:
    state = fight(["JH", "QD", "KS", "7H"], ["2C", "3C", "5C", "6C"])
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    assert bare(GAME.legal(state, 0)) == [card("7H")]
    with pytest.raises(IllegalDecision, match="must play a Numbered card"):
        GAME.apply(state, 0, {"kind": "wild", "card": "JH"})


@pytest.mark.parametrize(("a", "d", "rule", "winner", "diff"), [
    ("9H", "4D", "Same colour: the highest wins (9 against 4).", 0, 5),
    ("9H", "4S", "Different colours: the lowest wins (9 against 4).", 1, 5),
    ("3C", "8S", "Same colour: the highest wins (3 against 8).", 1, 5),
    ("6C", "6D", "Different colours: the lowest wins (6 against 6).", None, 0),
])
def test_same_colour_highest_wins_different_colour_lowest_wins(a: str, d: str, rule: str, winner: int | None,
                                                               diff: int) -> None:
    state = fight([a, "2C", "2C", "2C"], [d, "3C", "3C", "3C"], **NO_NASTY)
    state, events = play_numbered(state, a, d)
    last = view(state, None)["last"]
    assert rule in texts(events) and (last["winner"], last["diff"]) == (winner, diff)
    if winner is None:
        assert "A draw: nobody scores." in texts(events) and fairy(state, 1)["live"] == 3


def test_matching_trumps_move_the_card_the_declared_way() -> None:
    """Subtract: J♣ and Q♠ under 8♣ make 6; against the defender's 9♠ (highest wins): 6 against 9."""
    state = fight(["8C", "JC", "QS", "2H"], ["9S", "3H", "4H", "5H"], **NO_NASTY)
    state, _ = both(state, SUB, ADD)
    state, _ = both(state, trumps("JC", "QS"), NONE)
    state, _ = both(state, card("8C"), card("9S"))
    state, events = decide(state, 0, {"kind": "reveal_trumps", "reveal": True})
    assert texts(events)[3:5] == ["Player 1 subtracts J♣ (black, matching 8♣): 8 → 7.",
                                  "Player 1 subtracts Q♠ (black, matching 8♣): 7 → 6."]
    assert view(state, None)["last"]["winner"] == 1


def test_face_down_trumps_kept_are_never_shown_and_cannot_be_caught_cheating() -> None:
    state = fight(["7H", "KS", "2C", "3C"], ["5H", "4C", "6C", "8C"], **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, events = both(state, trumps("KS"), NONE)
    state, more = both(state, card("7H"), card("5H"))
    events += more
    assert [d["label"] for d in GAME.legal(state, 0)] == [
        "Reveal and apply your Trumps: 6 against 6, a draw",
        "Keep your Trumps face down: 7 against 5, you win by 2 (1 point)",
    ]
    state, more = decide(state, 0, {"kind": "reveal_trumps", "reveal": False})
    events += more
    state, more = take(state, 1, "live")
    events += more
    assert "Player 1 keeps her 1 Trump face down: they are not used." in texts(events)
    for seat in (1, None):
        assert "K♠" not in told(events, seat) and '"KS"' not in json.dumps([e.public for e in events])
        assert "KS" not in json.dumps(view(state, seat))
    assert "K♠" in told(events, 0)
    assert view(state, None)["last"]["winner"] == 0 and view(state, None)["last"]["sides"][0]["face_down"] == 1
    assert "KS" in state.spoils_down


def test_a_timed_out_reveal_takes_the_better_result() -> None:
    state = fight(["7H", "KH", "2C", "3C"], ["5H", "4C", "6C", "8C"], **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, trumps("KH"), NONE)
    state, _ = both(state, card("7H"), card("5H"))
    assert GAME.timer(state) == (0, 30)
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, {"kind": "timeout"})
    with pytest.raises(IllegalDecision, match="may decide 'reveal_trumps'"):
        GAME.apply(state, 0, {"kind": "nonsense"})
    state, events = decide(state, 0, {"kind": "timeout"})
    assert "Player 1 reveals her face-down Trumps: K♥ (red)." in texts(events)
    assert view(state, None)["last"]["diff"] == 3


def test_the_cheat_application_is_the_best_for_the_applier() -> None:
    """Brute force: no way of moving the two cards gives the applier a better result than the server's."""
    for mine, theirs, n in itertools.product(["5H", "5S"], ["7H", "3S", "6D"], [1, 2, 3]):
        sides = [Side(0, direction="add", card=mine), Side(1, direction="add", card=theirs,
                                                             trumps=["JC" if theirs[-1] in "HD" else "JH"] * n,
                                                             colour="black" if theirs[-1] in "HD" else "red", shown=True)]
        combat = Combat("attack", 0, 1, 1, 1, sides)
        got = evaluate(combat, DamageScale.HALVED)
        best = -99
        same = (mine[-1] in "HD") == (theirs[-1] in "HD")
        for moves in itertools.product((-1, 1), repeat=2 * n):
            a = int(mine[:-1]) + sum(moves[:n])
            b = int(theirs[:-1]) + n * 0 + sum(moves[n:])
            margin = (a - b) if same else (b - a)
            best = max(best, margin)
        values = got.values
        assert values[0] is not None and values[1] is not None
        margin = (values[0] - values[1]) if same else (values[1] - values[0])
        assert margin == best, (mine, theirs, n)


@pytest.mark.parametrize(("diff", "halved", "tiered"), [(0, 0, 0), (1, 1, 1), (4, 2, 1), (5, 3, 2), (8, 4, 2),
                                                       (9, 5, 3), (14, 7, 3)])
def test_points_halved_rounded_up_or_tiered(diff: int, halved: int, tiered: int) -> None:
    assert points_for(diff, DamageScale.HALVED) == halved and points_for(diff, DamageScale.TIERED) == tiered


def test_tiered_damage_option() -> None:
    state = fight(["10H", "2C", "2C", "2C"], ["4H", "3C", "3C", "3C"], damage_scale="tiered", **NO_NASTY)
    state, events = play_numbered(state, "10H", "4H")
    assert "Player 1 wins by 6: 2 points (a difference of 6 on the tiered scale)." in texts(events)


# -- the defender wins -------------------------------------------------------------------------------------------


def test_a_defender_who_has_already_acted_gains_nothing() -> None:
    """P1 wrestles first (2♥ beats 6♣: lowest wins); then P2 attacks and P1 defends with 9♦ against 2♦ (highest
    wins): P1 wins by 7, but she has had her turn: no bonus cards."""
    state = start(["KH", "2C", "2H", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "2D", "9H", "8H", "JS", "9D", "QS", "KS"],
                  **NO_NASTY)
    state, _ = act(state, 0, "wrestle")
    state, _ = play_numbered(state, "2H", "6C")
    state, _ = take(state, 1, "live", "live")
    state, _ = act(state, 1, "attack")
    state, events = play_numbered(state, "2D", "9D", attacker=1)
    assert "Player 1 has had her turn this round: her 4 points bring no bonus cards." in texts(events)
    assert fairy(state, 0)["bonus"] == 0


def test_multiple_attacks_points_as_trumps_on_the_next_card() -> None:
    """Attack 1: 2♥ against 8♥, P2 wins by 6 (3 points) and keeps them as Trumps. Attack 2: 9♥ against 5♣
    (lowest wins); she subtracts the 3 points: 2 against 9, a win by 7: 4 bonus cards."""
    state = fight(["2H", "9H", "3D", "JC", "4S"], ["8H", "QH", "5C"], fairies=[{"weapon": "vibro_master"}, {}])
    state, _ = both(state, ADD, SUB)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, card("2H"), card("8H"))
    assert view(state, None)["phase"] == "points" and GAME.timer(state) == (1, 30)
    assert [d["label"] for d in GAME.legal(state, 1)] == ["Bonus: 3 extra cards for your attack this round",
                                                          "Use the 3 points as Trumps on the next attack"]
    state, events = decide(state, 1, {"kind": "points", "use": "trumps"})
    assert "Attack 2 of 2." in texts(events)
    state, _ = both(state, NONE, NONE)
    state, _ = both(state, card("9H"), card("5C"))
    assert [d["label"] for d in GAME.legal(state, 1)] == [
        "Apply the points: 2 against 9, you win by 7 (4 points)",
        "Do not apply the points: 5 against 9, you win by 4 (2 points)"]
    state, events = decide(state, 1, {"kind": "apply_points", "apply": True})
    assert "Player 2 subtracts her 3 points from the last attack as Trumps: 5 → 2." in texts(events)
    assert fairy(state, 1)["bonus"] == 4


def test_points_as_wild_trumps_when_no_card_is_left() -> None:
    """P2 (Live 1) has one card; she wins attack 1 by 6 and keeps the 3 points as Trumps. With no card left she
    names them red Wild Trumps: the server draws 4♦ for her: 4 + 3 = 7 against 9♥: P1 wins by 2."""
    state = fight(["2H", "9H", "3D", "JC", "4S"], ["8H"], rest=["4D", "10S"],
                  fairies=[{"weapon": "vibro_master"}, {"live": 1, "kill": 5}], **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, _ = both(state, card("2H"), card("8H"))
    state, _ = decide(state, 1, {"kind": "points", "use": "trumps"})
    assert bare(GAME.legal(state, 1)) == [NONE, {"kind": "trumps", "cards": [], "wild_points": "red"},
                                          {"kind": "trumps", "cards": [], "wild_points": "black"}]
    state, _ = decide(state, 1, {"kind": "trumps", "cards": [], "wild_points": "red"})
    state, events = decide(state, 0, NONE)
    assert "Player 2 has no card left: her 3 points from the last attack count as red Wild Trumps." in texts(events)
    assert view(state, 1)["locked"] == [False, True]
    state, events = decide(state, 0, card("9H"))
    said = texts(events)
    assert ("For her Wild Trump points, the server draws for Player 2 from the Fairy Deck until a Numbered card: "
            "4♦ (her Numbered card).") in said
    assert "Player 2 adds a Wild Trump point (red, matching 4♦): 6 → 7." in said
    assert "Player 1 wins by 2: 1 point (2 halved, rounded up)." in said


# -- Wild Trumps, Jokers, the Ace of Spades -------------------------------------------------------------------


def test_a_joker_pulled_as_a_wild_trump_takes_the_numbered_cards_colour() -> None:
    state = fight(["QS", "KS"], ["2H", "3H", "4H", "5H"], fairies=[{"live": 3, "kill": 1}, {}], rest=["JK2", "6D"],
                  **NO_NASTY)
    state, _ = both(state, SUB, ADD)
    state, _ = both(state, NONE, NONE)
    state, events = both(state, {"kind": "wild", "card": "QS"}, card("5H"))
    said = texts(events)
    assert ("For Q♠ played as a Wild Trump, the server draws for Player 1 from the Fairy Deck until a Numbered card: "
            "Joker 2 (a Trump: a Wild Trump too), 6♦ (her Numbered card).") in said
    assert "Player 1 subtracts Joker 2 (wild) (red, matching 6♦): 6 → 5." in said
    # Q♠ (black) under a red card is a cheat that P2 applies (same colour: her 5 up, P1's 5 down)
    assert "Same colour: the highest wins (4 against 6)." in said


def test_no_card_at_all_scores_against_nothing() -> None:
    """A Dazed defender with Live 1 draws no card: P1's 7♥ wins by its value, 7: 4 points."""
    state = fight(["7H", "2C", "3C", "4C"], [], fairies=[{}, {"live": 1, "kill": 3, "conditions": ["dazed"]}],
                  **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, _ = decide(state, 0, NONE)
    state, events = decide(state, 0, card("7H"))
    assert "Player 2 has no Numbered card: Player 1 scores her value against nothing (7)." in texts(events)
    assert "Player 1 wins by 7: 4 points (7 halved, rounded up)." in texts(events)


def test_the_ace_of_spades_doubles_the_damage_when_revealed() -> None:
    state = fight(["7S", "AS", "2C", "3H"], ["3C", "KH", "4H", "5H"], **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, trumps("AS"), trumps("KH"))
    state, events = both(state, card("7S"), card("3C"))
    said = texts(events)
    assert "Player 1 wins by 7: 4 points (7 halved, rounded up)." in said
    assert "The Ace of Spades was revealed in this attack: the damage doubles: 4 → 8." in said
    assert view(state, None)["last"]["damage"] == [0, 8]


def test_a_face_down_ace_of_spades_never_revealed_doubles_nothing() -> None:
    state = fight(["7S", "AS", "2C", "3H"], ["3C", "4H", "5H", "6H"], **NO_NASTY)
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, trumps("AS"), NONE)
    state, _ = both(state, card("7S"), card("3C"))
    state, events = decide(state, 0, {"kind": "reveal_trumps", "reveal": False})
    assert view(state, None)["last"]["damage"] == [0, 2] and not events_of(events, "ace_of_spades")


# -- damage -------------------------------------------------------------------------------------------------


def test_damage_is_taken_point_by_point_the_larger_pool_on_time_out() -> None:
    state = fight(["10H", "2C", "2C", "2C"], ["6H", "3C", "3C"], fairies=[{}, {"live": 2, "kill": 4}], **NO_NASTY)
    state, _ = play_numbered(state, "10H", "6H")
    assert view(state, None)["phase"] == "damage" and bare(GAME.legal(state, 1)) == [
        {"kind": "damage", "from": "live"}, {"kind": "damage", "from": "kill"}]
    state, events = decide(state, 1, {"kind": "timeout"})
    assert "Player 2 takes 1 damage from Kill: Live 2, Kill 3 (1 more to take)." in texts(events)
    state, events = decide(state, 1, {"kind": "timeout"})
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (2, 2)


def test_a_fairy_with_kill_points_but_no_live_points_is_alive() -> None:
    state = fight(["10H", "2C", "2C", "2C"], ["6H", "3C", "3C"], fairies=[{}, {"live": 2, "kill": 1}], **NO_NASTY)
    state, _ = play_numbered(state, "10H", "6H")
    state, _ = take(state, 1, "live")
    state, _events = take(state, 1, "live")
    assert GAME.outcome(state) is None and (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (0, 1)


def test_a_dead_fairy_ends_the_match() -> None:
    state = fight(["10H", "2C", "2C", "2C"], ["2H", "3C"], fairies=[{}, {"live": 1, "kill": 2}], **NO_NASTY)
    state, events = play_numbered(state, "10H", "2H")
    said = texts(events)
    assert "Player 2 takes 3 damage from Live, the only points she has left: Live 0, Kill 0." not in said
    state, events = take(state, 1, "live")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (1, 0)
    assert texts(events)[-4:] == [
        "To the Spoils Heap: 10♥ 2♥.",
        "The combat is over: the cards left in the combat hands (3 and 1) go to the Spoils Heap face down.",
        "Player 2's fairy is dead: Player 1 wins duel 1.",
                                  "The match is over: Player 1's fairy wins."]
    with pytest.raises(MatchOver):
        GAME.apply(state, 0, {"kind": "timeout"})
    assert GAME.legal(state, 0) == [] and GAME.timer(state) is None and view(state, 0)["outcome"]["winner"] == 0


def test_best_of_three_starts_a_new_duel() -> None:
    state = fight(["10H", "2C", "2C", "2C"], ["2H", "3C"], fairies=[{}, {"live": 1, "kill": 1}],
                  best_of=3, **NO_NASTY)
    state, _ = play_numbered(state, "10H", "2H")
    state, events = take(state, 1, "live")
    assert GAME.outcome(state) is None
    seen = view(state, None)
    assert (seen["duel"], seen["wins"], seen["round"]) == (2, [1, 0], 1)
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (1, 1)
    assert "Duel 2 (best of 3; 1-0): the Fairy Deck holds 8 cards." in texts(events)
    assert "Player 1 takes Claws (Live 3, Kill 3, Twinkle 1); Player 2 takes Claws (Live 1, Kill 1, Twinkle 1)." in texts(
        events)


# -- wrestling --------------------------------------------------------------------------------------------------


def test_wrestling_the_winner_hurts_the_loser_even_the_attacker() -> None:
    state = fight(["2H", "3C"], ["9H", "4C", "5C", "6C"], fairies=[{"live": 3, "kill": 1}, {}], action="wrestle",
                  **NO_NASTY)
    state, events = play_numbered(state, "2H", "9H")
    assert "Player 2 wins by 7: 4 points (7 halved, rounded up)." in texts(events)
    assert "Player 1 is hit by the wrestle for 4 damage." in texts(events)
    state, _ = take(state, 0, "kill")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 1


# -- Nasty Hits -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "result"), [
    (-3, "spawny_get"), (0, "spawny_get"), (1, "narrow_escape"), (2, "dazed"), (3, "clipped_wings"), (4, "gbh"),
    (5, "brains_rattled"), (6, "panicked"), (7, "confused"), (8, "berserk"), (9, "bleeder"), (10, "gusher"),
    (11, "head_off"), (15, "head_off"),
])
def test_the_nasty_hits_table(value: int, result: str) -> None:
    assert nasty_result(value)[0] == result


def nasty(draws: list[str], defender: dict[str, Any] | None = None, **options: Any) -> tuple[Any, list[Any]]:
    """P1's 10♥ beats P2's 4♥ by 6: 3 damage, a Nasty Hit drawn from ``draws``."""
    defender = defender or {}
    live = defender.get("live", 3)
    state = fight(["10H", "2C", "2C", "2C"], ["4H", *["3C"] * live], rest=[*draws, "2S", "2S", "2S", "2S"],
                  fairies=[{}, defender], **options)
    return play_numbered(state, "10H", "4H")


def test_a_nasty_hit_joker_halves_the_damage() -> None:
    _state, events = nasty(["JK1"])
    assert texts(events)[-1] == ("Nasty Hit on Player 2 (3 damage in one blow): the server draws Joker 1. A Joker: she "
                                 "lucks out big time, takes only half the damage (3 → 2, rounded up) and no Nasty Hit.")


def test_spawny_get_avoids_all_the_damage() -> None:
    state, events = nasty(["QH", "KD", "2S"])
    text = str(events_of(events, "nasty_hit")[0].public["text"])
    assert text.endswith("2♠ 2 - 2 (red Trumps) = 0: Spawny Get: she avoids the blow completely and takes no damage "
                         "from this attack. Damage 3 → 0.")
    assert fairy(state, 1)["live"] == 3 and view(state, None)["turn"] == 1


def test_narrow_escape_halves_the_damage() -> None:
    _state, events = nasty(["JH", "2C"])
    assert "Damage 3 → 2." in texts(events)[-1]


def test_dazed_skips_the_next_turn() -> None:
    state, events = nasty(["2S"])
    state, events = take(state, 1, "live", "live", "live")
    assert "Player 2 is Dazed." in texts(events)
    assert "Player 2 is Dazed: she spends this turn doing nothing (and is Dazed no more)." in texts(events)
    assert view(state, None)["round"] == 2 and fairy(state, 1)["conditions"] == []


def test_brains_rattled_loses_twinkle_or_hurts_more() -> None:
    state, events = nasty(["5S"])
    state, events = take(state, 1, "live", "live", "live")
    assert fairy(state, 1)["twinkle"] == 0 and "Player 2 loses a Twinkle point for good (0 left)." in texts(events)
    state, events = nasty(["5S"], {"twinkle": 0})
    assert "Damage 3 → 4." in texts(events)[-1]


def test_an_ace_of_spades_drawn_for_a_nasty_hit_doubles_the_damage() -> None:
    state, events = nasty(["AS", "2C"], {"live": 5, "kill": 5})
    said = texts(events)
    assert "The Ace of Spades is drawn for the Nasty Hit: the damage doubles: 3 → 6." in said
    assert said[-1].endswith("2♣ 2 + 3 (damage over 3) + 1 (black Trump) = 6: Panicked: she acts first every round.")
    state, events = take(state, 1, *["live"] * 5)
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (0, 4) and fairy(state, 1)["conditions"] == ["panicked"]


def test_panicked_and_confused_cancel_out() -> None:
    state, events = nasty(["6S"], {"conditions": ["confused"]})
    state, events = take(state, 1, "live", "live", "live")
    assert "Player 2 was Confused: the two cancel out and both are gone." in texts(events)
    assert fairy(state, 1)["conditions"] == []


def test_berserk_turns_live_into_kill_and_allows_only_fighting() -> None:
    state, _ = nasty(["8S"], {"live": 5, "kill": 1, "conditions": ["confused"], "twinkle": 1})
    state, _events = take(state, 1, "live", "live", "live")
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"], fairy(state, 1)["conditions"]) == (0, 3, ["berserk"])
    assert [d["action"] for d in GAME.legal(state, 1)] == ["attack", "wrestle"]


def test_the_head_comes_off() -> None:
    state, events = nasty(["KS", "10S"], {"live": 9, "kill": 9})
    state, events = take(state, 1, "live", "live", "live")
    assert "Player 2's head comes clean off: she is dead." in texts(events)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0


def test_bleeder_and_gusher_at_the_start_of_the_turn() -> None:
    state = start(["2C", "KH", "3C"], [{}, {"conditions": ["bleeder", "gusher"]}])
    assert view(state, None)["phase"] == "damage"
    state, _ = take(state, 1, "live", "kill")
    assert (fairy(state, 1)["live"], fairy(state, 1)["kill"]) == (2, 2) and view(state, None)["phase"] == "action"
    quiet = start(["KH", "2C", "3C"], [{}, {"conditions": ["bleeder"]}])
    assert view(quiet, None)["phase"] == "action" and view(quiet, None)["turn"] == 0


# -- Kiss and Fungus --------------------------------------------------------------------------------------------


def test_a_kiss_spends_twinkle_to_remove_one_condition() -> None:
    state = start(["KH", "2C", "3C"], [{"conditions": ["gbh", "clipped_wings", "gbh"]}, {}])
    kisses = [d for d in bare(GAME.legal(state, 0)) if d["action"] == "kiss"]
    assert kisses == [{"kind": "action", "action": "kiss", "condition": "clipped_wings"},
                      {"kind": "action", "action": "kiss", "condition": "gbh"}]
    state, _events = act(state, 0, "kiss", condition="gbh")
    assert fairy(state, 0)["conditions"] == ["clipped_wings", "gbh"] and fairy(state, 0)["twinkle"] == 0
    no_twinkle = start(["KH", "2C", "3C"], [{"conditions": ["gbh"], "twinkle": 0}, {}])
    assert "kiss" not in [d["action"] for d in GAME.legal(no_twinkle, 0)]


@pytest.mark.parametrize(("drawn", "before", "after"), [
    ("QD", ["panicked"], []),
    ("AC", ["gbh", "clipped_wings", "gbh", "bleeder"], ["bleeder"]),
    ("KH", ["bleeder", "gbh"], ["gbh"]),
    ("AH", ["bleeder", "gusher", "gusher"], []),
    ("5S", ["gbh"], ["gbh"]),
    ("KS", ["gbh"], ["gbh"]),
])
def test_fungus_cures_by_suit(drawn: str, before: list[str], after: list[str]) -> None:
    state = start(["10H", "2C", drawn, "3C"], [{"conditions": before, "live": 5, "kill": 5}, {}])
    while view(state, None)["phase"] == "damage":
        state, _ = take(state, 0, "live")
    state, _events = act(state, 0, "fungus")
    assert fairy(state, 0)["conditions"] == after and fairy(state, 0)["mushrooms"] == 1


def test_fungus_asks_which_when_two_can_be_cured() -> None:
    state = start(["KH", "2C", "JC", "3C"], [{"conditions": ["gbh", "clipped_wings"]}, {}])
    state, _ = act(state, 0, "fungus")
    assert view(state, None)["phase"] == "cure"
    assert bare(GAME.legal(state, 0)) == [{"kind": "cure", "condition": "clipped_wings"},
                                          {"kind": "cure", "condition": "gbh"}]
    state, _ = decide(state, 0, {"kind": "cure", "condition": "gbh"})
    assert fairy(state, 0)["conditions"] == ["clipped_wings"]


def test_a_poisoned_mushroom_is_a_nasty_hit_and_an_ace_of_diamonds_restores_twinkle() -> None:
    state = start(["KH", "2C", "JK1", "7S", "AD", "3C"], [{}, {}])
    state, events = act(state, 0, "fungus")
    assert "The mushroom's card is Joker 1: poisoned! She draws for a Nasty Hit." in texts(events)
    assert fairy(state, 0)["conditions"] == ["confused"]
    state, events = act(state, 1, "fungus")
    assert fairy(state, 1)["conditions"] == [] and "Ace of Diamonds" in texts(events)[1]
    no_mushrooms = start(["KH", "2C"], [{"mushrooms": 0}, {}])
    assert "fungus" not in [d["action"] for d in GAME.legal(no_mushrooms, 0)]
    assert "fungus" not in [d["action"] for d in GAME.legal(start(["KH", "2C"], fungus=False), 0)]


# -- the Spoils Heap ---------------------------------------------------------------------------------------------


def test_the_spoils_heap_is_reshuffled_when_the_deck_runs_out() -> None:
    state = fight(["9H", "2C", "2C", "2C"], ["9D", "3C", "3C", "3C"], **NO_NASTY)
    assert view(state, None)["deck"] == 0
    state, _ = play_numbered(state, "9H", "9D")
    seen = view(state, None)
    assert state.spoils == ["KH", "2C", "9H", "9D"] and len(state.spoils_down) == 6
    assert seen["spoils"] == 10 and seen["spoils_top"] is None
    state, events = act(state, 1, "wrestle")
    assert "The Fairy Deck is empty: the Spoils Heap (10 cards) is shuffled into a new Fairy Deck." in texts(events)
    assert view(state, None)["spoils"] == 0 and view(state, None)["spoils_top"] is None


def test_reshuffle_every_round_option() -> None:
    state = fight(["9H", "2C", "2C", "2C"], ["9D", "3C", "3C", "3C"], rest=["4C"] * 20, spoils="reshuffle")
    state, _ = play_numbered(state, "9H", "9D")
    state, _ = act(state, 1, "fungus")
    assert "Round 2: the whole Fairy Deck is reshuffled." in texts(_)
    assert view(state, None)["deck"] + len(state.spoils) == 30


# -- interface details -------------------------------------------------------------------------------------------


def test_timers_answer_seconds_and_actions_time_out_to_attack() -> None:
    state = start(["KH", "2C", *["3C"] * 12], answer_seconds=45)
    assert GAME.timer(state) == (0, 45)
    state, events = decide(state, 0, {"kind": "timeout"})
    assert texts(events, 0)[0] == "Your time is up: the server decides for you: Attack with Claws."
    assert texts(events, 1)[0] == "Player 1's time is up: the server decides for her."
    assert view(state, None)["combat"]["kind"] == "attack" and GAME.timer(state) is None


@settings(max_examples=30, deadline=None)
@given(hand=st.lists(st.sampled_from(["JH", "QD", "KS", "AC", "JK1", "7H", "2S"]), max_size=5, unique=True))
def test_trump_options_are_every_one_colour_subset(hand: list[str]) -> None:
    trumps_in_hand = [c for c in hand if c[0] in "JQKA"]
    count = 1
    for colour in Colour:
        pool = [c for c in trumps_in_hand if c.startswith("JK") or (c[-1] in "HD") == (colour is Colour.RED)]
        count += 2 ** len(pool) - 1
    table = Table(GAME.setup({"deck": ["KH", "2C"], "fairies": [{"weapon": "claws"}, {"weapon": "claws"}]}, 1))
    table.s.combat = Combat("attack", 0, 1, 1, 1, [Side(0, hand=list(hand)), Side(1)])
    table.s.agenda.insert(0, {"do": "seal", "ask": "trumps"})
    options = table.options(0)
    assert len(options) == count

"""One focused test per Fairy Tableau rule, each from an exact scenario deck."""
from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.fairy_tableau import GAME
from engine.interface import Outcome, OutcomeReason
from tests.engine.fairy_tableau.scenario import codes, do, faces, kinds, start, texts


def view(state: Any) -> dict[str, Any]:
    out: dict[str, Any] = GAME.view(state, 0)
    return out


def discard(state: Any) -> list[str]:
    return faces(view(state)["discard"])


def bare(decisions: Any) -> list[dict[str, Any]]:
    """Legal decisions without the client's extra keys."""
    return [{k: v for k, v in d.items() if k not in ("label", "loses")} for d in decisions]


# -- the game and its set-up -----------------------------------------------------------------


def test_one_player_named_fairy_tableau() -> None:
    assert (GAME.name, GAME.title) == ("fairy_tableau", "Fairy Tableau")
    assert GAME.seats({}) == 1
    assert GAME.scenario({"deck": ["5C"]}) and not GAME.scenario({"fairies": 2})


def test_normal_deal_is_39_plus_one_fairy_seven_face_up_seven_mana() -> None:
    """Default (Normal): all Spades, Diamonds, Clubs and the King of Hearts; 7 dealt, 33 to draw, 7 mana."""
    state = GAME.setup({}, 1)
    deck = [*state.tableau, *state.draw]
    assert len(deck) == 40 and len(set(deck)) == 40
    assert Counter(c.suit.value for c in deck if c is not None) == {"S": 13, "D": 13, "C": 13, "H": 1}
    assert [c.code for c in deck if c is not None and c.suit.value == "H"] == ["KH"]
    seen = view(state)
    assert len(seen["tableau"]) == 7 and all(c is not None for c in seen["tableau"])
    assert (seen["draw_pile"], seen["discard"], seen["mana"]) == (33, [], 7)
    assert (seen["defeated"], seen["enemies"], seen["enemies_left"], seen["score"]) == (0, 13, 13, 7)


@pytest.mark.parametrize(("fairies", "hearts"), [(0, []), (1, ["KH"]), (2, ["KH", "QH"]), (3, ["KH", "QH", "JH"])])
def test_difficulty_sets_the_fairies_k_q_j_in_order(fairies: int, hearts: list[str]) -> None:
    """Hard 0, Normal 1 (K♥), Easy 2 (K♥ Q♥), Very Easy 3 (K♥ Q♥ J♥)."""
    state = GAME.setup({"fairies": fairies}, 3)
    deck = [c for c in (*state.tableau, *state.draw) if c is not None]
    assert len(deck) == 39 + fairies
    assert sorted(c.code for c in deck if c.suit.value == "H") == sorted(hearts)
    assert view(state)["options"]["fairies"] == fairies


def test_fairy_cards_choose_which_hearts() -> None:
    state = GAME.setup({"fairy_cards": ["jh", "QH"]}, 3)
    deck = [c for c in (*state.tableau, *state.draw) if c is not None]
    assert sorted(c.code for c in deck if c.suit.value == "H") == ["JH", "QH"]
    assert view(state)["options"]["fairy_names"] == ["Queen of Hearts", "Jack of Hearts"]


def test_the_seed_decides_the_shuffle() -> None:
    assert GAME.dump(GAME.setup({}, 42)) == GAME.dump(GAME.setup({}, 42))
    assert GAME.setup({}, 42).tableau != GAME.setup({}, 43).tableau


def test_scenario_deck_replaces_the_shuffle_first_seven_form_the_tableau() -> None:
    deck = ["AS", "2D", "3C", "4S", "5D", "6C", "KH", "8S", "9C"]
    state = start(deck[:7], deck[7:])
    assert codes(state) == deck[:7]
    assert [c.code for c in state.draw] == deck[7:]
    assert view(state)["draw_pile"] == 2 and view(state)["scenario"] is True
    assert (view(state)["enemies"], view(state)["options"]["fairies"]) == (3, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"run": True}, "unknown option 'run'"),
        ({"fairies": 4}, "'fairies' must be an integer from 0 to 3"),
        ({"fairies": True}, "'fairies' must be an integer"),
        ({"fairy_cards": ["10H"]}, "10H is not a fairy"),
        ({"fairy_cards": ["KH", "KH"]}, "names a fairy twice"),
        ({"fairy_cards": "KH"}, "'fairy_cards' must be a list"),
        ({"fairies": 2, "fairy_cards": ["KH"]}, "'fairies' is 2 but 'fairy_cards' names 1"),
        ({"fizzle": "never"}, "'fizzle' must be 'pay' or 'free'"),
        ({"ranked_enemies": 1}, "'ranked_enemies' must be true or false"),
        ({"deck": ["5C", "5C"]}, "holds 5C twice"),
        ({"deck": ["5C", "5H"]}, "5H is not in Fairy Tableau"),
        ({"deck": ["5S", "5D"]}, "at least one Club"),
        ({"deck": ["5X"]}, "option 'deck'"),
        ({"deck": ["5C", "KH"], "fairies": 0}, "'deck' holds 1 fairy"),
        ({"deck": ["5C", "KH"], "fairy_cards": ["QH"]}, "does not match the Hearts in 'deck'"),
    ],
)
def test_bad_options_name_what_is_wrong(options: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptions, match=message):
        GAME.setup(options, 1)


# -- values ----------------------------------------------------------------------------------


def test_values_ace_one_numbers_face_value_faces_ten() -> None:
    state = start(["AS", "9D", "10C", "JC", "QC", "KC", "KH"], ["KS", "KD"])
    assert [c["value"] for c in view(state)["tableau"]] == [1, 9, 10, 10, 10, 10, 10]
    assert [c["role"] for c in view(state)["tableau"]] == ["mana", "spell", "enemy", "enemy", "enemy", "enemy", "fairy"]


def test_ranked_enemies_make_club_faces_11_12_13_only() -> None:
    state = start(["JC", "QC", "KC", "KS", "KD", "KH", "10C"], ranked_enemies=True)
    assert [c["value"] for c in view(state)["tableau"]] == [11, 12, 13, 10, 10, 10, 10]


# -- spades ----------------------------------------------------------------------------------


def test_spade_adds_its_value_to_mana_and_is_replaced_from_the_draw_pile() -> None:
    state = start(["6S", "KS", "5C", "9D", "2S", "3S", "4S"], ["8S", "7C"])
    state, events = do(state, "mana", 0)
    assert view(state)["mana"] == 13 and discard(state) == ["6♠"]
    assert codes(state)[0] == "8S" and view(state)["draw_pile"] == 1
    assert kinds(events) == ["mana", "deal"]
    assert texts(events) == ["You play 6♠ for 6 mana (13 in all).", "8♠ is dealt to slot 0."]
    state, _ = do(state, "mana", 1)
    assert view(state)["mana"] == 23 and codes(state)[1] == "7C"


# -- diamonds --------------------------------------------------------------------------------


def test_cast_pays_the_spell_value_and_discards_spell_and_enemy() -> None:
    state = start(["7D", "5C", "7C", "9C", "2S", "KH"])
    assert bare(GAME.legal(state, 0))[:3] == [
        {"kind": "cast", "slot": 0, "target": 1},
        {"kind": "cast", "slot": 0, "target": 2},
        {"kind": "mana", "slot": 4},
    ]
    state, events = do(state, "cast", 0, target=1)
    assert (view(state)["mana"], view(state)["defeated"], view(state)["enemies_left"]) == (0, 1, 2)
    assert discard(state) == ["7♦", "5♣"]
    assert codes(state) == [None, None, "7C", "9C", "2S", "KH", None]
    assert texts(events) == ["You cast 7♦ at 5♣ (-7 mana, 0 mana left): both are discarded."]


def test_cast_at_an_enemy_of_equal_value_is_allowed() -> None:
    state, _ = do(start(["7D", "5C", "7C", "9C", "2S"]), "cast", 0, target=2)
    assert discard(state) == ["7♦", "7♣"]


def test_cast_at_a_stronger_enemy_is_refused() -> None:
    state = start(["7D", "5C", "7C", "9C", "2S"])
    with pytest.raises(IllegalDecision, match=r"7♦ \(7\) is too weak for 9♣ \(9\)"):
        do(state, "cast", 0, target=3)


def test_cast_at_a_card_that_is_not_a_club_is_refused() -> None:
    with pytest.raises(IllegalDecision, match="target 4 holds 2♠, not an enemy"):
        do(start(["7D", "5C", "7C", "9C", "2S"]), "cast", 0, target=4)


def test_a_spell_that_cannot_be_paid_for_is_a_legal_losing_play() -> None:
    """Mana 7, a 9♦ with a target: the cast is listed with loses; making it loses, nothing moves."""
    state = start(["9D", "5C", "2S"])
    cast = next(d for d in GAME.legal(state, 0) if d["kind"] == "cast")
    assert cast == {"kind": "cast", "slot": 0, "target": 1, "label": "Cast 9♦ at 5♣ (-9 mana, you have 7: loses)",
                    "loses": True}
    assert "loses" not in next(d for d in GAME.legal(state, 0) if d["kind"] == "mana")
    after, events = GAME.apply(state, 0, cast)
    assert GAME.outcome(after) == Outcome(None, OutcomeReason.LOST, (7,),
                                          "could not pay 9 mana for 9♦; 0 of 1 enemies defeated, 7 mana left: score 7")
    assert kinds(events) == ["unpaid", "over"]
    assert codes(after) == codes(state) and discard(after) == [] and view(after)["mana"] == 7
    assert GAME.version(after) == 1 and GAME.legal(after, 0) == []


# -- fizzling --------------------------------------------------------------------------------


def test_a_spell_with_no_enemy_weak_enough_fizzles_paying_its_cost() -> None:
    """3♦ cannot reach 5♣: it may only fizzle, and by default that costs its value."""
    state = start(["3D", "5C", "2S", "KH"])
    assert {"kind": "fizzle", "slot": 0} in bare(GAME.legal(state, 0))
    assert not any(d["kind"] == "cast" for d in GAME.legal(state, 0))
    state, events = do(state, "fizzle", 0)
    assert view(state)["mana"] == 4 and discard(state) == ["3♦"] and view(state)["defeated"] == 0
    assert texts(events) == ["3♦ fizzles (-3 mana, 4 mana left): it is discarded."]


def test_a_spell_fizzles_when_no_enemy_is_present() -> None:
    state = start(["4D", "2S", "3S", "4S", "5S", "6S", "7S"], ["5C", "KH"])
    state, _ = do(state, "fizzle", 0)
    assert view(state)["mana"] == 3 and codes(state)[0] == "5C"


def test_fizzle_free_option_costs_nothing() -> None:
    state = start(["3D", "5C", "2S", "KH"], fizzle="free")
    fizzle = next(d for d in GAME.legal(state, 0) if d["kind"] == "fizzle")
    assert fizzle == {"kind": "fizzle", "slot": 0, "label": "Fizzle 3♦ (free)"}
    state, events = do(state, "fizzle", 0)
    assert view(state)["mana"] == 7 and view(state)["options"]["fizzle"] == "free"
    assert texts(events) == ["3♦ fizzles (free, 7 mana left): it is discarded."]


def test_no_fizzling_by_choice_when_the_spell_has_a_target() -> None:
    with pytest.raises(IllegalDecision, match="7♦ may be cast at 5♣ in slot 1: a spell fizzles only when"):
        do(start(["7D", "5C", "2S"]), "fizzle", 0)


def test_a_fizzle_that_cannot_be_paid_for_loses_unless_fizzles_are_free() -> None:
    state = start(["9D", "2S", "3S", "4S", "5S", "6S", "7S"], ["5C"])
    assert {"kind": "fizzle", "slot": 0, "label": "Fizzle 9♦ (-9 mana, you have 7: loses)", "loses": True} \
        in GAME.legal(state, 0)
    after, events = do(state, "fizzle", 0)
    assert GAME.outcome(after) is not None and GAME.outcome(after).reason is OutcomeReason.LOST  # type: ignore[union-attr]
    assert kinds(events) == ["unpaid", "over"]
    free = start(["9D", "2S", "3S", "4S", "5S", "6S", "7S"], ["5C", "KH"], fizzle="free")
    assert {"kind": "fizzle", "slot": 0, "label": "Fizzle 9♦ (free)"} in GAME.legal(free, 0)
    after, _ = do(free, "fizzle", 0)
    assert GAME.outcome(after) is None and view(after)["mana"] == 7


# -- fairies ---------------------------------------------------------------------------------


def test_a_fairy_defeats_an_enemy_of_ten_or_less_for_free() -> None:
    state = start(["KH", "KC", "2S", "3S", "4S", "5S", "6S"], ["3C", "QH"])
    state, events = do(state, "fairy", 0, target=1)
    assert discard(state) == ["K♥", "K♣"] and view(state)["mana"] == 7 and view(state)["defeated"] == 1
    assert texts(events) == ["K♥ defeats K♣: both are discarded.", "3♣ is dealt to slot 0.", "Q♥ is dealt to slot 1."]


def test_a_fairy_alone_cannot_defeat_a_ranked_face_club() -> None:
    state = start(["KH", "QC", "2S", "5C"], ranked_enemies=True)
    assert bare([d for d in GAME.legal(state, 0) if d["kind"] == "fairy"]) == [{"kind": "fairy", "slot": 0, "target": 3}]
    with pytest.raises(IllegalDecision, match=r"a fairy alone defeats only enemies worth 10 or less; Q♣ \(12\) is worth 12"):
        do(state, "fairy", 0, target=1)


def test_a_fairy_has_no_play_without_an_enemy() -> None:
    state = start(["KH", "2S", "3S", "4S", "5S", "6S", "7S"], ["5C"])
    assert {d["kind"] for d in GAME.legal(state, 0)} == {"mana"}


# -- the fairy + spell combo -----------------------------------------------------------------


def test_combo_fairy_ten_plus_spell_meets_a_ranked_king() -> None:
    """K♣ is 13: K♥ (10) + 3♦ (3) = 13 defeats it, paying 3; all three are discarded."""
    state = start(["KC", "3D", "KH", "2S", "4S", "5S", "6S"], ["7S", "8S", "9S", "2C", "QH"], ranked_enemies=True)
    combo = next(d for d in GAME.legal(state, 0) if d["kind"] == "combo")
    assert combo == {"kind": "combo", "slot": 2, "spell": 1, "target": 0, "label": "K♥ + 3♦ defeat K♣ (13) (-3 mana)"}
    state, events = do(state, "combo", 2, spell=1, target=0)
    assert view(state)["mana"] == 4 and view(state)["defeated"] == 1
    assert discard(state) == ["K♥", "3♦", "K♣"]
    # the freed slots are refilled lowest first, from the top of the draw pile
    assert codes(state)[:3] == ["7S", "8S", "9S"] and view(state)["draw_pile"] == 2
    assert kinds(events) == ["combo", "deal", "deal", "deal"]


def test_combo_that_falls_short_is_refused() -> None:
    state = start(["KH", "2D", "KC", "2S", "AC"], ranked_enemies=True)
    assert not any(d["kind"] == "combo" for d in GAME.legal(state, 0))
    with pytest.raises(IllegalDecision, match=r"K♥ \(10\) \+ 2♦ \(2\) = 12 falls short of K♣ \(13\)"):
        do(state, "combo", 0, spell=1, target=2)


def test_combo_any_spell_meets_a_ranked_jack() -> None:
    state = start(["QH", "AD", "JC", "2S"], ranked_enemies=True)
    state, _ = do(state, "combo", 0, spell=1, target=2)
    assert GAME.outcome(state) == Outcome(0, OutcomeReason.WON, (1006,), "all 1 enemies defeated, 6 mana left: score 1006")


def test_combo_is_only_for_enemies_above_ten() -> None:
    state = start(["KH", "3D", "9C", "2S"], ranked_enemies=True)
    with pytest.raises(IllegalDecision, match="combo is for enemies worth more than 10; 9♣ is worth 9"):
        do(state, "combo", 0, spell=1, target=2)


def test_without_ranked_enemies_the_combo_never_applies() -> None:
    state = start(["KH", "3D", "KC", "QC", "JC", "2S"])
    assert not any(d["kind"] == "combo" for d in GAME.legal(state, 0))


def test_combo_that_cannot_be_paid_for_loses() -> None:
    state = start(["QH", "8D", "KC", "2S"], ranked_enemies=True)
    combo = next(d for d in GAME.legal(state, 0) if d["kind"] == "combo")
    assert combo["loses"] is True
    after, events = GAME.apply(state, 0, combo)
    assert GAME.outcome(after) is not None and kinds(events) == ["unpaid", "over"]
    assert texts(events)[0] == "You cannot pay 8 mana for 8♦ (you have 7): the spell fails."


# -- the tableau -----------------------------------------------------------------------------


def test_clubs_cannot_be_played() -> None:
    state = start(["5C", "2S", "KH"])
    assert bare(GAME.legal(state, 0)) == [{"kind": "mana", "slot": 1}, {"kind": "fairy", "slot": 2, "target": 0}]
    with pytest.raises(IllegalDecision, match=r"slot 0 holds 5♣ \(enemy\): 'mana' plays a mana card"):
        do(state, "mana", 0)


def test_slots_stay_empty_once_the_draw_pile_runs_out() -> None:
    state = start(["5S", "7D", "5C", "9C"])
    assert codes(state) == ["5S", "7D", "5C", "9C", None, None, None]
    state, events = do(state, "mana", 0)
    assert codes(state) == [None, "7D", "5C", "9C", None, None, None] and kinds(events) == ["mana"]
    with pytest.raises(IllegalDecision, match="slot 0 is empty"):
        do(state, "mana", 0)


def test_no_running() -> None:
    with pytest.raises(IllegalDecision, match="unknown decision kind 'run'"):
        GAME.apply(start(["5C", "2S", "KH"]), 0, {"kind": "run"})


# -- winning and losing ----------------------------------------------------------------------


def test_won_when_every_club_of_the_deck_is_defeated() -> None:
    state = start(["KS", "7D", "5C", "2S", "3S", "4S", "6S"], ["6D", "4C"])
    state, _ = do(state, "mana", 0)
    state, _ = do(state, "cast", 1, target=2)
    assert GAME.outcome(state) is None and codes(state) == ["6D", "4C", None, "2S", "3S", "4S", "6S"]
    state, events = do(state, "cast", 0, target=1)
    assert GAME.outcome(state) == Outcome(0, OutcomeReason.WON, (2004,), "all 2 enemies defeated, 4 mana left: score 2004")
    assert kinds(events) == ["cast", "over"]
    assert texts(events)[-1] == "You win: all 2 enemies defeated, 4 mana left: score 2004."
    assert GAME.legal(state, 0) == [] and view(state)["outcome"]["reason"] == "won"
    with pytest.raises(MatchOver):
        do(state, "mana", 0)


def test_won_with_cards_left_over() -> None:
    state, _ = do(start(["KH", "KC", "2S", "9D"]), "fairy", 0, target=1)
    assert GAME.outcome(state) == Outcome(0, OutcomeReason.WON, (1007,), "all 1 enemies defeated, 7 mana left: score 1007")


def test_lost_when_only_losing_plays_will_be_left() -> None:
    """After 7♦ takes 5♣ (0 mana), 2♠ would bring 2 mana, and the 6♦ costs 6: lost at once, before the 2♠."""
    state = start(["7D", "5C", "2S", "6D", "4C"])
    state, events = do(state, "cast", 0, target=1)
    assert GAME.outcome(state) == Outcome(
        None, OutcomeReason.LOST, (1000,),
        "no play, now or later, can defeat another enemy; 1 of 2 enemies defeated, 0 mana left: score 1000")
    assert kinds(events) == ["cast", "over"]


def test_lost_when_no_card_can_be_played() -> None:
    state, _ = do(start(["7D", "5C", "6C"]), "cast", 0, target=1)
    assert GAME.outcome(state) is not None and GAME.outcome(state).scores == (1000,)  # type: ignore[union-attr]


def test_a_hopeless_deal_is_lost_from_the_start() -> None:
    state = start(["5C", "6C", "7C", "8C", "9C", "10C", "JC"], ["2S"])
    assert GAME.outcome(state) == Outcome(
        None, OutcomeReason.LOST, (7,),
        "no play, now or later, can defeat another enemy; 0 of 7 enemies defeated, 7 mana left: score 7")
    assert GAME.version(state) == 0 and GAME.legal(state, 0) == []


def test_a_ranked_face_club_with_a_lone_fairy_is_stuck() -> None:
    assert GAME.outcome(start(["KH", "QC"], ranked_enemies=True)) is not None
    assert GAME.outcome(start(["KH", "QC"])) is None


def test_no_spade_is_played_once_no_enemy_can_be_defeated() -> None:
    """No spell or fairy is left for 9♣: the Spades' mana would only pad the score, so the game ends at once."""
    state = start(["9C", "2S", "3S"])
    assert GAME.outcome(state) == Outcome(
        None, OutcomeReason.LOST, (7,),
        "no play, now or later, can defeat another enemy; 0 of 1 enemies defeated, 7 mana left: score 7")


def test_play_goes_on_while_some_enemy_can_still_be_defeated() -> None:
    """Winning is out of reach (nothing can beat 9♣), but 4♣ can still fall to the 8♦ once A♠ pays for it."""
    state = start(["8D", "4C", "9C", "AS"], ["2S"])
    assert GAME.outcome(state) is None
    state, _ = do(state, "mana", 3)
    assert GAME.outcome(state) is None and view(state)["mana"] == 8
    state, _ = do(state, "cast", 0, target=1)
    assert GAME.outcome(state) == Outcome(
        None, OutcomeReason.LOST, (1000,),
        "no play, now or later, can defeat another enemy; 1 of 2 enemies defeated, 0 mana left: score 1000")


# -- decisions, versions, errors -------------------------------------------------------------


def test_version_grows_by_one_per_decision_and_opened_follows() -> None:
    state = start(["2S", "3S", "4S", "5C", "KH"])
    assert (GAME.version(state), GAME.opened(state, 0)) == (0, 0)
    for n in (1, 2):
        state, _ = do(state, "mana", n - 1)
        assert (GAME.version(state), GAME.opened(state, 0)) == (n, n)


def test_decisions_with_or_without_label_and_loses_are_the_same() -> None:
    state = start(["7D", "5C", "2S"], ["6D"])
    for decision in GAME.legal(state, 0):
        with_extra, events_a = GAME.apply(state, 0, decision)
        plain = {k: v for k, v in decision.items() if k not in ("label", "loses")}
        without, events_b = GAME.apply(state, 0, plain)
        assert with_extra == without and events_a == events_b
    mislabelled = {"kind": "mana", "slot": 2, "label": "whatever", "loses": True}
    assert GAME.apply(state, 0, mislabelled)[0] == GAME.apply(state, 0, {"kind": "mana", "slot": 2})[0]


def test_only_seat_zero_plays() -> None:
    state = start(["2S", "5C", "KH"])
    assert GAME.legal(state, 1) == []
    with pytest.raises(NotYourTurn, match="one-player game"):
        GAME.apply(state, 1, {"kind": "mana", "slot": 0})


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        (["mana", 0], "must be a map"),
        ({"slot": 0}, "unknown decision kind None"),
        ({"kind": "cast", "slot": 0}, "needs 'target'"),
        ({"kind": "mana", "slot": True}, "'slot' must be a tableau position"),
        ({"kind": "mana", "slot": "0"}, "'slot' must be a tableau position"),
        ({"kind": "mana", "slot": 9}, "slot 9 is not a tableau position"),
        ({"kind": "mana", "slot": 5}, "slot 5 is empty"),
        ({"kind": "mana", "slot": 0, "target": 1}, "unexpected 'target'"),
        ({"kind": "cast", "slot": 0, "target": 0}, "names one tableau position twice"),
        ({"kind": "fairy", "slot": 0, "target": 1}, r"slot 0 holds 7♦ \(spell\): 'fairy' plays a fairy card"),
        ({"kind": "combo", "slot": 3, "spell": 2, "target": 1}, "spell 2 holds 2♠, not a spell"),
    ],
)
def test_bad_decisions_name_what_is_wrong(decision: Any, message: str) -> None:
    state = start(["7D", "5C", "2S", "KH"])
    with pytest.raises(IllegalDecision, match=message):
        GAME.apply(state, 0, decision)


# -- views and events ------------------------------------------------------------------------


def test_spectators_see_what_the_player_sees_but_the_legal_plays() -> None:
    state = start(["7D", "5C", "2S", "KH", "2C", "3S", "4S"], ["3C", "AS"])
    mine, theirs = GAME.view(state, 0), GAME.view(state, None)
    assert mine["legal"] == GAME.legal(state, 0) and theirs["legal"] == []
    assert {k: v for k, v in mine.items() if k not in ("legal", "seat")} == \
        {k: v for k, v in theirs.items() if k not in ("legal", "seat")}
    assert mine["tableau"][0] == {"slot": 0, "code": "7D", "face": "7♦", "suit": "diamonds", "value": 7, "role": "spell"}
    assert mine["draw_pile"] == 2 and "deck" not in mine["options"]
    assert mine["options"] == {"fairies": 1, "fairy_names": ["King of Hearts"], "fizzle": "pay", "ranked_enemies": False}


def test_every_event_has_a_kind_and_a_log_line() -> None:
    state = start(["7D", "5C", "2S", "6D", "4C", "KH"])
    for kind, slot, keys in (("cast", 0, {"target": 1}), ("mana", 2, {})):
        state, events = do(state, kind, slot, **keys)
        assert events and all(e.kind and e.public["text"] for e in events)


def test_dump_load_round_trip_of_a_scenario() -> None:
    state, _ = do(start(["KC", "3D", "KH", "2S"], ["9S"], ranked_enemies=True, fizzle="free"), "mana", 3)
    data = GAME.dump(state)
    assert GAME.load(data) == state and GAME.dump(GAME.load(data)) == data


def test_a_spell_without_a_target_of_its_own_may_fizzle_though_it_could_join_a_combo() -> None:
    state = start(["KH", "5D", "KC", "2S"], ranked_enemies=True)
    assert [d["kind"] for d in GAME.legal(state, 0)] == ["combo", "fizzle", "mana"]

"""One test per Lesser witch: set up a position, play the witch, check the effect."""
from __future__ import annotations

from tests.engine.scenario import duel
from tests.engine.witches.helpers import GAME, answer, hand, hp, seen_by, start, witch_duel


def test_blind_witch_always_loses() -> None:
    """A Lvl.3 Blind Witch (power 6) loses even to a Lvl.1 Serpent (power 1): its holder takes 3."""
    state, _ = witch_duel("Lvl.3 Blind Witch", "Lvl.1 Serpent")
    duel_view = GAME.view(state, None)["last_duel"]
    assert duel_view["winner"] == 1 and duel_view["powers"] == [6, 1]
    assert hp(state) == [27, 30]
    assert "Lvl.1 Serpent {0}" in hand(state, 1)  # the creature that fought a witch returns


def test_greedy_witch_draws_two() -> None:
    state, events = witch_duel("Lvl.1 Greedy Witch", "Lvl.1 Serpent", deck=["Lvl.1 Skeleton", "Lvl.1 Pirate",
                               "Lvl.2 Giant", "Lvl.3 Giant", "Lvl.4 Giant", "Lvl.5 Giant"])
    assert hand(state, 0)[:3] == ["Lvl.1 Skeleton {3}", "Lvl.2 Giant {4}", "Lvl.3 Giant {4}"]
    told_1 = [e for e in seen_by(events, 1) if e["kind"] == "draw" and "Greedy" in e["text"]]
    assert len(told_1) == 2 and all("card" not in e for e in told_1)


def test_cursed_witch_hurts_each_turn_in_hand() -> None:
    state = start([["Lvl.1 Cursed Witch", "Lvl.2 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]])
    state, _ = duel(state, "Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}")
    assert hp(state) == [29, 30]
    state, _ = duel(state, hand(state, 0)[1], "Lvl.2 Serpent {0}")
    assert hp(state)[0] == 28


def test_pick_a_witch_asks_and_keeps_the_choice() -> None:
    state, events = witch_duel("Lvl.2 Pick a Witch", "Lvl.1 Serpent")
    view = GAME.view(state, 0)
    question = view["question"]
    assert len(question["options"]) == 3 and view["legal"] == [{"kind": "choose", "option": i} for i in range(3)]
    assert "question" not in GAME.view(state, 1) and GAME.view(state, 1)["legal"] == []
    assert all("options" not in e for e in seen_by(events, 1))
    chosen = question["options"][1]
    before = len(hand(state, 0))
    state, _ = answer(state, 0, 1)
    assert chosen in hand(state, 0)[before:] or chosen.replace("!", "") in [h.replace("!", "") for h in hand(state, 0)]
    assert GAME.view(state, None)["last_duel"]["turn"] == 1  # the duel went on after the answer

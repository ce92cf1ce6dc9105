"""One test per Lesser witch: set up a position, play the witch, check the effect."""
from __future__ import annotations

import json
from typing import Any

import pytest

from engine.creature_wars.state import State
from engine.errors import IllegalDecision
from engine.interface import Event
from tests.engine.scenario import duel, fillers, play
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


# -- helpers for the tests below -------------------------------------------------------------


def discard(state: State) -> list[str]:
    return [c["text"] for c in GAME.view(state, None)["discard"]]


def last_duel(state: State) -> dict[str, Any]:
    record: dict[str, Any] = GAME.view(state, None)["last_duel"]
    return record


def cards(state: State, seat: int) -> list[dict[str, Any]]:
    """``seat``'s hand as its own view shows it (text, kind, rarity, level ...)."""
    shown: list[dict[str, Any]] = GAME.view(state, seat)["hands"][seat]["cards"]
    return shown


def told(events: list[Event], seat: int | None) -> str:
    """Everything ``seat`` (None: a spectator) is told of ``events``, as one string."""
    return json.dumps(seen_by(events, seat), ensure_ascii=False)


DECK = ["Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.2 Giant", "Lvl.3 Giant", "Lvl.4 Giant", "Lvl.5 Giant",
        "Lvl.6 Giant", "Lvl.1 Vampire"]
"""Turn 1: seat 0 draws Skeleton, seat 1 Pirate; turn 2: seat 1 draws Lvl.2 Giant, seat 0 Lvl.3 Giant."""


# -- the other Lesser witches ------------------------------------------------------------------


def test_invisible_witch_cannot_be_attacked() -> None:
    """A Lvl.6 Dragon (power 13) would kill a Lvl.2 witch: there is no fight, no damage, the Dragon returns."""
    state, _ = witch_duel("Lvl.2 Invisible Witch", "Lvl.6 Dragon", deck=DECK)
    record = last_duel(state)
    assert record["winner"] is None and record["damage"] == [0, 0]
    assert hp(state) == [30, 30]
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.6 Dragon {7}", "Lvl.2 Giant {4}"]  # no cooldown mark
    assert discard(state) == ["Lvl.2 Invisible Witch {3}"]
    assert dict(state.counters)["escaped:0:Invisible Witch"] == 1


def test_angry_witch_discards_a_random_enemy_card_when_it_loses() -> None:
    state, events = witch_duel("Lvl.1 Angry Witch", "Lvl.3 Giant", hands=[[], ["Lvl.2 Wolf"]], deck=DECK)
    assert last_duel(state)["winner"] == 1 and hp(state) == [27, 30]
    assert discard(state) == ["Lvl.1 Angry Witch {3}", "Lvl.2 Wolf {2}"]  # seeded pick of Wolf, Pirate, Giant
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.3 Giant {4}", "Lvl.2 Giant {4}"]
    assert "Lvl.2 Wolf {2}" in told(events, None)  # a discard is face up


def test_angry_witch_does_nothing_when_it_wins() -> None:
    state, _ = witch_duel("Lvl.1 Angry Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.2 Wolf"]], deck=DECK)
    assert last_duel(state)["winner"] == 0
    assert discard(state) == ["Lvl.1 Angry Witch {3}"]
    assert len(hand(state, 1)) == 4


def test_magic_witch_turns_an_enemy_card_into_a_serpent_only_its_holder_sees() -> None:
    state, events = witch_duel("Lvl.1 Magic Witch", "Lvl.1 Wolf", hands=[[], ["Lvl.4 Fire Dragon"]], deck=DECK)
    # the seeded pick transformed the Pirate drawn on turn 1 into a random Serpent
    assert hand(state, 1) == ["Lvl.4 Fire Dragon {7}", "Lvl.1 Nightmare Serpent {0}", "Lvl.1 Wolf {2}",
                              "Lvl.2 Giant {4}"]
    assert [c.notation() for c in state.removed] == ["Lvl.1 Pirate {3}"]
    transform = [e for e in seen_by(events, 1) if e["kind"] == "transform"]
    assert transform[0]["card"] == "Lvl.1 Nightmare Serpent {0}"
    for other in (0, None):
        assert "Nightmare Serpent" not in told(events, other) and "Pirate" not in told(events, other)
        assert any(e["kind"] == "transform" for e in seen_by(events, other))


def test_voodoo_witch_doubles_its_damage_onto_the_opponent() -> None:
    state, _ = witch_duel("Lvl.1 Voodoo Witch", "Lvl.3 Giant", deck=DECK)
    assert last_duel(state)["winner"] == 1
    assert hp(state) == [27, 24]


def test_voodoo_witch_that_escapes_hurts_nobody() -> None:
    state, _ = witch_duel("Lvl.1 Voodoo Witch", "Lvl.1 Serpent", deck=DECK)
    assert hp(state) == [30, 30]


def test_which_witch_becomes_a_random_witch_and_casts_it() -> None:
    """Seed 55: the Which Witch becomes a Lvl.2 Witch Collector, fights as it (power 5) and casts it."""
    state, events = witch_duel("Lvl.1 Which Witch", "Lvl.1 Serpent", deck=DECK, seed=55)
    record = last_duel(state)
    assert record["cards"][0]["text"] == "Lvl.2 The Witch Collector {3}"
    assert record["powers"] == [5, 1]
    assert hp(state) == [33, 27]
    assert discard(state) == ["Lvl.2 The Witch Collector {3}"]
    assert [c.notation() for c in state.removed] == ["Lvl.1 Which Witch {3}"]
    assert dict(state.counters)["escaped:0:The Witch Collector"] == 1
    assert "becomes Lvl.2 The Witch Collector" in told(events, 1)


def test_witcheroo_swaps_hands() -> None:
    state, events = witch_duel("Lvl.1 Witcheroo", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Wolf"], ["Lvl.4 Fire Dragon"]], deck=DECK)
    # seat 0 now holds seat 1's old hand (+ its turn-2 draw); seat 1 holds seat 0's (+ its Serpent back)
    assert hand(state, 0) == ["Lvl.4 Fire Dragon {7}", "Lvl.1 Pirate {3}", "Lvl.3 Giant {4}"]
    assert hand(state, 1) == ["Lvl.2 Wolf {2}", "Lvl.1 Skeleton {3}", "Lvl.1 Serpent {0}", "Lvl.2 Giant {4}"]
    assert "Fire Dragon" not in told(events, None) and "Wolf" not in told(events, None)
    assert "You now hold: Lvl.2 Wolf {2}, Lvl.1 Skeleton {3}." in told(events, 1)
    assert "You now hold" not in told(events, None)


def test_kind_witch_levels_up_creatures_in_both_hands() -> None:
    state, events = witch_duel("Lvl.1 Kind Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Wolf", "Lvl.1 Greedy Witch"], ["Lvl.4 Fire Dragon"]], deck=DECK)
    assert hand(state, 0) == ["Lvl.3 Wolf {2}", "Lvl.1 Greedy Witch {3}", "Lvl.2 Skeleton {3}", "Lvl.3 Giant {4}"]
    # the Serpent was in play, not in hand: it comes back unchanged
    assert hand(state, 1) == ["Lvl.5 Fire Dragon {7}", "Lvl.2 Pirate {3}", "Lvl.1 Serpent {0}", "Lvl.2 Giant {4}"]
    assert "Fire Dragon" not in told(events, 0) and "Wolf" not in told(events, 1)
    assert "Fire Dragon" not in told(events, None) and "Wolf" not in told(events, None)


def test_cocksure_witch_draws_when_it_wins() -> None:
    state, _ = witch_duel("Lvl.1 Cocksure Witch", "Lvl.1 Serpent", deck=DECK)
    # seat 0: Skeleton (turn 1), Lvl.2 Giant (Cocksure), Lvl.4 Giant (turn 2); seat 1 draws Lvl.3 Giant on turn 2
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.2 Giant {4}", "Lvl.4 Giant {4}"]
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.1 Serpent {0}", "Lvl.3 Giant {4}"]


def test_cocksure_witch_lets_the_opponent_draw_when_it_loses() -> None:
    state, _ = witch_duel("Lvl.1 Cocksure Witch", "Lvl.3 Giant", deck=DECK)
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.3 Giant {4}", "Lvl.2 Giant {4}", "Lvl.3 Giant {4}"]
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.4 Giant {4}"]


def test_flamboyant_witch_brings_a_low_nightmare_creature() -> None:
    state, events = witch_duel("Lvl.1 Flamboyant Witch", "Lvl.1 Serpent", deck=DECK)
    gained = cards(state, 0)[1]
    assert gained["text"] == "Lvl.1 Nightmare Pirate {3}"  # seeded: random Tribe, level 1-3, Nightmare
    assert gained["type"] == "Nightmare" and 1 <= gained["level"] <= 3
    assert "Nightmare Pirate" not in told(events, 1) and "Nightmare Pirate" not in told(events, None)


def test_envious_witch_copies_the_strongest_enemy_creature() -> None:
    enemy = ["Lvl.5 Vampire", "Lvl.2 Holy Dragon", "Lvl.3 Fire Dragon", "Lvl.2 Witch of Wrath"]
    state, events = witch_duel("Lvl.1 Envious Witch", "Lvl.1 Serpent", hands=[[], enemy], deck=DECK)
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.3 Fire Dragon {7}", "Lvl.3 Giant {4}"]
    assert "Lvl.3 Fire Dragon {7}" in hand(state, 1)  # the original stays
    assert "Fire Dragon" not in told(events, None)
    assert "copies your Lvl.3 Fire Dragon {7}" in told(events, 1)


def test_sick_witch_that_survives_sickens_the_enemy_witches() -> None:
    enemy = ["Lvl.2 Greedy Witch", "Lvl.5 Prophetic Witch", "Lvl.3 Wolf"]
    state, events = witch_duel("Lvl.1 Sick Witch", "Lvl.1 Serpent", hands=[[], enemy], deck=DECK)
    assert hand(state, 1) == ["Lvl.2 Sick Witch {3}", "Lvl.5 Sick Witch {3}", "Lvl.3 Wolf {2}", "Lvl.1 Pirate {3}",
                              "Lvl.1 Serpent {0}", "Lvl.2 Giant {4}"]
    assert sorted(c.notation() for c in state.removed) == ["Lvl.2 Greedy Witch {3}", "Lvl.5 Prophetic Witch {3}"]
    for other in (0, None):
        assert "Greedy" not in told(events, other) and "Prophetic" not in told(events, other)
    assert "Lvl.5 Prophetic Witch {3} → Sick Witch" in told(events, 1)


def test_sick_witch_that_dies_does_nothing() -> None:
    state, _ = witch_duel("Lvl.1 Sick Witch", "Lvl.3 Giant", hands=[[], ["Lvl.2 Greedy Witch"]], deck=DECK)
    assert "Lvl.2 Greedy Witch {3}" in hand(state, 1)


def test_sacrificial_witch_that_dies_strengthens_your_creatures() -> None:
    state, events = witch_duel("Lvl.1 Sacrificial Witch", "Lvl.3 Giant",
                               hands=[["Lvl.2 Wolf", "Lvl.1 Greedy Witch"], []], deck=DECK)
    assert hp(state) == [27, 30]
    # +2 for the Wolf and the Skeleton in hand; the witch is unchanged; the turn-2 draw comes after
    assert hand(state, 0) == ["Lvl.4 Wolf {2}", "Lvl.1 Greedy Witch {3}", "Lvl.3 Skeleton {3}", "Lvl.3 Giant {4}"]
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.3 Giant {4}", "Lvl.2 Giant {4}"]
    assert "Wolf" not in told(events, 1)


def test_sacrificial_witch_that_escapes_does_nothing() -> None:
    state, _ = witch_duel("Lvl.1 Sacrificial Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Wolf"], []], deck=DECK)
    assert hand(state, 0)[0] == "Lvl.2 Wolf {2}"


def test_snake_eyed_witch_draws_with_two_serpents() -> None:
    state, _ = witch_duel("Lvl.1 Snake-Eyed Witch", "Lvl.1 Wolf",
                          hands=[["Lvl.2 Serpent", "Lvl.3 Serpent"], []], deck=DECK)
    assert hand(state, 0) == ["Lvl.2 Serpent {0}", "Lvl.3 Serpent {0}", "Lvl.1 Skeleton {3}", "Lvl.2 Giant {4}",
                              "Lvl.4 Giant {4}"]


def test_snake_eyed_witch_with_one_serpent_draws_nothing() -> None:
    state, _ = witch_duel("Lvl.1 Snake-Eyed Witch", "Lvl.1 Wolf", hands=[["Lvl.2 Serpent"], []], deck=DECK)
    assert hand(state, 0) == ["Lvl.2 Serpent {0}", "Lvl.1 Skeleton {3}", "Lvl.3 Giant {4}"]


def test_the_witch_collector_drains_three() -> None:
    state, _ = witch_duel("Lvl.1 The Witch Collector", "Lvl.3 Giant", deck=DECK)
    assert hp(state) == [33 - 3, 27]  # it then loses its fight (4 < 7) and its holder takes 3


def test_wet_witch_trades_a_random_card_each_way() -> None:
    state, events = witch_duel("Lvl.1 Wet Witch", "Lvl.1 Wolf", hands=[["Lvl.2 Serpent"], ["Lvl.4 Fire Dragon"]],
                               deck=DECK)
    # seeded picks: seat 0 gives its Skeleton, seat 1 its Fire Dragon
    assert hand(state, 0) == ["Lvl.2 Serpent {0}", "Lvl.4 Fire Dragon {7}", "Lvl.3 Giant {4}"]
    assert hand(state, 1) == ["Lvl.1 Pirate {3}", "Lvl.1 Skeleton {3}", "Lvl.1 Wolf {2}", "Lvl.2 Giant {4}"]
    assert "You give Lvl.1 Skeleton {3} and receive Lvl.4 Fire Dragon {7}" in told(events, 0)
    assert "You give Lvl.4 Fire Dragon {7} and receive Lvl.1 Skeleton {3}" in told(events, 1)
    assert "Fire Dragon" not in told(events, None) and "Skeleton" not in told(events, None)


def test_flying_witch_that_escapes_brings_two_sacred_witches() -> None:
    state, events = witch_duel("Lvl.1 Flying Witch", "Lvl.1 Serpent", deck=DECK)
    gained = cards(state, 0)[1:3]
    assert [c["rarity"] for c in gained] == ["sacred", "sacred"]
    assert all(4 <= c["level"] <= 6 for c in gained)
    for card in gained:
        assert card["name"] not in told(events, 1) and card["name"] not in told(events, None)


def test_flying_witch_that_dies_brings_nothing() -> None:
    state, _ = witch_duel("Lvl.1 Flying Witch", "Lvl.3 Giant", deck=DECK)
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.3 Giant {4}"]


def test_orville_then_wilbur_escaping_gives_a_flying_witch() -> None:
    state, _ = witch_duel("Lvl.1 Orville Witch", "Lvl.1 Serpent", deck=DECK)
    wilbur = cards(state, 0)[1]
    assert wilbur["name"] == "Wilbur Witch" and 1 <= wilbur["level"] <= 3
    state, _ = duel(state, wilbur["text"], "Lvl.1 Serpent {0}")
    assert last_duel(state)["winner"] == 0
    assert [c["name"] for c in cards(state, 0) if c["kind"] == "witch"] == ["Flying Witch"]


def test_wilbur_escaping_first_gives_orville() -> None:
    state, _ = witch_duel("Lvl.1 Wilbur Witch", "Lvl.1 Serpent", deck=DECK)
    assert [c["name"] for c in cards(state, 0) if c["kind"] == "witch"] == ["Orville Witch"]


def test_the_early_witch_brings_three_serpents_before_turn_7() -> None:
    state, events = witch_duel("Lvl.1 The Early Witch", "Lvl.1 Wolf", deck=DECK)
    gained = cards(state, 0)[1:4]
    assert [c["tribe"] for c in gained] == ["Serpent"] * 3
    assert [c["text"] for c in gained] == ["Lvl.4 Ancient Serpent {0}", "Lvl.1 Holy Serpent {0}",
                                           "Lvl.5 Fire Serpent {0}"]
    for card in gained:
        assert card["text"] not in told(events, 1) and card["text"] not in told(events, None)


def test_the_early_witch_is_too_late_on_turn_7() -> None:
    state = start([["Lvl.1 The Early Witch"], []], fillers(16), hp=99)
    for _ in range(6):  # each seat plays the card it has just drawn
        state, _ = duel(state, hand(state, 0)[-1], hand(state, 1)[-1])
    assert GAME.view(state, None)["turn"] == 7
    before = len(hand(state, 0))
    state, events = duel(state, "Lvl.1 The Early Witch {3}", hand(state, 1)[-1])
    assert "too late" in told(events, None)
    assert len(hand(state, 0)) == before  # the witch left, the turn-8 draw came: no Serpents


def test_witch_in_time_gives_the_next_card_three_power() -> None:
    state, _ = witch_duel("Lvl.1 Witch in Time", "Lvl.1 Serpent", hands=[["Lvl.1 Wolf"], ["Lvl.1 Giant"]], deck=DECK)
    assert [m["text"] for m in GAME.view(state, 1)["modifiers"]] == [
        "Witch in Time: Player 1's next card played has +3 power."]
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.1 Giant {4}")
    assert last_duel(state)["powers"] == [6, 5] and last_duel(state)["winner"] == 0  # 3 + 3 against 5
    assert hp(state) == [30, 26]
    assert GAME.view(state, 0)["modifiers"] == []  # used up
    state, _ = duel(state, "Lvl.1 Skeleton {3}", "Lvl.1 Serpent {0}")
    assert last_duel(state)["powers"] == [4, 1]


def test_witch_in_time_that_dies_gives_nothing() -> None:
    state, _ = witch_duel("Lvl.1 Witch in Time", "Lvl.3 Giant", deck=DECK)
    assert GAME.view(state, 0)["modifiers"] == []


def test_premature_witch_springs_into_action_on_a_seeded_roll() -> None:
    """Seed 1: the turn-1 roll fails (a free choice), the turn-2 roll succeeds (the witch is played for you)."""
    state = start([["Lvl.1 Premature Witch", "Lvl.2 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]], DECK, seed=1)
    assert GAME.view(state, 0)["legal"] == [{"kind": "play", "slot": i} for i in range(3)]
    state, events = duel(state, "Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}")
    view = GAME.view(state, 0)
    assert view["turn"] == 2 and view["legal"] == [] and view["locked_card"]["text"] == "Lvl.1 Premature Witch {3}"
    assert GAME.view(state, None)["locked"] == [True, False]
    assert "springs into action" in told(events, 0)
    assert "Premature" not in told(events, 1) and "Premature" not in told(events, None)
    assert "locked_card" not in GAME.view(state, 1)
    state, _ = play(state, 1, "Lvl.2 Serpent {0}")
    record = last_duel(state)
    assert record["cards"][0]["text"] == "Lvl.1 Premature Witch {3}" and record["winner"] == 0


def test_premature_witch_stays_put_when_the_rolls_fail() -> None:
    """Seed 3: neither roll succeeds; the witch may still be played by choice."""
    state = start([["Lvl.1 Premature Witch", "Lvl.2 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]], DECK, seed=3)
    state, _ = duel(state, "Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}")
    assert GAME.view(state, 0)["legal"] == [{"kind": "play", "slot": i} for i in range(3)]


def test_slumbering_witch_sleeps_until_a_rally() -> None:
    deck = ["Lvl.1 Giant", "Lvl.1 Pirate", "Lvl.2 Pirate", "Lvl.4 Wolf", *fillers(6)]
    state = start([["Lvl.1 Slumbering Witch", "Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Wolf"], ["Lvl.1 Serpent"] * 3], deck)
    assert {"kind": "play", "slot": 0} not in GAME.view(state, 0)["legal"]
    with pytest.raises(IllegalDecision, match="Rally"):
        play(state, 0, "Lvl.1 Slumbering Witch {3}")
    state, _ = duel(state, "Lvl.1 Giant {4}", "Lvl.1 Serpent {0}")
    # turn 2: the fourth Wolf is drawn: a Wolf Rally, and the witch wakes up
    assert "Lvl.3 Wolf! {2}" in hand(state, 0)
    state, _ = duel(state, "Lvl.1 Slumbering Witch {3}", "Lvl.1 Serpent {0}")
    assert last_duel(state)["cards"][0]["text"] == "Lvl.1 Slumbering Witch {3}"


def test_mcwitch_heals_four_and_serves_a_small_creature() -> None:
    state, events = witch_duel("Lvl.1 McWitch", "Lvl.1 Serpent", hp=20, deck=DECK)
    assert hp(state) == [24, 20]
    gained = cards(state, 0)[1]
    assert gained["text"] == "Lvl.1 Ancient Skeleton {3}"  # seeded
    assert gained["level"] == 1 and gained["base"] <= 4
    assert "Ancient Skeleton" not in told(events, 1)

"""One test (or more) per Sacred witch of part b: set up a position, play the witch, check the effect."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.creature_wars.cards import Tribe
from engine.creature_wars.state import State
from engine.creature_wars.witch_catalogue import Rarity, by_name
from engine.interface import Event
from tests.engine.scenario import duel, fillers
from tests.engine.witches.helpers import GAME, answer, hand, hp, seen_by, start, witch_duel

INERT = ["Lvl.1 Blind Witch"] * 12
"""A deck whose draws add no creature to a hand (a Blind Witch in hand does nothing); for short tests only
(four witches in a hand would form a Witch Rally)."""
MIXED = ["Lvl.1 Serpent", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Giant", "Lvl.1 Wolf"] * 3
"""A deck of typeless creatures of six Tribes (no Skeleton), for tests of several turns."""


def told(events: Sequence[Event], seat: int | None) -> str:
    """Everything ``seat`` (None: a spectator) is told of ``events``, as one string."""
    return " | ".join(str(e) for e in seen_by(events, seat))


def discard(state: State) -> list[str]:
    return [c["text"] for c in GAME.view(state, None)["discard"]]


def modifiers(state: State, seat: int | None = None) -> list[str]:
    return [m["text"] for m in GAME.view(state, seat)["modifiers"]]


def question(state: State, seat: int) -> list[str] | None:
    """The options of the question put to ``seat``, as only that seat sees them."""
    q = GAME.view(state, seat).get("question")
    return None if q is None else list(q["options"])


# == Shady Witch ============================================================

def test_shady_witch_swaps_and_the_unplayed_gift_turns_level_1() -> None:
    state, events = witch_duel("Lvl.5 Shady Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.6 Dragon", "Lvl.1 Wolf"], ["Lvl.2 Giant", "Lvl.1 Skeleton"]],
                               deck=["Lvl.1 Serpent", "Lvl.6 Vampire", "Lvl.1 Pirate", "Lvl.2 Pirate", *INERT])
    # Seat 0's most powerful (Dragon 13) goes to seat 1; seat 1's least powerful in hand (Skeleton 4) comes back.
    assert hand(state, 0) == ["Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.1 Skeleton {3}", "Lvl.2 Pirate {3}"]
    assert hand(state, 1) == ["Lvl.2 Giant {4}", "Lvl.6 Vampire {5}", "Lvl.6 Dragon {7}", "Lvl.1 Serpent {0}",
                              "Lvl.1 Pirate {3}"]
    assert modifiers(state, None) == [
        "Shady Witch: if Player 2 still holds the gift at the end of turn 2, it becomes level 1."]
    assert "Dragon" not in told(events, None) and "Skeleton" not in told(events, None)
    assert "You give Lvl.6 Dragon {7}" in told(events, 0)
    assert "Lvl.6 Dragon" in told(events, 1) and "Lvl.1 Skeleton" in told(events, 1)
    state, events = duel(state, "Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}")
    assert "Lvl.1 Dragon {7}" in hand(state, 1) and "Lvl.6 Dragon {7}" not in hand(state, 1)
    assert "Dragon" not in told(events, None)
    assert modifiers(state, None) == []


def test_shady_witch_played_gift_keeps_its_level() -> None:
    state, _ = witch_duel("Lvl.5 Shady Witch", "Lvl.1 Serpent", hands=[["Lvl.6 Dragon", "Lvl.1 Wolf"], ["Lvl.1 Wolf"]],
                          deck=INERT)
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.6 Dragon {7}")
    assert hp(state) == [28, 30]
    assert not any("Dragon" in c for c in hand(state, 1))


# == Questing Witch =========================================================

def with_slain_every_tribe(state: State, seat: int) -> State:
    """The position as if ``seat``'s cards had slain a creature of each of the seven Tribes."""
    slain = {f"slew:{seat}:{tribe.value}": 1 for tribe in Tribe}
    return replace(state, counters=tuple(sorted({**dict(state.counters), **slain}.items())))


def test_questing_witch_does_nothing_before_the_quest_is_done() -> None:
    state, events = witch_duel("Lvl.4 Questing Witch", "Lvl.1 Serpent", hands=[["Lvl.1 Wolf"], []], deck=INERT)
    assert question(state, 0) is None
    assert "the quest is unfinished" in told(events, 1)
    assert GAME.view(state, None)["last_duel"]["turn"] == 1 and hp(state) == [30, 30]


def test_questing_witch_potion_of_ferocity() -> None:
    state = start([["Lvl.4 Questing Witch", "Lvl.1 Wolf", "Lvl.2 Giant"], ["Lvl.1 Serpent"]], INERT)
    state = with_slain_every_tribe(state, 0)
    state, _ = duel(state, "Lvl.4 Questing Witch {3}", "Lvl.1 Serpent {0}")
    assert question(state, 0) == [
        "Potion of Deception: discard your 3 most powerful creatures",
        "Potion of Ferocity: all creatures in your hand gain +3 levels",
        "Potion of Endurance: your Empire gains +15 HP",
    ]
    assert question(state, 1) is None
    state, events = answer(state, 0, 1)
    assert [c for c in hand(state, 0) if "Witch" not in c] == ["Lvl.4 Wolf {2}", "Lvl.5 Giant {4}"]
    assert "Lvl.4 Wolf" not in told(events, 1)


def test_questing_witch_potions_of_deception_and_endurance() -> None:
    setup = start([["Lvl.4 Questing Witch", "Lvl.1 Wolf", "Lvl.2 Giant", "Lvl.6 Dragon", "Lvl.5 Vampire"],
                   ["Lvl.1 Serpent"]], INERT)
    setup = with_slain_every_tribe(setup, 0)
    state, _ = duel(setup, "Lvl.4 Questing Witch {3}", "Lvl.1 Serpent {0}")
    deceived, _ = answer(state, 0, 0)
    assert [c for c in hand(deceived, 0) if "Witch" not in c] == ["Lvl.1 Wolf {2}"]
    assert discard(deceived)[:3] == ["Lvl.6 Dragon {7}", "Lvl.5 Vampire {5}", "Lvl.2 Giant {4}"]
    endured, _ = answer(state, 0, 2)
    assert hp(endured) == [45, 30]


# == Berserker Witch ========================================================

def test_berserker_witch_adds_the_winners_level_next_duel() -> None:
    state, _ = witch_duel("Lvl.4 Berserker Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Dragon", "Lvl.5 Dragon"], ["Lvl.2 Wolf", "Lvl.1 Wolf"]], deck=INERT)
    assert hp(state) == [30, 30]  # this turn's duel is not the next one
    assert modifiers(state, 1) == ["Berserker Witch: in turn 2's duel the loser also takes the winning card's level."]
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.2 Wolf {2}")
    assert hp(state) == [30, 30 - 2 - 6]
    state, _ = duel(state, "Lvl.5 Dragon {7}", "Lvl.1 Wolf {2}")
    assert hp(state) == [30, 22 - 2]


def test_berserker_witch_level_alone_when_the_loser_takes_no_duel_damage() -> None:
    state, _ = witch_duel("Lvl.4 Berserker Witch", "Lvl.1 Serpent", hands=[["Lvl.6 Dragon"], ["Lvl.2 Serpent"]],
                          deck=INERT)
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.2 Serpent {0}")
    assert hp(state) == [30, 24]


# == Pandora's Witch ========================================================

def test_pandoras_witch_casts_the_opponents_witches_for_them() -> None:
    state, events = witch_duel("Lvl.5 Pandora's Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.3 Giant", "Lvl.6 Dragon"],
                                      ["Lvl.2 Greedy Witch", "Lvl.5 Liberating Witch", "Lvl.4 Liberating Witch"]],
                               deck=["Lvl.1 Blind Witch", "Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Wolf", *INERT])
    # Greedy Witch drew 2 for seat 1; the first Liberating Witch, cast for seat 1, asks seat 1.
    assert question(state, 0) is None
    first = question(state, 1)
    assert first is not None and sorted(first) == ["Lvl.3 Giant {4}", "Lvl.6 Dragon {7}"]
    assert hand(state, 1) == ["Lvl.4 Liberating Witch {3}", "Lvl.1 Wolf {2}", "Lvl.2 Wolf {2}", "Lvl.3 Wolf {2}"]
    assert discard(state) == ["Lvl.2 Greedy Witch {3}", "Lvl.5 Liberating Witch {3}"]
    assert "Lvl.6 Dragon" not in told(events, None)
    state, _ = answer(state, 1, first.index("Lvl.6 Dragon {7}"))
    assert question(state, 1) == ["Lvl.3 Giant {4}"]  # the second witch asks in its turn
    assert GAME.view(state, None)["last_duel"] is None
    state, _ = answer(state, 1, 0)
    assert question(state, 1) is None
    assert GAME.view(state, None)["last_duel"]["winner"] == 0  # the duel went on: the witch (8) beat the Serpent
    assert [c.notation() for c in state.removed] == ["Lvl.6 Dragon {7}", "Lvl.3 Giant {4}"]
    assert discard(state) == ["Lvl.2 Greedy Witch {3}", "Lvl.5 Liberating Witch {3}", "Lvl.4 Liberating Witch {3}",
                              "Lvl.5 Pandora's Witch {3}"]
    assert hand(state, 0) == ["Lvl.1 Blind Witch {3}", "Lvl.1 Blind Witch {3}"]


def test_pandoras_witch_with_no_witch_to_open() -> None:
    state, events = witch_duel("Lvl.5 Pandora's Witch", "Lvl.2 Wolf", hands=[[], ["Lvl.3 Giant"]], deck=MIXED)
    assert "holds no witch" in told(events, None)
    assert discard(state) == ["Lvl.5 Pandora's Witch {3}"]


# == Odd Witch ==============================================================

def test_odd_witch_discards_even_levels_from_both_hands() -> None:
    state, _ = witch_duel("Lvl.5 Odd Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.2 Wolf", "Lvl.3 Giant", "Lvl.2 Blind Witch"], ["Lvl.4 Dragon", "Lvl.5 Pirate"]],
                          deck=["Lvl.6 Vampire", "Lvl.1 Wolf", "Lvl.1 Serpent", "Lvl.3 Serpent", *INERT])
    assert hand(state, 0) == ["Lvl.3 Giant {4}", "Lvl.3 Serpent {0}"]
    assert hand(state, 1) == ["Lvl.5 Pirate {3}", "Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.1 Serpent {0}"]
    assert discard(state) == ["Lvl.2 Wolf {2}", "Lvl.2 Blind Witch {3}", "Lvl.6 Vampire {5}", "Lvl.4 Dragon {7}",
                              "Lvl.5 Odd Witch {3}"]


# == Witch of the Firehawks =================================================

def test_witch_of_the_firehawks_burns_nightmares_and_witches() -> None:
    state, events = witch_duel("Lvl.4 Witch of the Firehawks", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Nightmare Wolf", "Lvl.3 Holy Giant", "Lvl.1 Greedy Witch",
                                       "Lvl.2 Serpent"], []],
                               deck=["Lvl.1 Ancient Pirate", *fillers(11)])
    assert hand(state, 0)[:3] == ["Lvl.3 Fire Giant {4}", "Lvl.2 Fire Serpent {0}", "Lvl.1 Fire Pirate {3}"]
    assert len(hand(state, 0)) == 4  # plus turn 2's draw
    assert not any("Wolf" in c or "Greedy" in c for c in discard(state))
    assert "Nightmare Wolf" in told(events, 0)
    assert "Nightmare Wolf" not in told(events, 1) and "Greedy" not in told(events, 1)
    assert "Holy Giant" not in told(events, None) and "2 card(s)" in told(events, None)


# == Talismanic Witch =======================================================

def test_talismanic_witch_halves_the_next_damage_only() -> None:
    state, _ = witch_duel("Lvl.4 Talismanic Witch", "Lvl.6 Dragon",
                          hands=[["Lvl.1 Wolf", "Lvl.2 Wolf"], ["Lvl.5 Dragon", "Lvl.4 Dragon"]], deck=INERT)
    assert hp(state) == [30 - 1, 30]  # the witch lost: 3 halved, rounded down
    assert modifiers(state, None) == []
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.5 Dragon {7}")
    assert hp(state) == [27, 30]


# == Chthonic, Necromancing and Sepulchrul Witches ========================

def test_chthonic_witch_raises_the_last_slain_with_one_level_less() -> None:
    state = start([["Lvl.4 Vampire", "Lvl.5 Chthonic Witch"], ["Lvl.3 Giant", "Lvl.1 Serpent"]], INERT)
    state, _ = duel(state, "Lvl.4 Vampire {5}", "Lvl.3 Giant {4}")
    assert discard(state) == ["Lvl.4 Vampire {5}", "Lvl.3 Giant {4}"]
    state, events = duel(state, "Lvl.5 Chthonic Witch {3}", "Lvl.1 Serpent {0}")
    assert "Lvl.2 Giant {4}" in hand(state, 0)
    assert discard(state) == ["Lvl.4 Vampire {5}", "Lvl.5 Chthonic Witch {3}"]
    assert "Lvl.2 Giant {4}" in told(events, 1)  # it came from the face-up pile: public


def test_necromancing_witch_raises_every_slain_skeleton() -> None:
    state = start([["Lvl.5 Dragon", "Lvl.6 Vampire", "Lvl.4 Necromancing Witch"],
                   ["Lvl.1 Skeleton", "Lvl.2 Skeleton", "Lvl.1 Serpent"]], MIXED)
    state, _ = duel(state, "Lvl.5 Dragon {7}", "Lvl.1 Skeleton {3}")
    state, _ = duel(state, "Lvl.6 Vampire {5}", "Lvl.2 Skeleton {3}")
    state, _ = duel(state, "Lvl.4 Necromancing Witch {3}", "Lvl.1 Serpent {0}")
    assert [c for c in hand(state, 0) if "Skeleton" in c] == ["Lvl.4 Skeleton {3}", "Lvl.5 Skeleton {3}"]
    assert not any("Skeleton" in c for c in discard(state))


def test_sepulchrul_witch_resurrects_the_last_slain_at_its_level() -> None:
    state = start([["Lvl.1 Wolf", "Lvl.6 Dragon", "Lvl.4 Sepulchrul Witch"], ["Lvl.3 Giant", "Lvl.2 Pirate",
                                                                             "Lvl.1 Serpent"]], MIXED)
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.3 Giant {4}")
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.2 Pirate {3}")
    state, _ = duel(state, "Lvl.4 Sepulchrul Witch {3}", "Lvl.1 Serpent {0}")
    assert "Lvl.2 Pirate {3}" in hand(state, 0)
    assert "Lvl.2 Pirate {3}" not in discard(state) and "Lvl.1 Wolf {2}" in discard(state)


def test_sepulchrul_witch_with_nothing_slain() -> None:
    state, events = witch_duel("Lvl.4 Sepulchrul Witch", "Lvl.1 Serpent", deck=INERT)
    assert "no slain creature" in told(events, None)
    assert hand(state, 0) == ["Lvl.1 Blind Witch {3}", "Lvl.1 Blind Witch {3}"]


# == Circe's and Angitia's Witches =========================================

def test_circes_witch_turns_pirates_into_wolves_in_both_hands() -> None:
    state, events = witch_duel("Lvl.4 Circe's Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.3 Fire Pirate", "Lvl.2 Giant"], ["Lvl.5 Holy Pirate"]], deck=INERT)
    assert hand(state, 0)[:2] == ["Lvl.3 Fire Wolf {2}", "Lvl.2 Giant {4}"]
    assert hand(state, 1)[0] == "Lvl.5 Holy Wolf {2}"
    assert "Holy Pirate" in told(events, 1) and "Holy Pirate" not in told(events, 0)
    assert "Fire Pirate" not in told(events, 1) and "Pirate {3}" not in told(events, None)


def test_angitias_witch_eats_serpents_for_5_hp_each() -> None:
    state, _ = witch_duel("Lvl.4 Angitia's Witch", "Lvl.1 Wolf",
                          hands=[["Lvl.1 Serpent", "Lvl.4 Holy Serpent", "Lvl.2 Giant"], []], deck=INERT, hp=20)
    assert hp(state) == [30, 20]
    assert discard(state)[:2] == ["Lvl.1 Serpent {0}", "Lvl.4 Holy Serpent {0}"]
    assert hand(state, 0)[0] == "Lvl.2 Giant {4}"


# == Minerva's Witch ========================================================

def test_minervas_witch_trades_by_choice() -> None:
    state, events = witch_duel("Lvl.6 Minerva's Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Wolf", "Lvl.2 Serpent", "Lvl.6 Dragon"],
                                      ["Lvl.5 Vampire", "Lvl.4 Giant", "Lvl.1 Skeleton"]], deck=INERT)
    options = question(state, 0)
    assert options == [
        "Give your 2 least powerful creatures (Lvl.2 Serpent {0}, Lvl.1 Wolf {2}) for their 2 most powerful creatures.",
        "Give your 2 most powerful creatures (Lvl.6 Dragon {7}, Lvl.1 Wolf {2}) for their 2 least powerful creatures.",
    ]
    assert "Vampire" not in told(events, 0)  # the options name only the asker's cards
    assert question(state, 1) is None
    state, events = answer(state, 0, 0)
    assert [c for c in hand(state, 0) if "Blind" not in c] == ["Lvl.6 Dragon {7}", "Lvl.5 Vampire {5}",
                                                               "Lvl.4 Giant {4}"]
    assert [c for c in hand(state, 1) if "Blind" not in c] == ["Lvl.1 Skeleton {3}", "Lvl.2 Serpent {0}",
                                                               "Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}"]
    assert "Vampire" not in told(events, None) and "Wolf" not in told(events, None)


# == Succubus' Witch ========================================================

def test_succubus_witch_desecrates_and_the_cambion_hits_double() -> None:
    state, events = witch_duel("Lvl.5 Succubus' Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Nightmare Wolf", "Lvl.6 Dragon"], ["Lvl.5 Fire Vampire"]], deck=INERT)
    assert discard(state)[0] == "Lvl.2 Nightmare Wolf {2}"
    assert hand(state, 1)[:4] == ["Lvl.2 Fire Vampire {5}", "Lvl.1 Blind Witch {3}", "Lvl.1 Fire Cambion {5}",
                                  "Lvl.1 Serpent {0}"]
    assert "Fire Vampire" not in told(events, 0) and "Fire Cambion" not in told(events, 0)
    assert "Lvl.1 Fire Cambion {5}" in told(events, 1)
    assert modifiers(state, 0) == ["Succubus' Witch: a Cambion deals double damage to its holder's Empire."]
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.1 Fire Cambion {5}")
    assert hp(state) == [30, 20]


def test_succubus_witch_needs_a_nightmare() -> None:
    state, _ = witch_duel("Lvl.5 Succubus' Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Holy Wolf"], ["Lvl.5 Vampire"]],
                          deck=INERT)
    assert hand(state, 1)[0] == "Lvl.5 Vampire {5}" and len(hand(state, 1)) == 4


# == Sin-Eater Witch ========================================================

def test_sin_eater_witch_cancels_the_next_loss_and_outcasts_a_creature() -> None:
    state, events = witch_duel("Lvl.4 Sin-Eater Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Wolf", "Lvl.3 Giant"], ["Lvl.6 Dragon", "Lvl.5 Dragon"]], deck=INERT)
    state, events = duel(state, "Lvl.1 Wolf {2}", "Lvl.6 Dragon {7}")
    assert hp(state) == [30, 30]
    assert hand(state, 0)[0] == "Lvl.3 Giant {4}: (-)"
    assert "Giant" not in told(events, 1)
    assert modifiers(state, None) == []
    state, _ = duel(state, "Lvl.1 Blind Witch {3}", "Lvl.5 Dragon {7}")
    assert hp(state) == [27, 30]


# == Charlotte's Witch ======================================================

def test_charlottes_witch_webs_one_enemy_card() -> None:
    state, events = witch_duel("Lvl.4 Charlotte's Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.5 Vampire"]],
                               deck=["Lvl.1 Wolf", "Lvl.1 Serpent", *INERT])
    webbed = [c for c in hand(state, 1) if c.endswith(": (-)")]
    assert len(webbed) == 1
    assert webbed[0] in told(events, 1) and webbed[0] not in told(events, 0)
    assert "trapped in a web" in told(events, None)


# == The Sand Witch =========================================================

def test_the_sand_witch_gives_nightmares_two_power() -> None:
    state, _ = witch_duel("Lvl.4 The Sand Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.2 Nightmare Wolf"], ["Lvl.1 Giant"]], deck=INERT)
    assert modifiers(state, 1) == ["The Sand Witch: Nightmare creatures have +2 power in duels."]
    state, _ = duel(state, "Lvl.2 Nightmare Wolf {2}", "Lvl.1 Giant {4}")
    last = GAME.view(state, None)["last_duel"]
    assert last["powers"] == [6, 5] and last["winner"] == 0
    assert hp(state) == [30, 26]


# == Green Witch ============================================================

def test_green_witch_evens_the_hands() -> None:
    state, _ = witch_duel("Lvl.4 Green Witch", "Lvl.1 Serpent",
                          hands=[[], ["Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Wolf"]],
                          deck=["Lvl.1 Pirate", "Lvl.1 Giant", "Lvl.2 Pirate", "Lvl.3 Dragon", "Lvl.4 Vampire",
                                *INERT])
    # At the cast: seat 0 holds 1 card, seat 1 holds 4 -> seat 0 draws 3.
    assert hand(state, 0) == ["Lvl.1 Pirate {3}", "Lvl.2 Pirate {3}", "Lvl.3 Dragon {7}", "Lvl.4 Vampire {5}",
                              "Lvl.1 Blind Witch {3}"]
    assert len(hand(state, 1)) == 6  # 4 at the cast, the Serpent back, turn 2's draw


# == Wiccan Little ==========================================================

def test_wiccan_little_panics_and_the_sky_may_fall() -> None:
    outcomes = set()
    for seed in range(1, 12):
        state, events = witch_duel("Lvl.4 Wiccan Little", "Lvl.6 Dragon", deck=INERT, seed=seed)
        if "And it does" in told(events, None):
            assert hp(state) == [30 - 3 - 5, 25]
            outcomes.add("fell")
        else:
            assert "but it holds" in told(events, None) and hp(state) == [27, 30]
            outcomes.add("held")
    assert outcomes == {"fell", "held"}


def test_wiccan_little_does_not_panic_when_it_escapes() -> None:
    state, events = witch_duel("Lvl.4 Wiccan Little", "Lvl.1 Serpent", deck=INERT)
    assert "SKY IS FALLING" not in told(events, None) and hp(state) == [30, 30]


# == Coven-Calling Witch ====================================================

def test_coven_calling_witch_shuffles_13_sacred_witches_into_the_deck() -> None:
    state, events = witch_duel("Lvl.4 Coven-Calling Witch", "Lvl.1 Serpent", deck=fillers(12))
    assert GAME.view(state, None)["deck"] == 12 - 4 + 13
    everywhere = [*state.deck, *state.hands[0], *state.hands[1]]
    sacred = [c for c in everywhere if c.is_witch and by_name(c.witch or "").rarity is Rarity.SACRED]
    assert len(sacred) == 13 and all(4 <= c.level - (2 if c.witch_rally else 0) <= 6 for c in sacred)
    assert "13 Sacred Witches" in told(events, None)


# == Wraith Witch ===========================================================

def test_wraith_witch_leaves_a_wraith_that_strikes_and_vanishes() -> None:
    state, _ = witch_duel("Lvl.4 Wraith Witch", "Lvl.6 Dragon", hands=[[], ["Lvl.3 Giant"]], deck=INERT)
    assert hp(state) == [27, 30]
    assert "Lvl.1 Wraith {0}" in hand(state, 0)
    state, _ = duel(state, "Lvl.1 Wraith {0}", "Lvl.3 Giant {4}")
    assert hp(state) == [27, 27]
    assert "Lvl.3 Giant {4}: (1)" in hand(state, 1)
    assert not any("Wraith {0}" in c for c in hand(state, 0) + discard(state))
    assert [c.token for c in state.removed] == ["Wraith"]


def test_wraith_witch_gives_nothing_when_it_escapes() -> None:
    state, _ = witch_duel("Lvl.4 Wraith Witch", "Lvl.1 Serpent", deck=INERT)
    assert not any("Wraith {0}" in c for c in hand(state, 0))


# == Lenore's Witch =========================================================

def test_lenores_witch_sends_a_creature_away_and_the_raven_pecks() -> None:
    state, events = witch_duel("Lvl.5 Lenore's Witch", "Lvl.1 Serpent",
                               hands=[[], ["Lvl.3 Giant", "Lvl.4 Vampire", "Lvl.2 Wolf", "Lvl.1 Blind Witch"]],
                               deck=["Lvl.1 Blind Witch", "Lvl.1 Blind Witch", "Lvl.5 Vampire", "Lvl.1 Blind Witch",
                                     "Lvl.6 Vampire", *INERT])
    options = question(state, 0)
    assert options is not None and sorted(options) == ["Lvl.2 Wolf {2}", "Lvl.3 Giant {4}", "Lvl.4 Vampire {5}"]
    assert question(state, 1) is None
    assert all("options" not in e for e in seen_by(events, 1))
    state, events = answer(state, 0, options.index("Lvl.4 Vampire {5}"))
    assert hand(state, 1)[:4] == ["Lvl.3 Giant {4}", "Lvl.1 Raven {0}: (-)", "Lvl.2 Wolf {2}",
                                  "Lvl.1 Blind Witch {3}"]
    assert [c.notation() for c in state.removed] == ["Lvl.4 Vampire {5}"]
    assert "Vampire" not in told(events, None)
    assert "Lvl.4 Vampire" in told(events, 1)
    # turn 2: seat 1 draws the Lvl.5 Vampire (its beloved's Tribe): pecked for 2
    assert hp(state) == [30, 28]
    assert GAME.view(state, 1)["legal"] == [{"kind": "play", "slot": i} for i in (0, 2, 3, 4, 5, 6)]


# == The Witch of the Cumaean Sibyl =========================================

def test_cumaean_sibyl_reveals_the_hand_to_the_caster_and_scatters_three() -> None:
    state, events = witch_duel("Lvl.5 The Witch of the Cumaean Sibyl", "Lvl.1 Serpent",
                               hands=[[], ["Lvl.3 Giant", "Lvl.4 Vampire", "Lvl.2 Wolf"]], deck=fillers(12))
    revealed = ["Lvl.3 Giant {4}", "Lvl.4 Vampire {5}", "Lvl.2 Wolf {2}", "Lvl.1 Skeleton {3}"]
    shown = [e for e in seen_by(events, 0) if e["kind"] == "secret" and e["text"].startswith("Player 2's hand")]
    assert len(shown) == 1 and shown[0]["cards"] == revealed
    back = [e["text"] for e in seen_by(events, 0) if e["kind"] == "secret" and "Shuffled back" in e["text"]]
    assert len(back) == 1 and sum(card in back[0] for card in revealed) == 3
    assert not any(card in told(events, None) for card in revealed[:3])
    assert "shuffles 3 card(s) back into the deck" in told(events, None)
    assert len([e for e in seen_by(events, None) if e["kind"] == "draw" and "Sibyl" in e["text"]]) == 3
    assert len(hand(state, 1)) == 4 + 1 + 1  # 4 in hand (3 back, 3 drawn) + the Serpent back + turn 2's draw
    assert GAME.view(state, None)["deck"] == 12 - 2 + 3 - 3 - 2


# == Medusa's Witch =========================================================

def test_medusas_witch_petrifies_the_enemy_card_when_it_lives() -> None:
    state, _ = witch_duel("Lvl.4 Medusa's Witch", "Lvl.2 Wolf", deck=INERT)
    assert "Lvl.2 Wolf {2}: (-)" in hand(state, 1)
    assert hand(state, 1) == ["Lvl.1 Blind Witch {3}", "Lvl.2 Wolf {2}: (-)", "Lvl.1 Blind Witch {3}"]
    assert GAME.view(state, 1)["legal"] == [{"kind": "play", "slot": i} for i in (0, 2)]


def test_medusas_witch_petrifies_an_enemy_witch_back_into_its_hand() -> None:
    state, _ = witch_duel("Lvl.6 Medusa's Witch", "Lvl.2 Blind Witch", deck=fillers(12))
    assert hp(state) == [30, 27]
    assert "Lvl.2 Blind Witch {3}: (-)" in hand(state, 1)
    assert discard(state) == ["Lvl.6 Medusa's Witch {3}"]


def test_medusas_witch_does_nothing_when_it_dies() -> None:
    state, _ = witch_duel("Lvl.4 Medusa's Witch", "Lvl.6 Dragon", deck=INERT)
    assert "Lvl.6 Dragon {7}" in hand(state, 1)


# == Chiquita Witch =========================================================

def test_chiquita_witch_ripens_and_sours_creatures_in_hand() -> None:
    state = start([["Lvl.1 Serpent", "Lvl.1 Chiquita Witch", "Lvl.4 Giant", "Lvl.2 Wolf"], ["Lvl.2 Serpent"]], INERT)
    state, events = duel(state, "Lvl.1 Serpent {0}", "Lvl.2 Serpent {0}")
    assert hp(state) == [26, 30]  # the Giant ripened to 5, turned sour: 4 damage
    assert hand(state, 0) == ["Lvl.1 Chiquita Witch {3}", "Lvl.3 Wolf {2}", "Lvl.1 Blind Witch {3}",
                              "Lvl.1 Blind Witch {3}"]
    assert discard(state)[-1] == "Lvl.5 Giant {4}"
    assert "Chiquita" not in told(events, 1) and "Lvl.3 Wolf" not in told(events, 1)


# == Midas Witch ============================================================

def test_midas_witch_gilds_cards_entering_your_hand() -> None:
    state, _ = witch_duel("Lvl.4 Midas Witch", "Lvl.1 Serpent", deck=["Lvl.1 Wolf", "Lvl.1 Serpent",
                                                                         "Lvl.1 Serpent", "Lvl.3 Giant", *INERT])
    assert hand(state, 0) == ["Lvl.1 Wolf {2}", "Lvl.3 Giant {6}"]
    assert hand(state, 1) == ["Lvl.1 Serpent {0}", "Lvl.1 Serpent {0}", "Lvl.1 Serpent {0}"]
    assert modifiers(state, 1) == ["Midas Witch: cards entering Player 1's hand gain +2 base str."]


# == Santa Witch ============================================================

def test_santa_witch_wraps_two_gifts_each_and_peeks_at_theirs() -> None:
    seen = set()
    for seed in (1, 2, 3, 4, 5):
        state, events = witch_duel("Lvl.4 Santa Witch", "Lvl.1 Serpent", deck=INERT, seed=seed)
        mine, theirs = hand(state, 0)[1:3], hand(state, 1)[1:3]
        assert len(hand(state, 0)) == 4 and len(hand(state, 1)) == 5
        peek = [e for e in seen_by(events, 0) if e["kind"] == "secret" and "peek" in e["text"]]
        assert len(peek) == 1 and peek[0]["cards"] == theirs
        assert not any(e["kind"] == "secret" for e in seen_by(events, None))
        assert not any("peek" in e["text"] and e["kind"] == "secret" for e in seen_by(events, 1))
        for gift in mine + theirs:
            seen.add("coal" if "Lump of Coal" in gift else "creature")
            if "Lump of Coal" in gift:
                assert gift == "Lvl.1 Lump of Coal {0}: (-)"
    assert seen == {"coal", "creature"}


# == David's, Goliath and Juno's Witches ===================================

def test_davids_witch_lets_the_weaker_beat_giants() -> None:
    state, _ = witch_duel("Lvl.4 David's Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Giant", "Lvl.6 Dragon"], ["Lvl.1 Wolf", "Lvl.1 Pirate"]], deck=INERT)
    state, _ = duel(state, "Lvl.6 Giant {4}", "Lvl.1 Wolf {2}")
    assert GAME.view(state, None)["last_duel"]["winner"] == 1 and hp(state) == [26, 30]
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.1 Pirate {3}")  # no Giant: the stronger wins
    assert hp(state) == [26, 27]


def test_goliath_witch_weaker_wins_next_duel_only() -> None:
    state, _ = witch_duel("Lvl.4 Goliath Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Dragon", "Lvl.5 Dragon"], ["Lvl.1 Wolf", "Lvl.2 Wolf"]], deck=INERT)
    assert hp(state) == [30, 30]  # the witch's own duel is not affected
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.1 Wolf {2}")
    assert hp(state) == [23, 30]
    state, _ = duel(state, "Lvl.5 Dragon {7}", "Lvl.2 Wolf {2}")
    assert hp(state) == [23, 28]


def test_junos_witch_doubles_type_advantage_with_giants() -> None:
    state, _ = witch_duel("Lvl.4 Juno's Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.1 Holy Giant", "Lvl.1 Holy Wolf"], ["Lvl.2 Ancient Wolf", "Lvl.1 Ancient Pirate"]],
                          deck=INERT)
    state, _ = duel(state, "Lvl.1 Holy Giant {4}", "Lvl.2 Ancient Wolf {2}")
    assert GAME.view(state, None)["last_duel"]["powers"] == [4 + 1 + 6, 2 + 2]
    state, _ = duel(state, "Lvl.1 Holy Wolf {2}", "Lvl.1 Ancient Pirate {3}")
    assert GAME.view(state, None)["last_duel"]["powers"] == [2 + 1 + 3, 3 + 1]


# == Liberating Witch =======================================================

def test_liberating_witch_removes_the_chosen_enemy_creature() -> None:
    state, events = witch_duel("Lvl.6 Liberating Witch", "Lvl.1 Serpent",
                               hands=[[], ["Lvl.3 Giant", "Lvl.6 Dragon"]], deck=INERT)
    options = question(state, 0)
    assert options is not None and sorted(options) == ["Lvl.3 Giant {4}", "Lvl.6 Dragon {7}"]
    state, events = answer(state, 0, options.index("Lvl.6 Dragon {7}"))
    assert [c.notation() for c in state.removed] == ["Lvl.6 Dragon {7}"]
    assert hand(state, 1)[0] == "Lvl.3 Giant {4}" and not any("Dragon" in c for c in hand(state, 1))
    assert "Dragon" not in told(events, None) and "Lvl.6 Dragon" in told(events, 1)


# == Buried Witch ===========================================================

def test_buried_witch_digs_up_cannonballs_for_a_pirate_rally() -> None:
    state, events = witch_duel("Lvl.4 Buried Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Pirate", "Lvl.2 Pirate", "Lvl.3 Pirate", "Lvl.1 Holy Pirate"],
                                      ["Lvl.2 Giant"]], deck=INERT)
    assert "Player 1 digs up a Cannonball (Buried Witch): Lvl.1 Cannonball {0}." in told(events, 1)
    assert hand(state, 0)[:4] == ["Lvl.3 Pirate! {3}", "Lvl.4 Pirate! {3}", "Lvl.5 Pirate! {3}",
                                  "Lvl.3 Holy Pirate! {3}"]
    assert hand(state, 0)[5:8] == ["Lvl.1 Cannonball {0}"] * 3
    state, _ = duel(state, "Lvl.1 Cannonball {0}", "Lvl.2 Giant {4}")
    assert hp(state) == [26, 25]  # the Giant wins and its base hits; the Cannonball deals 5
    assert GAME.view(state, None)["last_duel"]["winner"] == 1
    assert "Lvl.1 Cannonball {0}" in discard(state)
    assert hand(state, 0).count("Lvl.1 Cannonball {0}") == 2


def test_buried_witch_without_a_pirate_rally() -> None:
    state, events = witch_duel("Lvl.4 Buried Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Pirate", "Lvl.2 Pirate", "Lvl.3 Pirate"], []], deck=INERT)
    assert not any("Cannonball" in c for c in hand(state, 0))
    assert "no Pirate rally" in told(events, None)


def test_pandoras_witch_casting_a_which_witch_keeps_one_card_in_one_place() -> None:
    """A Which Witch cast by Pandora's Witch leaves the game; it is not also discarded."""
    from tests.engine.witches.helpers import witch_duel

    state, _ = witch_duel("Lvl.5 Pandora's Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.2 Which Witch"]], seed=547)
    uids = [c.uid for c in (*state.hands[0], *state.hands[1], *state.deck, *state.discard, *state.removed)]
    assert len(uids) == len(set(uids))
    assert [c.witch for c in state.removed].count("Which Witch") == 1
    assert "Which Witch" not in [c.witch for c in state.discard]

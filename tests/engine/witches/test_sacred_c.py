"""One test (or more) per Sacred witch of part c: set up a position, play the witch, check the effect."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.creature_wars.state import State
from engine.interface import Event
from tests.engine.scenario import duel, events_of, fillers
from tests.engine.witches.helpers import GAME, answer, hand, hp, seen_by, start, witch_duel

GREEDY = "Lvl.1 Greedy Witch"


def mods(state: State, seat: int | None = None) -> list[str]:
    """The modifiers' texts as ``seat`` sees them."""
    return [m["text"] for m in GAME.view(state, seat)["modifiers"]]


def discard(state: State) -> list[str]:
    return [c["text"] for c in GAME.view(state, None)["discard"]]


def texts(events: Sequence[Event], seat: int | None) -> str:
    """Every text ``seat`` is told of ``events``, in one string."""
    return " | ".join(str(e.get("text", "")) for e in seen_by(events, seat))


def deck(state: State) -> list[str]:
    """The deck, top first (engine-side: for checking where cards went)."""
    return [c.notation() for c in state.deck]


# == Skeletal / Ossuary / Pilfering / Backlash ====================================================


def test_skeletal_witch_skellifies_with_an_enhanced_skeleton_and_caps_damage() -> None:
    state, events = witch_duel("Lvl.5 Skeletal Witch", "Lvl.1 Serpent", hands=[
        ["Lvl.2 Skeleton", "Lvl.3 Skeleton", "Lvl.1 Skeleton", "Lvl.4 Skeleton", "Lvl.3 Fire Dragon", "Lvl.2 Wolf"],
        ["Lvl.9 Dragon"]])
    # the four Skeletons rallied at the start (+2); the Dragon, Wolf and drawn Serpent join the Skeletons and the rally
    assert hand(state, 0) == ["Lvl.4 Skeleton! {3}", "Lvl.5 Skeleton! {3}", "Lvl.3 Skeleton! {3}", "Lvl.6 Skeleton! {3}",
                              "Lvl.5 Fire Skeleton! {7}", "Lvl.4 Skeleton! {2}", "Lvl.3 Skeleton! {0}", "Lvl.1 Vampire {5}"]
    assert mods(state) == ["Skeletal Witch: skellified creatures deal at most 3 damage to an Empire."]
    assert "Fire Dragon" not in texts(events, 1) and "Wolf" not in texts(events, 1)
    state, _ = duel(state, "Lvl.5 Fire Skeleton! {7}", "Lvl.9 Dragon {7}")
    assert hp(state) == [27, 30]  # a skellified card of base str 7 deals only 3


def test_skeletal_witch_does_nothing_without_an_enhanced_skeleton() -> None:
    state, _ = witch_duel("Lvl.5 Skeletal Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Skeleton", "Lvl.3 Fire Dragon"], []])
    assert hand(state, 0) == ["Lvl.2 Skeleton {3}", "Lvl.3 Fire Dragon {7}", "Lvl.1 Serpent {0}", "Lvl.1 Vampire {5}"]
    assert mods(state) == []


def test_ossuary_witch_shuffles_slain_skeletons_back_with_one_more_level() -> None:
    state = start([["Lvl.2 Skeleton", "Lvl.4 Ossuary Witch"], ["Lvl.3 Dragon", "Lvl.1 Serpent"]])
    state, _ = duel(state, "Lvl.2 Skeleton {3}", "Lvl.3 Dragon {7}")
    assert hp(state) == [27, 30] and discard(state) == ["Lvl.2 Skeleton {3}", "Lvl.3 Dragon {7}"]
    before = len(state.deck)
    state, events = duel(state, "Lvl.4 Ossuary Witch {3}", "Lvl.1 Serpent {0}")
    assert discard(state) == ["Lvl.3 Dragon {7}", "Lvl.4 Ossuary Witch {3}"]
    assert len(state.deck) == before + 1 - 2  # one back in, two drawn at turn 3
    assert "Lvl.3 Skeleton {3}" in deck(state)
    assert "Lvl.3 Skeleton {3}" in texts(events, None)


def test_pilfering_witch_steals_a_witch_and_only_the_two_players_learn_which() -> None:
    state, events = witch_duel("Lvl.4 Pilfering Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.2 Greedy Witch", "Lvl.1 Wolf"]])
    assert hand(state, 0) == ["Lvl.1 Serpent {0}", "Lvl.2 Greedy Witch {3}", "Lvl.1 Vampire {5}"]
    assert hand(state, 1) == ["Lvl.1 Wolf {2}", "Lvl.1 Skeleton {3}", "Lvl.1 Serpent {0}", "Lvl.1 Pirate {3}"]
    assert "Greedy" in texts(events, 1)  # the victim knows what it lost
    assert "Greedy" not in texts(events, None)


def test_pilfering_witch_without_an_enemy_witch_does_nothing() -> None:
    state, _ = witch_duel("Lvl.4 Pilfering Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.1 Wolf"]])
    assert len(hand(state, 0)) == 2 and len(hand(state, 1)) == 4


def test_backlash_witch_hurts_the_sender_of_a_level_6_winner() -> None:
    state, _ = witch_duel("Lvl.4 Backlash Witch", "Lvl.1 Serpent", hands=[["Lvl.6 Giant", "Lvl.5 Giant"],
                                                                          ["Lvl.1 Wolf", "Lvl.2 Wolf"]])
    assert mods(state, 1) == ["Backlash Witch: a creature of level 6+ that wins a duel also damages its own Empire."]
    state, _ = duel(state, "Lvl.6 Giant {4}", "Lvl.1 Wolf {2}")
    assert hp(state) == [26, 28]
    state, _ = duel(state, "Lvl.5 Giant {4}", "Lvl.2 Wolf {2}")
    assert hp(state) == [26, 26]  # level 5: no backlash


# == Benevolent / Prehistoric / Draconic / Haughty ===============================================


def test_benevolent_witch_gives_one_creature_of_each_tribe_two_levels() -> None:
    state, events = witch_duel("Lvl.4 Benevolent Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Giant", GREEDY], []])
    cards = hand(state, 0)
    assert cards[2:] == ["Lvl.5 Giant {4}", "Lvl.1 Greedy Witch {3}", "Lvl.3 Serpent {0}", "Lvl.1 Vampire {5}"]
    assert sorted(cards[:2]) in (["Lvl.1 Wolf {2}", "Lvl.4 Wolf {2}"], ["Lvl.2 Wolf {2}", "Lvl.3 Wolf {2}"])
    assert "Giant" not in texts(events, 1)


def test_prehistoric_witch_makes_the_hand_ancient_and_rallies_it() -> None:
    state, events = witch_duel("Lvl.4 Prehistoric Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Fire Wolf", "Lvl.3 Holy Giant", "Lvl.1 Ancient Pirate", GREEDY], []])
    # four Ancients (Wolf, Giant, Pirate, the drawn Serpent) form a Power Rally: +2 each
    assert hand(state, 0) == ["Lvl.4 Ancient! Wolf {2}", "Lvl.5 Ancient! Giant {4}", "Lvl.3 Ancient! Pirate {3}",
                              "Lvl.1 Greedy Witch {3}", "Lvl.3 Ancient! Serpent {0}", "Lvl.1 Vampire {5}"]
    assert "Holy Giant" not in texts(events, 1)


def test_draconic_witch_turns_every_serpent_in_both_hands_into_a_dragon() -> None:
    state, events = witch_duel("Lvl.4 Draconic Witch", "Lvl.1 Wolf",
                               hands=[["Lvl.2 Serpent", "Lvl.2 Giant"], ["Lvl.5 Holy Serpent"]])
    mine, theirs = hand(state, 0), hand(state, 1)
    assert not any("Serpent" in c for c in mine + theirs)
    assert sum("Dragon {7}" in c for c in mine) == 2  # the Lvl.2 Serpent and the Serpent drawn at turn 1
    assert sum("Dragon {7}" in c for c in theirs) == 1
    assert len(events_of(events, "transform")) == 3
    new_dragons = [c for c in mine if "Dragon" in c]
    assert all(c not in texts(events, 1) for c in new_dragons)


def test_haughty_witch_takes_a_random_card_from_a_lower_challenger() -> None:
    state, events = witch_duel("Lvl.5 Haughty Witch", "Lvl.3 Wolf", hands=[[], ["Lvl.2 Giant", "Lvl.6 Dragon"]])
    assert len(hand(state, 0)) == 3 and len(hand(state, 1)) == 4
    taken = hand(state, 0)[1]
    assert taken in ("Lvl.2 Giant {4}", "Lvl.6 Dragon {7}", "Lvl.1 Skeleton {3}")
    assert taken not in hand(state, 1)
    assert taken not in texts(events, None) and taken in texts(events, 1)


def test_haughty_witch_does_nothing_against_a_higher_level() -> None:
    state, _ = witch_duel("Lvl.4 Haughty Witch", "Lvl.4 Wolf", hands=[[], ["Lvl.2 Giant"]])
    assert len(hand(state, 0)) == 2 and len(hand(state, 1)) == 4


# == Haggel & Witchel / Storytime / Ondu's / Coven of Babel ======================================


def test_haggel_witchel_fills_hands_to_eight_and_curses_the_next_witch_draw() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", *["Lvl.1 Giant"] * 6, "Lvl.1 Pirate", "Lvl.3 Greedy Witch",
            "Lvl.1 Pirate", "Lvl.2 Greedy Witch", *["Lvl.1 Vampire"] * 6]
    state, events = witch_duel("Lvl.4 Haggel & Witchel", "Lvl.1 Serpent", deck=deck,
                               hands=[["Lvl.2 Wolf"], ["Lvl.2 Wolf"]])
    assert hp(state) == [30, 18]  # Player 2 drew the first witch; the second witch draw is free
    assert len(hand(state, 0)) == 8 + 1 and len(hand(state, 1)) == 8 + 1 + 1  # + the Serpent back, + turn 2
    assert mods(state) == []
    assert "Greedy" not in texts(events, 0)


def test_storytime_witch_adds_a_creature_both_players_see() -> None:
    state, events = witch_duel("Lvl.4 Storytime Witch", "Lvl.1 Serpent")
    story = hand(state, 0)[1]
    assert hand(state, 0) == ["Lvl.1 Serpent {0}", story, "Lvl.1 Vampire {5}"]
    assert story in texts(events, 1) and story in texts(events, None)


def test_ondus_witch_reverses_last_turns_duel() -> None:
    state = start([["Lvl.3 Dragon", "Lvl.4 Ondu's Witch"], ["Lvl.1 Giant", "Lvl.1 Serpent"]])
    state, _ = duel(state, "Lvl.3 Dragon {7}", "Lvl.1 Giant {4}")
    assert hp(state) == [30, 26]
    state, _ = duel(state, "Lvl.4 Ondu's Witch {3}", "Lvl.1 Serpent {0}")
    assert hp(state) == [30, 30]
    assert "Lvl.3 Dragon {7}: (1)" in hand(state, 0) and "Lvl.1 Giant {4}: (1)" in hand(state, 1)
    assert discard(state) == ["Lvl.4 Ondu's Witch {3}"]
    assert GAME.legal(state, 0) == [{"kind": "play", "slot": i} for i, c in enumerate(hand(state, 0)) if "(1)" not in c]


def test_ondus_witch_on_the_first_turn_does_nothing() -> None:
    state, _ = witch_duel("Lvl.4 Ondu's Witch", "Lvl.1 Serpent")
    assert hp(state) == [30, 30] and discard(state) == ["Lvl.4 Ondu's Witch {3}"]


def test_the_coven_of_babel_shuffles_one_creature_per_tribe_from_each_hand() -> None:
    state, events = witch_duel("Lvl.4 The Coven of Babel", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Giant", GREEDY], ["Lvl.2 Pirate", "Lvl.3 Pirate"]])
    mine = hand(state, 0)  # kept: one Wolf and the witch; turn 2's draw comes from the reshuffled deck
    assert len(mine) == 3 and mine[1] == GREEDY + " {3}" and mine[0] in ("Lvl.1 Wolf {2}", "Lvl.2 Wolf {2}")
    theirs = hand(state, 1)  # kept: one Pirate; then the Serpent back from the fight and turn 2's draw
    assert len(theirs) == 3 and theirs[1] == "Lvl.1 Serpent {0}"
    assert theirs[0] in ("Lvl.2 Pirate {3}", "Lvl.3 Pirate {3}")
    assert len(state.deck) == 12 - 2 + 3 + 2 - 2
    shuffled = Counter(deck(state))
    assert shuffled["Lvl.3 Giant {4}"] == 1 and shuffled["Lvl.1 Skeleton {3}"] == 2  # the drawn Skeleton went back
    assert "Giant" not in texts(events, 1)


# == Strawman / Vegetable Mask / Sanctifying / Arnold Layne's =====================================


def test_strawman_witch_plants_a_scarecrow_that_ties_and_discards_both() -> None:
    state, events = witch_duel("Lvl.4 Strawman Witch", "Lvl.4 Nightmare Wolf", hands=[["Lvl.3 Dragon"], ["Lvl.2 Holy Giant"]],
                               deck=["Lvl.1 Serpent", GREEDY, *["Lvl.1 Pirate"] * 8])
    # the Giant became the Scarecrow; at the turn's end the held Scarecrow took a level from the Nightmare Wolf
    assert hand(state, 1) == ["Lvl.1 Greedy Witch {3}", "Lvl.1 Scarecrow {3}", "Lvl.3 Nightmare Wolf {2}", "Lvl.1 Pirate {3}"]
    assert "Holy Giant" not in texts(events, 0)
    assert "Nightmare Wolf {2} →" in texts(events, 1) and "Nightmare Wolf {2} →" not in texts(events, 0)
    state, _ = duel(state, "Lvl.3 Dragon {7}", "Lvl.1 Scarecrow {3}")
    assert hp(state) == [30, 30]
    assert discard(state)[-2:] == ["Lvl.3 Dragon {7}", "Lvl.1 Scarecrow {3}"]
    assert GAME.view(state, None)["last_duel"]["winner"] is None
    assert "Lvl.3 Nightmare Wolf {2}" in hand(state, 1)  # the Scarecrow was not held at turn 2's end


def test_vegetable_mask_witch_withers_in_hand_then_draws_two() -> None:
    state = start([["Lvl.2 Vegetable Mask Witch", "Lvl.2 Wolf", "Lvl.3 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]])
    state, events = duel(state, "Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}")
    assert hand(state, 0)[0] == "Lvl.1 Vegetable Mask Witch {3}"
    assert "Vegetable" not in texts(events, 1)
    state, _ = duel(state, "Lvl.3 Wolf {2}", "Lvl.2 Serpent {0}")
    assert "Lvl.0 Vegetable Mask Witch {3}" in discard(state)
    # turn 1's draw, turn 2's draw, 2 cards at level 0, turn 3's draw
    assert hand(state, 0) == ["Lvl.1 Serpent {0}", "Lvl.1 Vampire {5}", "Lvl.1 Dragon {7}", "Lvl.1 Giant {4}",
                              "Lvl.1 Serpent {0}"]


def test_vegetable_mask_witch_that_wins_discards_the_hand() -> None:
    state, _ = witch_duel("Lvl.4 Vegetable Mask Witch", "Lvl.1 Serpent", hands=[["Lvl.5 Dragon", GREEDY], []])
    assert hand(state, 0) == ["Lvl.1 Vampire {5}"]
    assert discard(state) == ["Lvl.4 Vegetable Mask Witch {3}", "Lvl.5 Dragon {7}", "Lvl.1 Greedy Witch {3}",
                              "Lvl.1 Serpent {0}"]


def test_sanctifying_witch_makes_nightmares_holy_and_holy_damage_double() -> None:
    state, events = witch_duel("Lvl.4 Sanctifying Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Nightmare Wolf"], ["Lvl.3 Nightmare Giant", "Lvl.1 Fire Giant"]])
    assert hand(state, 0)[0] == "Lvl.2 Holy Wolf {2}"
    assert hand(state, 1)[:2] == ["Lvl.3 Holy Giant {4}", "Lvl.1 Fire Giant {4}"]
    assert "Holy Giant" not in texts(events, 0) and "Holy Wolf" not in texts(events, 1)
    assert mods(state) == ["Sanctifying Witch: Holy creatures deal double damage to Empires."]
    state, _ = duel(state, "Lvl.2 Holy Wolf {2}", "Lvl.3 Holy Giant {4}")
    assert hp(state) == [26, 30]


def test_arnold_laynes_witch_swaps_a_creature_each_way() -> None:
    state, events = witch_duel("Lvl.4 Arnold Layne's Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Wolf"], ["Lvl.3 Fire Giant"]],
                               deck=[GREEDY, "Lvl.2 Blind Witch", *["Lvl.1 Pirate"] * 8])
    assert hand(state, 0) == ["Lvl.1 Greedy Witch {3}", "Lvl.5 Fire Giant {4}: (1)", "Lvl.1 Pirate {3}"]
    assert hand(state, 1) == ["Lvl.2 Blind Witch {3}", "Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.1 Pirate {3}"]
    public = texts(events, None)
    assert "Fire Giant" not in public and "Lvl.2 Wolf" not in public
    assert "Lvl.2 Wolf" in texts(events, 1) and "Fire Giant" in texts(events, 0)
    assert {"kind": "play", "slot": 1} not in GAME.legal(state, 0)


# == Emily's Hiding / Golden Veil / Dark Globe / Gnome ==========================================


def test_emilys_hiding_witch_asks_for_a_creature_whose_level_then_changes_each_turn() -> None:
    state, events = witch_duel("Lvl.4 Emily's Hiding Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Wolf", "Lvl.3 Giant"], []])
    question = GAME.view(state, 0)["question"]
    assert question["options"] == ["Lvl.2 Wolf {2}", "Lvl.3 Giant {4}", "Lvl.1 Serpent {0}"]
    assert "question" not in GAME.view(state, 1)
    assert "Giant" not in texts(events, 1)
    state, events = answer(state, 0, 1)
    assert mods(state) == ["Emily's Hiding Witch: a hiding creature takes a random level (1-6) at the start of each turn."]
    giant = [c for c in hand(state, 0) if "Giant" in c]
    assert giant == ["Lvl.4 Giant {4}"]  # turn 2 started: the seeded roll
    assert hand(state, 0)[0] == "Lvl.2 Wolf {2}" and "Giant" not in texts(events, 1)


def test_golden_veil_witch_gives_a_creature_of_the_missing_tribe() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Giant", *["Lvl.1 Pirate"] * 6]
    state, events = witch_duel("Lvl.4 Golden Veil Witch", "Lvl.1 Serpent", deck=deck,
                               hands=[["Lvl.1 Wolf", "Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Giant", "Lvl.1 Dragon"], []])
    vampires = [c for c in hand(state, 0) if "Vampire" in c]
    assert len(vampires) == 1 and len(hand(state, 0)) == 5 + 1 + 1 + 1
    assert "Vampire" not in texts(events, 1)


def test_dark_globe_witch_strips_the_power_types_of_both_hands() -> None:
    state, _ = witch_duel("Lvl.4 Dark Globe Witch", "Lvl.1 Ancient Serpent", hands=[["Lvl.2 Fire Wolf"], ["Lvl.3 Holy Giant"]])
    assert hand(state, 0)[0] == "Lvl.2 Wolf {2}"
    assert hand(state, 1)[0] == "Lvl.3 Giant {4}"
    assert "Lvl.1 Ancient Serpent {0}" in hand(state, 1)  # in play while the witch cast: not in a hand


def test_gnome_witch_scrambles_levels_and_types_within_the_hand() -> None:
    state, _ = witch_duel("Lvl.4 Gnome Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.2 Fire Wolf", "Lvl.5 Holy Giant", "Lvl.3 Ancient Dragon"], []])
    cards = [c for c in GAME.view(state, 0)["hands"][0]["cards"] if c["tribe"] != "Vampire"]
    assert [c["tribe"] for c in cards] == ["Wolf", "Giant", "Dragon", "Serpent"]
    assert sorted(c["level"] for c in cards) == [1, 2, 3, 5]
    assert Counter(c["type"] for c in cards) == Counter(["Fire", "Holy", "Ancient", None])
    assert [c["text"] for c in cards] == ["Lvl.5 Fire Wolf {2}", "Lvl.3 Ancient Giant {4}", "Lvl.2 Holy Dragon {7}",
                                          "Lvl.1 Serpent {0}"]


# == Jugband Opener / Encore / Stand-In ==========================================================


def test_jugband_opener_witch_adds_three_creatures_that_must_be_played_first() -> None:
    state, events = witch_duel("Lvl.4 Jugband Opener Witch", "Lvl.1 Serpent", hands=[["Lvl.6 Dragon"], ["Lvl.1 Wolf"]] )
    cards = hand(state, 0)
    assert cards[:2] == ["Lvl.6 Dragon {7}", "Lvl.1 Serpent {0}"] and cards[-1] == "Lvl.1 Vampire {5}"
    jug = cards[2:5]
    assert len(jug) == 3 and all(c not in texts(events, 1) for c in jug)
    assert GAME.legal(state, 0) == [{"kind": "play", "slot": i} for i in (2, 3, 4)]
    assert mods(state) == ["Jugband Opener Witch: Player 1 must play the Jugband creatures before any other card."]
    state, _ = duel(state, jug[0], "Lvl.1 Wolf {2}")
    rest = [hand(state, 0).index(c) for c in jug[1:]]
    assert GAME.legal(state, 0) == [{"kind": "play", "slot": i} for i in sorted(rest)]


def test_jugband_encore_witch_returns_the_discarded_card_after_three_wins() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.9 Giant", "Lvl.9 Vampire", "Lvl.9 Pirate", *fillers(10)]
    state, events = witch_duel("Lvl.4 Jugband Encore Witch", "Lvl.1 Serpent", deck=deck,
                               hands=[["Lvl.2 Wolf", "Lvl.6 Dragon"], ["Lvl.1 Wolf", "Lvl.2 Wolf"]])
    assert GAME.view(state, 0)["question"]["options"] == ["Lvl.2 Wolf {2}", "Lvl.6 Dragon {7}", "Lvl.1 Serpent {0}"]
    state, events = answer(state, 0, 1)
    assert "Lvl.6 Dragon {7}" in discard(state)
    assert hand(state, 0) == ["Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.9 Giant {4}", "Lvl.9 Vampire {5}",
                              "Lvl.9 Pirate {3}", "Lvl.1 Skeleton {3}"]
    assert "Lvl.9" not in texts(events, 1)
    state, _ = duel(state, "Lvl.9 Giant {4}", "Lvl.1 Serpent {0}")
    state, _ = duel(state, "Lvl.9 Vampire {5}", "Lvl.1 Wolf {2}")
    assert len(mods(state)) == 1 and "Lvl.13 Dragon {7}" not in hand(state, 0)
    state, events = duel(state, "Lvl.9 Pirate {3}", "Lvl.2 Wolf {2}")
    assert "Lvl.13 Dragon {7}" in hand(state, 0) and "Lvl.6 Dragon {7}" not in discard(state)
    assert "Lvl.13 Dragon {7}" in texts(events, 1)
    assert mods(state) == []


def test_jugband_encore_is_off_when_a_new_card_loses() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.1 Giant", "Lvl.9 Vampire", "Lvl.9 Pirate", *["Lvl.1 Wolf"] * 10]
    state, _ = witch_duel("Lvl.4 Jugband Encore Witch", "Lvl.1 Serpent", deck=deck, hands=[["Lvl.6 Dragon"], ["Lvl.5 Dragon"]])
    state, _ = answer(state, 0, 0)
    assert len(mods(state)) == 1
    state, _ = duel(state, "Lvl.1 Giant {4}", "Lvl.5 Dragon {7}")
    assert mods(state) == []


def test_jugband_stand_in_witch_makes_a_level_1_copy_that_draws_two_when_it_dies() -> None:
    state, _ = witch_duel("Lvl.4 Jugband Stand-In Witch", "Lvl.1 Serpent", deck=[GREEDY, *["Lvl.1 Pirate"] * 9],
                               hands=[["Lvl.4 Fire Giant"], ["Lvl.3 Dragon"]])
    assert hand(state, 0) == ["Lvl.1 Greedy Witch {3}", "Lvl.1 Fire Stand-In {4}", "Lvl.1 Pirate {3}"]
    assert discard(state) == ["Lvl.4 Fire Giant {4}", "Lvl.4 Jugband Stand-In Witch {3}"]
    state, _ = duel(state, "Lvl.1 Fire Stand-In {4}", "Lvl.3 Dragon {7}")
    assert hp(state) == [26, 30]
    assert len(hand(state, 0)) == 2 + 2 + 1  # two for the Stand-In's death, one for turn 3


# == Scientific / Overdrive / Straight / Madcap's ================================================


def test_scientific_witch_asks_for_a_creature_then_a_new_power_type() -> None:
    state, events = witch_duel("Lvl.4 Scientific Witch", "Lvl.1 Serpent", deck=[GREEDY, *["Lvl.1 Pirate"] * 9],
                               hands=[["Lvl.2 Fire Wolf", "Lvl.3 Holy Giant"], []])
    assert GAME.view(state, 0)["question"]["options"] == ["Lvl.2 Fire Wolf {2}", "Lvl.3 Holy Giant {4}"]
    state, _ = answer(state, 0, 1)
    assert GAME.view(state, 0)["question"]["options"] == ["Ancient", "Fire", "Nightmare"]
    assert GAME.view(state, None)["last_duel"] is None  # the duel waits for the second answer
    state, events = answer(state, 0, 2)
    assert hand(state, 0)[:2] == ["Lvl.2 Fire Wolf {2}", "Lvl.3 Nightmare Giant {4}"]
    assert "Nightmare Giant" not in texts(events, 1)
    assert GAME.view(state, None)["last_duel"]["turn"] == 1


def test_overdrive_witch_deals_the_latest_win_streak() -> None:
    state = start([["Lvl.3 Dragon", "Lvl.2 Giant", "Lvl.4 Overdrive Witch"],
                   ["Lvl.1 Serpent", "Lvl.2 Serpent", "Lvl.3 Serpent"]])
    state, _ = duel(state, "Lvl.3 Dragon {7}", "Lvl.1 Serpent {0}")
    state, _ = duel(state, "Lvl.2 Giant {4}", "Lvl.2 Serpent {0}")
    assert hp(state) == [30, 30]
    state, _ = duel(state, "Lvl.4 Overdrive Witch {3}", "Lvl.3 Serpent {0}")
    assert hp(state) == [30, 28]


def test_straight_witch_gives_a_straight_of_five_levels_three_more() -> None:
    state, events = witch_duel("Lvl.4 Straight Witch", "Lvl.1 Serpent", hands=[
        ["Lvl.2 Wolf", "Lvl.3 Giant", "Lvl.4 Pirate", "Lvl.5 Dragon", "Lvl.6 Vampire", "Lvl.3 Skeleton"], []])
    assert hand(state, 0) == ["Lvl.5 Wolf {2}", "Lvl.6 Giant {4}", "Lvl.7 Pirate {3}", "Lvl.8 Dragon {7}",
                              "Lvl.9 Vampire {5}", "Lvl.3 Skeleton {3}", "Lvl.4 Serpent {0}", "Lvl.1 Vampire {5}"]
    assert "Lvl.9 Vampire" not in texts(events, 1)


def test_straight_witch_needs_five_consecutive_levels() -> None:
    state, _ = witch_duel("Lvl.4 Straight Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Wolf", "Lvl.3 Giant", "Lvl.5 Dragon",
                                                                           "Lvl.6 Vampire"], []])
    assert hand(state, 0)[:4] == ["Lvl.2 Wolf {2}", "Lvl.3 Giant {4}", "Lvl.5 Dragon {7}", "Lvl.6 Vampire {5}"]


def test_the_madcaps_witch_redraws_one_more_and_discards_three_when_it_dies() -> None:
    state, events = witch_duel("Lvl.4 The Madcap's Witch", "Lvl.6 Dragon", hands=[["Lvl.2 Wolf", "Lvl.3 Giant"], []])
    assert hp(state) == [27, 30]
    # 3 cards shuffled in, 4 drawn, 3 discarded at random when the witch died, 1 drawn at turn 2
    assert len(hand(state, 0)) == 2
    assert len(discard(state)) == 4 and discard(state)[0] == "Lvl.4 The Madcap's Witch {3}"
    assert len(state.deck) == 12 - 2 + 3 - 4 - 2
    told = [e for e in seen_by(events, 1) if e["kind"] in ("shuffle", "draw") and e["seat"] == 0]
    assert len(told) == 1 + 4 + 1 and "Giant" not in str(told) and all("card" not in e for e in told)


# == Clockwork Crier / Crow-Laughing / Cracked Ceremony / No Good Trying / Cornfield ==============


def test_clockwork_crier_witch_prophecy_draws_and_doubles_damage_on_its_turn() -> None:
    state, _ = witch_duel("Lvl.4 Clockwork Crier Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Giant", "Lvl.1 Wolf"], ["Lvl.6 Dragon", "Lvl.5 Dragon"]])
    assert GAME.view(state, 0)["question"]["options"] == ["1", "2", "3"]
    state, _ = answer(state, 0, 1)
    assert mods(state, 1) == ["Clockwork Crier Witch: at the start of turn 3, Player 1 draws 2 card(s) and takes double "
                              "damage that turn."]
    assert len(hand(state, 0)) == 4
    state, _ = duel(state, "Lvl.1 Giant {4}", "Lvl.6 Dragon {7}")
    assert hp(state) == [26, 30]  # turn 2: normal damage
    assert len(hand(state, 0)) == 3 + 2 + 1  # turn 3: the prophecy's 2 cards and the normal draw
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.5 Dragon {7}")
    assert hp(state) == [22, 30]  # turn 3: doubled
    assert mods(state) == []


def test_crow_laughing_witch_weakens_an_enemy_creature_whenever_a_witch_escapes() -> None:
    state, events = witch_duel("Lvl.4 Crow-Laughing Witch", "Lvl.1 Blind Witch", hands=[[], ["Lvl.5 Giant"]],
                               deck=["Lvl.1 Serpent", GREEDY, *["Lvl.1 Pirate"] * 8])
    assert hp(state) == [30, 27]
    assert hand(state, 1)[:2] == ["Lvl.3 Giant {4}", "Lvl.1 Greedy Witch {3}"]
    assert "Giant" in texts(events, 1) and "Giant" not in texts(events, 0)
    assert mods(state) == ["Crow-Laughing Witch: whenever a witch escapes, a creature in Player 2's hand gets -2 levels."]


def test_cracked_ceremony_witch_makes_the_other_player_discard_for_every_witch_played() -> None:
    deck = ["Lvl.6 Dragon", "Lvl.2 Greedy Witch", "Lvl.1 Pirate", "Lvl.6 Dragon", *["Lvl.1 Pirate"] * 8]
    state, _ = witch_duel("Lvl.4 Cracked Ceremony Witch", "Lvl.1 Serpent", deck=deck,
                          hands=[["Lvl.6 Dragon"], ["Lvl.2 Greedy Witch"]])
    assert discard(state) == ["Lvl.2 Greedy Witch {3}", "Lvl.4 Cracked Ceremony Witch {3}"]
    assert hand(state, 1) == ["Lvl.2 Greedy Witch {3}", "Lvl.1 Serpent {0}", "Lvl.1 Pirate {3}"]
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.2 Greedy Witch {3}")
    assert discard(state)[2] == "Lvl.6 Dragon {7}"  # Player 1 discards when Player 2's witch is played
    assert hand(state, 0) == ["Lvl.6 Dragon {7}", "Lvl.6 Dragon {7}", "Lvl.1 Pirate {3}"]  # one kept, one back from the fight
    assert hp(state) == [30, 27]


def test_no_good_trying_witch_skips_the_next_turn_then_draws_three() -> None:
    state, _ = witch_duel("Lvl.4 No Good Trying Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Wolf"], ["Lvl.2 Giant"]])
    assert hand(state, 0) == ["Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}"]  # no draw on the skipped turn
    view = GAME.view(state, 0)
    assert view["legal"] == [] and view["passed"] == [True, False]
    state, _ = duel(state, None, "Lvl.2 Giant {4}")
    assert "Lvl.2 Giant {4}" in hand(state, 1) and hp(state) == [30, 30]
    # 3 at the skipped turn's end, then turn 3's draw
    assert hand(state, 0) == ["Lvl.2 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.1 Vampire {5}", "Lvl.1 Dragon {7}",
                              "Lvl.1 Giant {4}", "Lvl.1 Serpent {0}"]
    assert GAME.legal(state, 0) != [] and mods(state) == []


def test_cornfield_witch_allows_only_witches_and_grows_creatures_while_held() -> None:
    state = start([["Lvl.4 Cornfield Witch", "Lvl.2 Wolf", GREEDY], ["Lvl.1 Serpent", "Lvl.2 Serpent"]])
    assert GAME.legal(state, 0) == [{"kind": "play", "slot": 0}, {"kind": "play", "slot": 2}]
    state, events = duel(state, "Lvl.1 Greedy Witch {3}", "Lvl.1 Serpent {0}")
    assert "Cornfield" not in texts(events, 1)
    wolf_and_co = hand(state, 0)
    assert wolf_and_co[:2] == ["Lvl.4 Cornfield Witch {3}", "Lvl.3 Wolf {2}"]
    state, _ = duel(state, "Lvl.4 Cornfield Witch {3}", "Lvl.2 Serpent {0}")
    assert "Lvl.3 Wolf {2}" in hand(state, 0)  # no more growth once it is played
    assert GAME.legal(state, 0) == [{"kind": "play", "slot": i} for i in range(len(hand(state, 0)))]

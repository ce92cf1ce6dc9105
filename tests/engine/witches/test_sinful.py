"""One test per Sinful witch: set up a position, play the witch, check the effect."""
from __future__ import annotations

import pytest

from engine.creature_wars.cards import Card
from engine.creature_wars.table import Table
from engine.creature_wars.witch_catalogue import by_name
from engine.errors import IllegalDecision
from engine.interface import Event
from tests.engine.scenario import duel
from tests.engine.witches.helpers import GAME, answer, hand, hp, play, seen_by, start, witch_duel


def test_witch_of_wrath_adds_three_to_every_lost_duel() -> None:
    state, _ = witch_duel("Lvl.7 Witch of Wrath", "Lvl.1 Serpent",
                          hands=[["Lvl.3 Dragon"], ["Lvl.1 Giant"]])
    assert hp(state) == [30, 30]  # the witch (power 10) beat the Serpent: no damage
    assert [m["text"] for m in GAME.view(state, 1)["modifiers"]] == [
        "Witch of Wrath: whoever loses a duel takes 3 more damage."]
    state, _ = duel(state, "Lvl.3 Dragon {7}", "Lvl.1 Giant {4}")
    assert hp(state) == [30, 30 - 4 - 3]
    assert "Lvl.1 Serpent {0}" in hand(state, 1)


def _texts(events: list[Event], seat: int | None) -> str:
    """Everything ``seat`` is told of ``events``, as one string."""
    return repr(seen_by(events, seat))


def test_cataclysmic_witch_removes_the_top_half_of_the_deck_rounded_up() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.2 Pirate", "Lvl.3 Pirate", "Lvl.4 Pirate", "Lvl.5 Pirate",
            "Lvl.2 Giant", "Lvl.3 Giant", "Lvl.4 Giant"]
    state, events = witch_duel("Lvl.7 Cataclysmic Witch", "Lvl.1 Serpent", deck=deck)
    # turn 1 drew 2 of 9; the witch destroys 4 of the 7 left; turn 2 draws the next two (seat 1 first)
    assert [c.notation() for c in state.removed] == ["Lvl.2 Pirate {3}", "Lvl.3 Pirate {3}", "Lvl.4 Pirate {3}",
                                                      "Lvl.5 Pirate {3}"]
    assert hand(state, 1)[-1] == "Lvl.2 Giant {4}" and hand(state, 0)[-1] == "Lvl.3 Giant {4}"
    assert GAME.view(state, None)["deck"] == 1
    assert "Pirate" not in _texts(events, 0) + _texts(events, 1)


def test_giantfall_witch_needs_three_giants() -> None:
    state, _ = witch_duel("Lvl.8 Giantfall Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.2 Giant", "Lvl.3 Fire Giant", "Lvl.6 Giant", "Lvl.2 Wolf"], []])
    assert hp(state) == [30, 20]
    assert [c["text"] for c in GAME.view(state, None)["discard"]][:3] == [
        "Lvl.2 Giant {4}", "Lvl.3 Fire Giant {4}", "Lvl.6 Giant {4}"]
    assert not any("Giant" in text for text in hand(state, 0)[:1]) and hand(state, 0)[0] == "Lvl.2 Wolf {2}"
    state, _ = witch_duel("Lvl.8 Giantfall Witch", "Lvl.1 Serpent", hands=[["Lvl.2 Giant", "Lvl.3 Giant"], []])
    assert hp(state) == [30, 30] and hand(state, 0)[:2] == ["Lvl.2 Giant {4}", "Lvl.3 Giant {4}"]


def test_dragon_conclave_witch_destroys_the_enemy_with_four_dragon_types() -> None:
    dragons = ["Lvl.1 Ancient Dragon", "Lvl.2 Fire Dragon", "Lvl.3 Nightmare Dragon", "Lvl.4 Holy Dragon"]
    state, _ = witch_duel("Lvl.9 Dragon Conclave Witch", "Lvl.1 Serpent", hands=[dragons, []])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0
    state, _ = witch_duel("Lvl.9 Dragon Conclave Witch", "Lvl.1 Serpent", hands=[[*dragons[:3], "Lvl.4 Dragon"], []])
    assert GAME.outcome(state) is None


def test_witch_of_endor_levels_the_enemy_hand_after_three_more_turns() -> None:
    state, _ = witch_duel("Lvl.7 Witch of Endor", "Lvl.1 Serpent",
                          hands=[[], ["Lvl.5 Vampire", "Lvl.4 Fire Giant", "Lvl.3 Wolf"]])
    assert [m["text"] for m in GAME.view(state, 1)["modifiers"]] == [
        "Witch of Endor: at the end of turn 4, every card in Player 2's hand becomes level 1."]
    for _turn in (2, 3):
        state, _ = duel(state, hand(state, 0)[-1], hand(state, 1)[-1])
    assert hand(state, 1)[:3] == ["Lvl.5 Vampire {5}", "Lvl.4 Fire Giant {4}", "Lvl.3 Wolf {2}"]
    state, events = duel(state, hand(state, 0)[-1], hand(state, 1)[-1])
    assert hand(state, 1)[:3] == ["Lvl.1 Vampire {5}", "Lvl.1 Fire Giant {4}", "Lvl.1 Wolf {2}"]
    assert "Lvl.5 Vampire" in _texts(events, 1)
    assert "Lvl.5 Vampire" not in _texts(events, 0) and "Lvl.5 Vampire" not in _texts(events, None)
    assert GAME.view(state, 0)["modifiers"] == []


def test_feral_witch_discards_enemy_wolves_for_their_levels() -> None:
    state, _ = witch_duel("Lvl.7 Feral Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.4 Wolf"], ["Lvl.3 Wolf", "Lvl.2 Giant", "Lvl.5 Holy Wolf"]])
    assert hp(state) == [30, 22]
    assert [c["text"] for c in GAME.view(state, None)["discard"]] == ["Lvl.3 Wolf {2}", "Lvl.5 Holy Wolf {2}",
                                                                       "Lvl.7 Feral Witch {3}"]
    assert hand(state, 1) == ["Lvl.2 Giant {4}", "Lvl.1 Skeleton {3}", "Lvl.1 Serpent {0}", "Lvl.1 Pirate {3}"]
    assert hand(state, 0)[0] == "Lvl.4 Wolf {2}"  # the caster's own Wolves are untouched


def test_witch_of_the_ancients_call_takes_enemy_ancients() -> None:
    state, events = witch_duel("Lvl.8 Witch of the Ancients' Call", "Lvl.1 Ancient Serpent",
                               hands=[["Lvl.1 Wolf"], ["Lvl.3 Ancient Wolf", "Lvl.4 Fire Giant", "Lvl.2 Ancient Dragon"]])
    assert hand(state, 0)[:4] == ["Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.3 Ancient Wolf {2}",
                                  "Lvl.2 Ancient Dragon {7}"]
    # the played Ancient Serpent was not in the hand: it fought the witch and came back
    assert hand(state, 1)[:3] == ["Lvl.4 Fire Giant {4}", "Lvl.1 Skeleton {3}", "Lvl.1 Ancient Serpent {0}"]
    assert "Lvl.2 Ancient Dragon" in _texts(events, 0) and "Lvl.2 Ancient Dragon" in _texts(events, 1)
    assert "Lvl.2 Ancient Dragon" not in _texts(events, None)


def test_skeletors_personal_witch_and_skeletors_illusion() -> None:
    state, _ = witch_duel("Lvl.7 Skeletor's Personal Witch", "Lvl.1 Serpent")  # the fillers hold Skeletons
    assert not any("Skeletor" in text for text in hand(state, 0))
    deck = ["Lvl.1 Serpent", "Lvl.1 Pirate", "Lvl.2 Pirate", "Lvl.3 Pirate", "Lvl.4 Pirate", "Lvl.5 Pirate"]
    state, _ = witch_duel("Lvl.7 Skeletor's Personal Witch", "Lvl.1 Serpent", deck=deck,
                          hands=[["Lvl.2 Skeleton"], ["Lvl.9 Holy Dragon"]])
    assert "Lvl.9 Ancient Skeletor {7}" in hand(state, 0)
    # Skeletor (7 + 9 = 16) loses to the Holy Dragon (7 + 9 + 3 = 19): the Skeleton takes his place before damage
    state, events = duel(state, "Lvl.9 Ancient Skeletor {7}", "Lvl.9 Holy Dragon {7}")
    assert hp(state) == [27, 30]
    assert "Lvl.9 Ancient Skeletor {7}" in hand(state, 0) and "Lvl.2 Skeleton {3}" not in hand(state, 0)
    assert GAME.view(state, None)["last_duel"]["cards"][0]["text"] == "Lvl.2 Skeleton {3}"
    assert "Lvl.2 Skeleton {3}" in [c["text"] for c in GAME.view(state, None)["discard"]]
    assert "It was an illusion!" in _texts(events, 1)


def test_the_beasts_witch_needs_six_level_six_creatures() -> None:
    beasts = ["Lvl.6 Serpent", "Lvl.6 Wolf", "Lvl.6 Skeleton", "Lvl.6 Pirate", "Lvl.6 Giant", "Lvl.6 Vampire"]
    state, _ = witch_duel("Lvl.9 The Beast's Witch", "Lvl.1 Serpent", hands=[beasts, []])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0
    state, _ = witch_duel("Lvl.9 The Beast's Witch", "Lvl.1 Serpent", hands=[[*beasts[:5], "Lvl.7 Vampire"], []])
    assert GAME.outcome(state) is None


def test_apocalypse_witch_horsemen_strike_whoever_draws_them() -> None:
    serpents = ["Lvl.1 Serpent"] * 6
    state, all_events = witch_duel("Lvl.8 Apocalypse Witch", "Lvl.1 Serpent", hands=[serpents, serpents],
                                   deck=["Lvl.2 Serpent"] * 4)
    horsemen = [c for c in state.deck if c.token == "Horseman"]
    assert len(horsemen) + len([c for c in state.removed if c.token == "Horseman"]) == 4
    struck = [0, 0]
    while GAME.outcome(state) is None:  # serpents deal no damage: only Horsemen hurt
        for seat in (0, 1):
            legal = GAME.legal(state, seat)
            if legal:
                state, events = GAME.apply(state, seat, legal[0])
                all_events.extend(events)
    for event in all_events:
        if event.kind == "horseman":
            struck[event.public["seat"]] += 1
    assert sum(struck) == 4 and [c.token for c in state.removed].count("Horseman") == 4
    assert hp(state) == [30 - 5 * struck[0], 30 - 5 * struck[1]]
    assert not any(c.token == "Horseman" for c in (*state.hands[0], *state.hands[1], *state.deck))


def test_a_horseman_cannot_be_played_and_strikes_from_a_hand() -> None:
    state = start([["Lvl.1 Serpent"], ["Lvl.1 Serpent"]])
    table = Table(state)
    horseman = table.new_token("Horseman", 9, 5)
    table.hands[0].append(horseman)
    assert table.playable_reason(0, horseman) == "is a Horseman of the Apocalypse and cannot be played"
    table.end_turn()
    assert table.hp == [25, 30] and table.hands[0] == list(state.hands[0]) and table.removed == [horseman]


def test_liliths_witch_forbids_level_six_and_up() -> None:
    state, _ = witch_duel("Lvl.7 Lilith's Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Dragon", "Lvl.2 Wolf", "Lvl.8 Witch of Wrath"], ["Lvl.7 Giant"]])
    playable = [hand(state, 0)[d["slot"]] for d in GAME.legal(state, 0)]
    assert "Lvl.2 Wolf {2}" in playable
    assert "Lvl.6 Dragon {7}" not in playable and "Lvl.8 Witch of Wrath {3}" not in playable
    assert "Lvl.7 Giant {4}" not in [hand(state, 1)[d["slot"]] for d in GAME.legal(state, 1)]
    with pytest.raises(IllegalDecision, match="Lilith"):
        play(state, 0, "Lvl.6 Dragon {7}")


def test_cannibalistic_witch_eats_what_its_caster_beats() -> None:
    state, _ = witch_duel("Lvl.7 Cannibalistic Witch", "Lvl.2 Giant",
                          hands=[["Lvl.5 Vampire", "Lvl.1 Wolf"], ["Lvl.1 Wolf", "Lvl.6 Giant"]])
    # the witch (power 10) beat the Giant (6): the Giant is eaten instead of going back to hand
    assert hp(state) == [34, 30]
    assert "Lvl.2 Giant {4}" not in hand(state, 1) and state.removed[-1].notation() == "Lvl.2 Giant {4}"
    state, _ = duel(state, "Lvl.5 Vampire {5}", "Lvl.1 Wolf {2}")
    assert hp(state) == [34 + 2, 30 - 2]
    assert "Lvl.1 Wolf {2}" not in [c["text"] for c in GAME.view(state, None)["discard"]]
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.6 Giant {4}")  # the caster loses: nothing is eaten
    assert hp(state) == [36 - 2, 28]
    assert "Lvl.6 Giant {4}" in [c["text"] for c in GAME.view(state, None)["discard"]]


def test_richard_witchson_bans_every_witch() -> None:
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.2 Kind Witch", "Lvl.1 Pirate", "Lvl.1 Giant", "Lvl.6 Sun Witch"]
    state, events = witch_duel("Lvl.9 Richard Witchson", "Lvl.1 Serpent", deck=deck,
                               hands=[["Lvl.2 Greedy Witch", "Lvl.3 Wolf"], ["Lvl.1 Blind Witch", "Lvl.2 Wolf"]])
    # the two deck witches are gone, so turn 2 draws the Pirate (seat 1 first) and the Giant
    assert hand(state, 0) == ["Lvl.3 Wolf {2}", "Lvl.1 Serpent {0}", "Lvl.1 Giant {4}"]
    assert hand(state, 1) == ["Lvl.2 Wolf {2}", "Lvl.1 Skeleton {3}", "Lvl.1 Serpent {0}", "Lvl.1 Pirate {3}"]
    assert GAME.view(state, None)["deck"] == 0
    assert sorted(c.notation() for c in state.removed) == [
        "Lvl.1 Blind Witch {3}", "Lvl.2 Greedy Witch {3}", "Lvl.2 Kind Witch {3}", "Lvl.6 Sun Witch {3}"]
    assert dict(state.counters)["witches_banned"] == 1
    assert "Blind Witch" in _texts(events, 1) and "Blind Witch" not in _texts(events, 0)
    assert "Kind Witch" not in _texts(events, 0) + _texts(events, 1)
    # a witch that turns up in a hand later (say, switched back by Baden's Witch) cannot be played and is removed
    table = Table(state)
    assert table.new_witch(by_name("Blind Witch")) is None and table.random_witch() is None
    straggler = Card.new_witch(table.uid(), "Blind Witch", 2)
    table.hands[1].append(straggler)
    assert table.playable_reason(1, straggler) == "is a witch, and witches are banned (Richard Witchson)"
    table.end_turn()
    assert straggler not in table.hands[1] and table.removed[-1] == straggler


def test_the_witch_who_stole_grinch_and_his_sack() -> None:
    state, _ = witch_duel("Lvl.8 The Witch Who Stole Grinch", "Lvl.1 Serpent")
    question = GAME.view(state, 0)["question"]
    assert question["options"] == ["Keep Grinch yourself", "Give Grinch to Player 2"]
    state, events = answer(state, 0, 1)
    # turn 2: seat 1 holds Grinch, so its draw (Lvl.1 Pirate) goes into the sack; seat 0 draws normally
    assert hand(state, 1) == ["Lvl.1 Skeleton {3}", "Lvl.6 Grinch {5}", "Lvl.1 Serpent {0}"]
    assert hand(state, 0)[-1] == "Lvl.1 Vampire {5}"
    assert [c.notation() for c in state.sacks[1]] == ["Lvl.1 Pirate {3}"]
    assert "Lvl.1 Pirate" in _texts(events, 1) and "Lvl.1 Pirate" not in _texts(events, 0)
    state, _ = duel(state, "Lvl.1 Vampire {5}", "Lvl.6 Grinch {5}")
    assert hp(state) == [25, 30]  # Grinch (11) beat the Vampire (6)
    assert state.sacks[1] == () and "Lvl.1 Pirate {3}" in hand(state, 1)
    assert hand(state, 1)[-1] == "Lvl.1 Giant {4}"  # turn 3's draw enters the hand: Grinch has gone


def test_the_witch_of_tantalus_hurts_the_opponent_per_draw() -> None:
    state, _ = witch_duel("Lvl.7 The Witch of Tantalus", "Lvl.1 Serpent",
                          hands=[["Lvl.8 The Witch Who Stole Grinch"], []])
    assert hp(state) == [30, 29]  # turn 2: one card each; only the opponent thirsts
    # turn 2: Grinch goes to Player 2; turn 3: their draw goes into his sack, and still costs them 1
    state, _ = duel(state, "Lvl.8 The Witch Who Stole Grinch {3}", "Lvl.1 Serpent {0}")
    state, _ = answer(state, 0, 1)
    assert len(state.sacks[1]) == 1 and hp(state) == [30, 28]


def test_badens_witch_switches_in_the_strongest_creature_once() -> None:
    state, _ = witch_duel("Lvl.7 Baden's Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.1 Wolf", "Lvl.6 Ancient Vampire", "Lvl.2 Pirate"],
                                 ["Lvl.3 Holy Giant", "Lvl.6 Dragon"]])
    # the Wolf (3) would lose to the Holy Giant (7); the Ancient Vampire (11) fights instead: Holy beats
    # Ancient, so the Giant now has 4 + 3 + 3 = 10
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.3 Holy Giant {4}")
    last = GAME.view(state, None)["last_duel"]
    assert [c["text"] for c in last["cards"]] == ["Lvl.6 Ancient Vampire {5}", "Lvl.3 Holy Giant {4}"]
    assert last["powers"] == [11, 10] and last["winner"] == 0
    assert hp(state) == [30, 26]
    assert "Lvl.1 Wolf {2}" in hand(state, 0) and "Lvl.6 Ancient Vampire {5}" not in hand(state, 0)
    assert GAME.view(state, 0)["modifiers"] == []
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.6 Dragon {7}")  # used up: this loss stands
    assert hp(state) == [28, 26] and "Lvl.2 Pirate {3}" in hand(state, 0)


def test_deathless_witch_nobody_loses_until_mayhem() -> None:
    dragons = ["Lvl.1 Ancient Dragon", "Lvl.2 Fire Dragon", "Lvl.3 Nightmare Dragon", "Lvl.4 Holy Dragon"]
    state, _ = witch_duel("Lvl.7 Deathless Witch", "Lvl.1 Serpent", hp=5, deck=["Lvl.1 Serpent"] * 6,
                          hands=[["Lvl.9 Dragon Conclave Witch", "Lvl.6 Vampire", *dragons], ["Lvl.1 Dragon"]])
    state, events = duel(state, "Lvl.9 Dragon Conclave Witch {3}", "Lvl.1 Serpent {0}")
    assert GAME.outcome(state) is None and "cannot lose yet" in _texts(events, None)
    state, _ = duel(state, "Lvl.6 Vampire {5}", "Lvl.1 Dragon {7}")
    assert hp(state) == [5, -2] and GAME.outcome(state) is None
    state, _ = duel(state, "Lvl.3 Ancient Dragon! {7}", hand(state, 1)[-1])  # the final duel, then MAYHEM
    outcome = GAME.outcome(state)
    # MAYHEM: the three Dragons left in hand cost Player 1 21 HP; Player 2 holds only Serpents
    assert outcome is not None and outcome.reason.value == "mayhem" and outcome.winner == 1
    assert hp(state) == [5 - 21, -2]

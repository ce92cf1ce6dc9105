"""One test (at least) per Sacred witch of part a: set up a position, play the witch, check the effect."""
from __future__ import annotations

import json
from typing import Any

from engine.creature_wars.state import State
from engine.interface import Event
from tests.engine.scenario import duel
from tests.engine.witches.helpers import GAME, answer, hand, hp, seen_by, start, witch_duel

# -- helpers --------------------------------------------------------------------------------

DECK = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Giant"] * 4
"""Typeless cards that never rally in a few turns: seat 0 draws Skeleton (turn 1), Giant (turn 2), Skeleton ...;
seat 1 draws Vampire (turn 1), Dragon (turn 2), Vampire ..."""


def discard(state: State) -> list[str]:
    return [c["text"] for c in GAME.view(state, None)["discard"]]


def cards(state: State, seat: int) -> list[dict[str, Any]]:
    shown: list[dict[str, Any]] = GAME.view(state, seat)["hands"][seat]["cards"]
    return shown


def told(events: list[Event], seat: int | None) -> str:
    """Everything ``seat`` (None: a spectator) is told of ``events``, as one string."""
    return json.dumps(seen_by(events, seat), ensure_ascii=False)


def modifiers(state: State, seat: int | None = None) -> list[str]:
    return [m["text"] for m in GAME.view(state, seat)["modifiers"]]


def last_duel(state: State) -> dict[str, Any]:
    record: dict[str, Any] = GAME.view(state, None)["last_duel"]
    return record


# -- the witches ----------------------------------------------------------------------------


def test_witch_of_despair_discards_both_hands() -> None:
    state, events = witch_duel("Lvl.4 Witch of Despair", "Lvl.1 Serpent",
                               hands=[["Lvl.3 Giant", "Lvl.2 Wolf"], ["Lvl.5 Dragon"]], deck=DECK)
    assert discard(state) == ["Lvl.3 Giant {4}", "Lvl.2 Wolf {2}", "Lvl.1 Skeleton {3}", "Lvl.5 Dragon {7}",
                              "Lvl.1 Vampire {5}", "Lvl.4 Witch of Despair {3}"]
    # the Serpent was in play, not in hand: it fought the witch and came back; then turn 2's draws
    assert hand(state, 0) == ["Lvl.1 Giant {4}"]
    assert hand(state, 1) == ["Lvl.1 Serpent {0}", "Lvl.1 Dragon {7}"]
    assert hp(state) == [30, 30]
    assert "Lvl.5 Dragon {7}" in told(events, 0)  # a discard is face up


def test_witch_of_the_hesperus_drowns_all_pirates() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.4 Holy Pirate", "Lvl.1 Giant", *DECK]
    state, events = witch_duel("Lvl.4 Witch of the Hesperus", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Fire Pirate", "Lvl.1 Giant"], ["Lvl.3 Holy Pirate"]], deck=deck)
    assert hand(state, 0) == ["Lvl.7 Phantom {1}", "Lvl.1 Giant {4}", "Lvl.1 Skeleton {3}", "Lvl.1 Giant {4}"]
    # the Pirate in the deck was drowned too: seat 1 draws it as a Phantom on turn 2
    assert hand(state, 1) == ["Lvl.8 Phantom {1}", "Lvl.1 Vampire {5}", "Lvl.1 Serpent {0}", "Lvl.9 Phantom {1}"]
    phantom = cards(state, 1)[0]
    assert phantom["type"] is None and phantom["tribe"] is None and phantom["base"] == 1
    assert "Lvl.3 Holy Pirate" not in told(events, 0) and "Lvl.8 Phantom" not in told(events, 0)
    assert "Lvl.2 Fire Pirate" not in told(events, 1) and "Lvl.7 Phantom" not in told(events, 1)
    assert "Lvl.7 Phantom {1}" in told(events, 0)


def test_phantoms_are_a_kin_of_their_own() -> None:
    """Two Phantoms duel: a Tribal Clash (the winner draws)."""
    state = start([["Lvl.4 Witch of the Hesperus", "Lvl.1 Pirate"], ["Lvl.1 Serpent", "Lvl.2 Pirate"]], deck=DECK)
    state, _ = duel(state, "Lvl.4 Witch of the Hesperus {3}", "Lvl.1 Serpent {0}")
    state, events = duel(state, "Lvl.6 Phantom {1}", "Lvl.7 Phantom {1}")
    assert [e.public["seat"] for e in events if e.kind == "tribal_clash"] == [1]
    assert hp(state) == [29, 30]


def test_vengeful_witch_gains_a_butterfly_when_it_dies() -> None:
    state, events = witch_duel("Lvl.4 Vengeful Witch", "Lvl.6 Dragon", deck=DECK)
    assert last_duel(state)["winner"] == 1 and hp(state) == [27, 30]
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.6 Ancient Primordial Butterfly {5}", "Lvl.1 Giant {4}"]
    assert cards(state, 0)[1]["tribe"] is None
    assert "Lvl.6 Ancient Primordial Butterfly {5}" in told(events, 1)  # a known card: shown to both


def test_vengeful_witch_gains_nothing_when_it_escapes() -> None:
    state, _ = witch_duel("Lvl.4 Vengeful Witch", "Lvl.1 Serpent", deck=DECK)
    assert hand(state, 0) == ["Lvl.1 Skeleton {3}", "Lvl.1 Giant {4}"]


def test_moon_charm_witch_turns_all_wolves_into_werewolves() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.5 Fire Wolf", "Lvl.1 Giant", *DECK]
    state, events = witch_duel("Lvl.5 Moon Charm Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Holy Wolf"], ["Lvl.3 Ancient Wolf", "Lvl.4 Giant"]], deck=deck)
    assert hand(state, 0) == ["Lvl.2 Nightmare Werewolf {8}", "Lvl.1 Skeleton {3}", "Lvl.1 Giant {4}"]
    assert hand(state, 1) == ["Lvl.3 Nightmare Werewolf {8}", "Lvl.4 Giant {4}", "Lvl.1 Vampire {5}",
                              "Lvl.1 Serpent {0}", "Lvl.5 Nightmare Werewolf {8}"]
    assert cards(state, 1)[0]["tribe"] == "Wolf"  # still of the Wolf Tribe
    assert "Lvl.3 Ancient Wolf" not in told(events, 0) and "Lvl.2 Holy Wolf" not in told(events, 1)


def test_prophetic_witch_shows_the_enemy_hand_to_its_caster_only() -> None:
    _, events = witch_duel("Lvl.4 Prophetic Witch", "Lvl.1 Serpent",
                               hands=[[], ["Lvl.3 Fire Giant", "Lvl.2 Blind Witch"]], deck=DECK)
    seen = [e for e in seen_by(events, 0) if e.get("cards") and e["kind"] == "secret"]
    assert seen[0]["cards"] == ["Lvl.3 Fire Giant {4}", "Lvl.2 Blind Witch {3}", "Lvl.1 Vampire {5}"]
    assert "Lvl.3 Fire Giant" not in told(events, None)
    assert all(e.get("kind") != "secret" for e in seen_by(events, 1))


def test_shifting_witch_fights_as_a_copy() -> None:
    """A Lvl.5 witch (power 8) would lose to a Lvl.6 Fire Dragon (13); as a copy it ties and flees."""
    state, _ = witch_duel("Lvl.5 Shifting Witch", "Lvl.6 Fire Dragon", deck=DECK)
    record = last_duel(state)
    assert record["powers"] == [13, 13] and record["winner"] == 0 and record["damage"] == [0, 0]
    assert hp(state) == [30, 30]
    assert discard(state) == ["Lvl.5 Shifting Witch {3}"]  # the witch is itself again in the discard
    assert "Lvl.6 Fire Dragon {7}" in hand(state, 1)


def test_shifting_witch_copy_of_a_witch() -> None:
    state, _ = witch_duel("Lvl.4 Shifting Witch", "Lvl.6 Gluttonous Witch", deck=DECK)
    record = last_duel(state)
    assert record["powers"] == [9, 9] and record["winner"] is None
    assert hp(state) == [50, 50]  # the Gluttonous Witch cast; the Shifting Witch casts nothing more


def test_democratic_witch_disbands_enemy_rallies_for_good() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.2 Wolf", "Lvl.1 Giant", *DECK]
    state = start([["Lvl.4 Democratic Witch", "Lvl.1 Wolf", "Lvl.1 Wolf", "Lvl.1 Wolf"],
                   ["Lvl.1 Serpent", "Lvl.1 Wolf", "Lvl.2 Wolf", "Lvl.3 Wolf", "Lvl.4 Wolf"]], deck=deck)
    assert hand(state, 1)[1:5] == ["Lvl.3 Wolf! {2}", "Lvl.4 Wolf! {2}", "Lvl.5 Wolf! {2}", "Lvl.6 Wolf! {2}"]
    state, events = duel(state, "Lvl.4 Democratic Witch {3}", "Lvl.1 Serpent {0}")
    # the four lose their +2 and cannot rally again, even with the Lvl.2 Wolf drawn on turn 2
    assert hand(state, 1) == ["Lvl.1 Wolf {2}", "Lvl.2 Wolf {2}", "Lvl.3 Wolf {2}", "Lvl.4 Wolf {2}",
                              "Lvl.1 Vampire {5}", "Lvl.1 Serpent {0}", "Lvl.2 Wolf {2}"]
    assert hand(state, 0)[:3] == ["Lvl.1 Wolf {2}"] * 3  # the caster's own Wolves are untouched (no rally yet)
    assert "disbanded" in told(events, 0) and "→ Lvl.1" not in told(events, 0)
    assert "Lvl.3 Wolf! {2} → Lvl.1" in told(events, 1)


def test_scary_witch_turns_enemy_creatures_nightmare_and_discards_holy_ones() -> None:
    state, events = witch_duel("Lvl.4 Scary Witch", "Lvl.1 Skeleton",
                               hands=[["Lvl.2 Fire Giant"], ["Lvl.2 Holy Giant", "Lvl.3 Fire Vampire", "Lvl.2 Wolf"]],
                               deck=DECK)
    assert hand(state, 1) == ["Lvl.3 Nightmare Vampire {5}", "Lvl.2 Wolf {2}", "Lvl.1 Vampire {5}",
                              "Lvl.1 Skeleton {3}", "Lvl.1 Dragon {7}"]
    assert "Lvl.2 Holy Giant {4}" in discard(state)
    assert hand(state, 0)[0] == "Lvl.2 Fire Giant {4}"  # the caster's hand is untouched
    assert "Lvl.3 Fire Vampire" not in told(events, 0) and "Lvl.3 Nightmare Vampire" not in told(events, 0)


def test_frost_witch_removes_fire_creatures_from_both_hands() -> None:
    state, events = witch_duel("Lvl.4 Frost Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Fire Giant", "Lvl.2 Holy Giant"], ["Lvl.4 Fire Dragon", "Lvl.1 Fire Wolf",
                                                                                 "Lvl.1 Holy Wolf"]], deck=DECK)
    assert hand(state, 0) == ["Lvl.2 Holy Giant {4}", "Lvl.1 Skeleton {3}", "Lvl.1 Giant {4}"]
    assert hand(state, 1) == ["Lvl.1 Holy Wolf {2}", "Lvl.1 Vampire {5}", "Lvl.1 Serpent {0}", "Lvl.1 Dragon {7}"]
    assert sorted(c.notation() for c in state.removed) == ["Lvl.1 Fire Wolf {2}", "Lvl.2 Fire Giant {4}",
                                                           "Lvl.4 Fire Dragon {7}"]
    assert discard(state) == ["Lvl.4 Frost Witch {3}"]
    assert "Lvl.4 Fire Dragon" not in told(events, 0) and "Lvl.2 Fire Giant" not in told(events, 1)
    assert "Lvl.4 Fire Dragon" in told(events, 1)


def test_hectic_witch_shuffles_fifteen_witches_into_the_deck() -> None:
    state, _ = witch_duel("Lvl.4 Hectic Witch", "Lvl.1 Serpent", deck=DECK)
    assert GAME.view(state, None)["deck"] == len(DECK) - 4 + 15
    made = len(DECK) + 2  # uids of the made cards start after the deck and the two hands
    new_witches = [c for c in [*state.deck, *state.hands[0], *state.hands[1]] if c.uid >= made]
    assert len(new_witches) == 15 and all(c.is_witch for c in new_witches)


def test_wicked_witch_ring_and_its_passing() -> None:
    deck = ["Lvl.1 Giant", "Lvl.1 Vampire", *DECK]
    state = start([["Lvl.4 Wicked Witch", "Lvl.1 Giant"], ["Lvl.1 Serpent", "Lvl.6 Dragon"]], deck=deck)
    state, events = duel(state, "Lvl.4 Wicked Witch {3}", "Lvl.1 Serpent {0}")
    assert sorted(hand(state, 0)) == ["Lvl.1 Giant {4}", "Lvl.1 Vampire {5}", "Lvl.3 Giant {4}"]
    assert any("enchanted ring" in m for m in modifiers(state, 1))
    assert "now Lvl.3" not in told(events, 1) and "Your Lvl.1 Giant {4} receives the enchanted ring: now Lvl.3" in told(events, 0)
    levels_before = sum(c["level"] for c in cards(state, 1))
    # the ringed Giant (power 7) loses to the Dragon (13): the ring goes to a card in seat 1's hand
    state, events = duel(state, "Lvl.3 Giant {4}", "Lvl.6 Dragon {7}")
    assert hp(state) == [26, 30]
    assert discard(state)[-2:] == ["Lvl.1 Giant {4}", "Lvl.6 Dragon {7}"]  # the ring's +2 left with the ring
    drawn_level = 1  # seat 1 draws a Lvl.1 card on turn 3
    assert sum(c["level"] for c in cards(state, 1)) == levels_before - 6 + 2 + drawn_level
    assert "receives the enchanted ring" in told(events, 0)
    secret = [e["text"] for e in seen_by(events, 1) if e["kind"] == "ring" and "Your" in e["text"]]
    assert len(secret) == 1 and all(e["text"] != secret[0] for e in seen_by(events, 0))


def test_venomous_serpents_always_win() -> None:
    """The Venomous Witch itself is beaten by the Serpent it faces; then a Serpent kills a Dragon."""
    state, _ = witch_duel("Lvl.6 Venomous Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.1 Serpent"], ["Lvl.6 Dragon"]], deck=DECK)
    assert last_duel(state)["winner"] == 1 and hp(state) == [27, 30]
    assert modifiers(state) == ["Venomous Witch: Serpents always win their duel against a non-Serpent."]
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.6 Dragon {7}")
    assert last_duel(state)["winner"] == 0 and hp(state) == [27, 23]
    assert "Lvl.1 Serpent {0}" in discard(state) and "Lvl.6 Dragon {7}" in discard(state)


def test_venomous_serpent_against_serpent_is_fought_normally() -> None:
    state, _ = witch_duel("Lvl.6 Venomous Witch", "Lvl.1 Giant",
                          hands=[["Lvl.1 Serpent"], ["Lvl.3 Serpent"]], deck=DECK)
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.3 Serpent {0}")
    assert last_duel(state)["winner"] == 1


def test_feigglehornes_witch_sends_the_two_weakest_to_the_circus() -> None:
    state, events = witch_duel("Lvl.4 Feigglehorne's Witch", "Lvl.1 Skeleton",
                               hands=[[], ["Lvl.5 Serpent", "Lvl.2 Wolf", "Lvl.1 Wolf", "Lvl.6 Dragon"]], deck=DECK)
    assert hand(state, 1) == ["Lvl.2 Wolf {2}", "Lvl.6 Dragon {7}", "Lvl.1 Vampire {5}", "Lvl.1 Skeleton {3}",
                              "Lvl.1 Dragon {7}"]
    assert sorted(c.notation() for c in state.removed) == ["Lvl.1 Wolf {2}", "Lvl.5 Serpent {0}"]
    assert "Lvl.5 Serpent" not in told(events, 0) and "Lvl.5 Serpent" in told(events, 1)


def test_foreboding_witch_adds_two_wolves_when_it_dies() -> None:
    state, events = witch_duel("Lvl.4 Foreboding Witch", "Lvl.6 Dragon", deck=DECK)
    wolves = [c for c in cards(state, 0) if c["tribe"] == "Wolf"]
    assert len(wolves) == 2 and hp(state) == [27, 30]
    assert all(w["text"] not in told(events, 1) for w in wolves)


def test_foreboding_witch_adds_nothing_when_it_escapes() -> None:
    state, _ = witch_duel("Lvl.4 Foreboding Witch", "Lvl.1 Serpent", deck=DECK)
    assert [c for c in cards(state, 0) if c["tribe"] == "Wolf"] == []


def test_lusting_witch_big_against_small() -> None:
    state, events = witch_duel("Lvl.4 Lusting Witch", "Lvl.1 Skeleton",
                               hands=[["Lvl.2 Dragon", "Lvl.5 Giant"], ["Lvl.3 Wolf", "Lvl.6 Vampire"]], deck=DECK)
    assert hp(state) == [28, 23]  # you take the Wolf's 2, your opponent the Dragon's 7
    assert "Lvl.2 Dragon {7}" in hand(state, 0) and "Lvl.3 Wolf {2}" in hand(state, 1)  # both stay in hand
    assert last_duel(state)["winner"] == 0  # the witch (7) beat the Skeleton (4)
    texts = [e["text"] for e in seen_by(events, None)]
    assert "Player 1's Lvl.2 Dragon {7} \"battles\" Player 2's Lvl.3 Wolf {2}. The Lusting Witch watches…" in texts


def test_sun_witch_shuffles_heats_and_explodes() -> None:
    state = start([["Lvl.4 Sun Witch", "Lvl.2 Fire Giant", "Lvl.1 Nightmare Wolf", "Lvl.3 Holy Skeleton",
                    "Lvl.2 Holy Skeleton"],
                   ["Lvl.1 Skeleton", "Lvl.4 Fire Dragon", "Lvl.2 Greedy Witch", "Lvl.1 Holy Pirate"]], deck=DECK)
    state, events = duel(state, "Lvl.4 Sun Witch {3}", "Lvl.1 Skeleton {3}")
    assert "Lvl.5 Fire Giant {4}" in hand(state, 0) and "Lvl.7 Fire Dragon {7}" in hand(state, 1)
    assert "Lvl.1 Nightmare Wolf {2}" not in hand(state, 0) and "Lvl.2 Greedy Witch {3}" not in hand(state, 1)
    assert "Lvl.7 Fire Dragon" not in told(events, 0) and "Lvl.5 Fire Giant" not in told(events, 1)
    assert len(state.deck) == len(DECK) - 4 + 2
    # turn 2: seat 1 plays its heated Dragon (it will not explode); seat 0 keeps its Giant
    state, _ = duel(state, "Lvl.3 Holy Skeleton {3}", "Lvl.7 Fire Dragon {7}")
    assert hp(state) == [27, 30]
    # turn 3: seat 0 wins (5 against 4), but its Giant is still in hand at the end of the turn: it explodes
    state, events = duel(state, "Lvl.2 Holy Skeleton {3}", "Lvl.1 Holy Pirate {3}")
    assert hp(state) == [27 - 4, 30 - 3]
    assert "Lvl.5 Fire Giant {4} explodes" in told(events, 1)
    assert "Lvl.5 Fire Giant {4}" in discard(state) and "Lvl.5 Fire Giant {4}" not in hand(state, 0)
    assert modifiers(state) == []


def test_gluttonous_witch_feeds_both_empires() -> None:
    state, _ = witch_duel("Lvl.4 Gluttonous Witch", "Lvl.1 Serpent", deck=DECK)
    assert hp(state) == [50, 50]


def test_witch_of_slothing_discourages_two_enemy_cards() -> None:
    state, events = witch_duel("Lvl.4 Witch of Slothing", "Lvl.1 Serpent",
                               hands=[[], ["Lvl.3 Fire Giant", "Lvl.2 Holy Wolf", "Lvl.5 Dragon"]], deck=DECK)
    banned = [c["text"] for c in cards(state, 1) if c["banned"]]
    assert len(banned) == 2 and all(t.endswith(": (-)") for t in banned)
    assert "Lvl.1 Serpent {0}" in hand(state, 1) and "Lvl.1 Dragon {7}" in hand(state, 1)  # back / drawn after
    for text in banned:
        assert text.removesuffix(": (-)") not in told(events, 0)
    slots = {d["slot"] for d in GAME.view(state, 1)["legal"]}
    assert all(hand(state, 1)[i] not in banned for i in slots)


def test_proud_witch_doubles_the_next_lost_duel_only() -> None:
    state, _ = witch_duel("Lvl.4 Proud Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Dragon", "Lvl.5 Dragon"], ["Lvl.1 Giant", "Lvl.2 Giant"]], deck=DECK)
    assert modifiers(state) == ["Proud Witch: the next time Player 2 loses a duel, they take double damage."]
    state, _ = duel(state, "Lvl.6 Dragon {7}", "Lvl.1 Giant {4}")
    assert hp(state) == [30, 22]
    assert modifiers(state) == []
    state, _ = duel(state, "Lvl.5 Dragon {7}", "Lvl.2 Giant {4}")
    assert hp(state) == [30, 18]


def test_proud_witch_needs_to_escape() -> None:
    state, _ = witch_duel("Lvl.4 Proud Witch", "Lvl.6 Dragon", deck=DECK)
    assert modifiers(state) == []


def test_lucky_witch_next_creature_always_wins() -> None:
    state, _ = witch_duel("Lvl.4 Lucky Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.1 Wolf", "Lvl.2 Wolf"], ["Lvl.6 Dragon", "Lvl.5 Dragon"]], deck=DECK)
    assert modifiers(state, 1) == ["Lucky Witch: the next creature Player 1 plays always wins its duel."]
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.6 Dragon {7}")
    assert last_duel(state)["winner"] == 0 and hp(state) == [30, 23]
    assert modifiers(state) == []
    state, _ = duel(state, "Lvl.2 Wolf {2}", "Lvl.5 Dragon {7}")
    assert last_duel(state)["winner"] == 1 and hp(state) == [28, 23]


def test_lucky_creature_against_a_venomous_serpent_is_fought_normally() -> None:
    state = start([["Lvl.4 Lucky Witch", "Lvl.6 Venomous Witch", "Lvl.1 Wolf"],
                   ["Lvl.1 Giant", "Lvl.2 Giant", "Lvl.3 Serpent"]], deck=DECK)
    state, _ = duel(state, "Lvl.6 Venomous Witch {3}", "Lvl.1 Giant {4}")
    state, _ = duel(state, "Lvl.4 Lucky Witch {3}", "Lvl.2 Giant {4}")
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.3 Serpent {0}")
    assert last_duel(state)["powers"] == [3, 3] and last_duel(state)["winner"] is None


def test_wishing_witch_replaces_the_next_draw() -> None:
    deck = ["Lvl.1 Dragon", "Lvl.1 Vampire", "Lvl.1 Skeleton", "Lvl.6 Dragon", *DECK]
    state, events = witch_duel("Lvl.4 Wishing Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Giant", "Lvl.2 Giant", "Lvl.3 Giant"], []], deck=deck)
    # seat 1 draws first on turn 2 (the Skeleton); seat 0's Lvl.6 Dragon goes back, a Giant comes instead
    giants = [c for c in cards(state, 0) if c["tribe"] == "Giant"]
    assert len(giants) == 4 and all(c["rally"] == ["tribe"] for c in giants)  # a Giant Rally!
    assert "Lvl.6 Dragon {7}" not in hand(state, 0)
    assert len(state.deck) == len(deck) - 3
    assert any(c.notation() == "Lvl.6 Dragon {7}" for c in state.deck)
    assert modifiers(state) == []
    assert hand(state, 1)[-1] == "Lvl.1 Skeleton {3}"  # the opponent's draw is not touched
    assert "grants a creature instead" in told(events, 1) and "Lvl.6 Dragon" not in told(events, 1)
    assert "Giant" not in told(events, 1) and "grants a creature instead: a Giant" in told(events, 0)


def test_shamanic_witch_randomizes_power_types() -> None:
    mine = ["Lvl.1 Fire Giant", "Lvl.2 Fire Dragon", "Lvl.3 Fire Wolf", "Lvl.1 Serpent"]
    theirs = ["Lvl.1 Holy Giant", "Lvl.2 Holy Dragon", "Lvl.3 Holy Wolf", "Lvl.4 Holy Skeleton"]
    state, events = witch_duel("Lvl.4 Shamanic Witch", "Lvl.1 Pirate", hands=[mine, theirs], deck=DECK)
    before = [c.split(" ") for c in mine + theirs if "Serpent" not in c]
    after = [c for s in (0, 1) for c in cards(state, s) if c["type"] is not None]
    assert len(after) == 7
    assert [c["level"] for c in after[:3]] == [1, 2, 3]
    assert sorted(c["tribe"] for c in after) == sorted(b[-1] for b in before)
    assert any(c["type"] != "Fire" for c in after[:3]) and any(c["type"] != "Holy" for c in after[3:])
    assert "Lvl.1 Serpent {0}" in hand(state, 0)  # a typeless creature stays typeless
    assert "Power Types in Player 2's hand are randomized" in told(events, 0)
    assert "Lvl.4 Holy Skeleton" not in told(events, 0)


def test_vortex_witch_gives_every_creature_a_new_tribe() -> None:
    mine = ["Lvl.1 Fire Giant", "Lvl.2 Holy Dragon"]
    theirs = ["Lvl.3 Fire Wolf", "Lvl.4 Holy Skeleton"]
    state, events = witch_duel("Lvl.4 Vortex Witch", "Lvl.1 Pirate", hands=[mine, theirs], deck=["Lvl.1 Witch of Despair"]
                               * 2 + DECK)
    changed = {s: cards(state, s)[:2] for s in (0, 1)}
    assert [(c["level"], c["type"], c["base"]) for c in changed[0]] == [(1, "Fire", 4), (2, "Holy", 7)]
    assert [(c["level"], c["type"], c["base"]) for c in changed[1]] == [(3, "Fire", 2), (4, "Holy", 3)]
    assert [c["tribe"] for c in changed[0]] != ["Giant", "Dragon"]
    assert changed[0][0]["tribe"] != "Giant" and changed[0][1]["tribe"] != "Dragon"
    assert changed[1][0]["tribe"] != "Wolf" and changed[1][1]["tribe"] != "Skeleton"
    assert changed[1][0]["text"] not in told(events, 0)


def test_grim_witch_marks_an_enemy_creature_for_death() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.2 Blind Witch", *DECK]
    state, events = witch_duel("Lvl.4 Grim Witch", "Lvl.1 Serpent", hands=[["Lvl.1 Serpent"], ["Lvl.6 Dragon"]],
                               deck=deck)
    # the Serpent was in play: the Dragon is the only creature in seat 1's hand
    secret = [e["text"] for e in seen_by(events, 0) if e["kind"] == "secret"]
    assert secret == ["The Grim Witch marks Player 2's Lvl.6 Dragon {7} for death."]
    assert "marks" not in told(events, 1) and "marks" not in told(events, None)
    assert modifiers(state, 1) == ["Grim Witch: a creature in Player 2's hand is marked for death."]
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.6 Dragon {7}")
    record = last_duel(state)
    assert record["winner"] == 0 and "marked for death" in record["summary"]
    assert hp(state) == [30, 23]
    assert modifiers(state) == []
    assert "Lvl.6 Dragon {7}" in discard(state)


def test_grim_mark_kills_even_against_a_witch() -> None:
    """A marked creature facing a witch dies and is discarded, with no damage (a creature beaten by a witch)."""
    deck = ["Lvl.1 Skeleton", "Lvl.2 Blind Witch", *DECK]
    state, _ = witch_duel("Lvl.4 Grim Witch", "Lvl.1 Serpent", hands=[["Lvl.1 Greedy Witch"], ["Lvl.6 Dragon"]],
                          deck=deck)
    state, _ = duel(state, "Lvl.1 Greedy Witch {3}", "Lvl.6 Dragon {7}")
    assert last_duel(state)["winner"] == 0 and hp(state) == [30, 30]
    assert "Lvl.6 Dragon {7}" in discard(state) and "Lvl.6 Dragon {7}" not in hand(state, 1)


def test_hallucinating_witch_replaces_half_of_each_hand() -> None:
    state, events = witch_duel("Lvl.4 Hallucinating Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.1 Giant", "Lvl.2 Giant", "Lvl.3 Giant"], ["Lvl.1 Wolf", "Lvl.2 Wolf"]],
                               deck=DECK)
    # seat 0 held 4 cards (3 + its draw): 2 replaced; seat 1 held 3: 2 replaced (rounded up)
    assert len(discard(state)) == 2 + 2 + 1
    assert sum(c["kind"] == "witch" for c in cards(state, 0)) == 2
    assert sum(c["kind"] == "witch" for c in cards(state, 1)) == 2
    assert len(hand(state, 0)) == 5 and len(hand(state, 1)) == 5
    gained = [c["text"] for c in cards(state, 1) if c["kind"] == "witch"]
    assert all(g not in told(events, 0) or g in told(events, None) for g in gained)


def test_the_big_bad_witch_blows_every_wolf_away() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.3 Wolf", "Lvl.4 Holy Wolf", *DECK]
    state, events = witch_duel("Lvl.4 The Big Bad Witch", "Lvl.1 Serpent",
                               hands=[["Lvl.2 Wolf", "Lvl.1 Giant"], ["Lvl.5 Fire Wolf"]], deck=deck)
    assert all("Wolf" not in c for s in (0, 1) for c in hand(state, s))
    assert sorted(c.notation() for c in state.removed) == ["Lvl.2 Wolf {2}", "Lvl.3 Wolf {2}", "Lvl.4 Holy Wolf {2}",
                                                           "Lvl.5 Fire Wolf {2}"]
    assert "Lvl.5 Fire Wolf" not in told(events, 0)
    assert hand(state, 1) == ["Lvl.1 Vampire {5}", "Lvl.1 Serpent {0}", "Lvl.1 Skeleton {3}"]


def test_witch_of_the_emperor_steals_a_weak_card() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.2 Giant", *DECK]
    state, events = witch_duel("Lvl.4 Witch of the Emperor", "Lvl.1 Serpent", hands=[[], ["Lvl.2 Giant"]], deck=deck)
    assert "Lvl.2 Giant {4}" in hand(state, 0) and hand(state, 1).count("Lvl.2 Giant {4}") == 1
    assert "Lvl.2 Giant {4}" in told(events, None)  # revealed to both players


def test_witch_of_the_emperor_only_reveals_a_strong_card() -> None:
    deck = ["Lvl.1 Skeleton", "Lvl.3 Dragon", *DECK]
    state, events = witch_duel("Lvl.4 Witch of the Emperor", "Lvl.1 Serpent", hands=[[], ["Lvl.3 Dragon"]], deck=deck)
    assert "Lvl.3 Dragon {7}" not in hand(state, 0) and hand(state, 1).count("Lvl.3 Dragon {7}") == 2
    assert "reveals Player 2's Lvl.3 Dragon {7}" in told(events, 0)


def test_witch_of_the_skeleton_legion_shuffles_six_skeletons_in() -> None:
    deck = ["Lvl.1 Giant"] * 4 + ["Lvl.1 Dragon"] * 4
    state, events = witch_duel("Lvl.4 Witch of the Skeleton Legion", "Lvl.1 Serpent", deck=deck)
    assert len(state.deck) == 8 - 4 + 6
    skeletons = [c for c in state.deck if c.tribe is not None and c.tribe.value == "Skeleton"]
    drawn = sum("Skeleton" in c for s in (0, 1) for c in hand(state, s))
    assert len(skeletons) + drawn == 6
    assert "6 Skeletons are shuffled into the deck." in told(events, 1)


def test_witch_of_the_chosen_legion_asks_for_a_tribe() -> None:
    state, events = witch_duel("Lvl.4 Witch of the Chosen Legion", "Lvl.1 Serpent", deck=DECK)
    assert GAME.view(state, 0)["question"]["options"] == ["Wolf", "Skeleton", "Pirate"]
    assert "question" not in GAME.view(state, 1)
    state, events = answer(state, 0, 2)
    pirates = [c for c in cards(state, 0) if c["tribe"] == "Pirate"]
    assert len(pirates) == 2
    assert all(p["text"] not in told(events, 1) for p in pirates)
    assert last_duel(state)["turn"] == 1  # the duel went on after the answer


def test_seductive_witch_forces_the_returned_creature_next_turn() -> None:
    state, _ = witch_duel("Lvl.4 Seductive Witch", "Lvl.2 Giant", hands=[["Lvl.6 Dragon"], ["Lvl.1 Serpent"]],
                          deck=DECK)
    assert modifiers(state) == ["Seductive Witch: Player 2 must play Lvl.2 Giant {4} next turn."]
    view = GAME.view(state, 1)
    assert view["legal"] == [] and hand(state, 1)[view["locked_slot"]] == "Lvl.2 Giant {4}"
    state, _ = duel(state, "Lvl.6 Dragon {7}", None)
    assert hp(state) == [30, 26]
    assert modifiers(state) == []


def test_rage_witch_discards_for_damage_per_lost_duel() -> None:
    state = start([["Lvl.1 Serpent", "Lvl.1 Wolf", "Lvl.4 Rage Witch"], ["Lvl.2 Skeleton", "Lvl.3 Skeleton",
                                                                         "Lvl.1 Giant"]], deck=DECK)
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.2 Skeleton {3}")
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.3 Skeleton {3}")
    assert hp(state) == [28, 30]
    before = len(hand(state, 0))
    state, events = duel(state, "Lvl.4 Rage Witch {3}", "Lvl.1 Giant {4}")
    assert hp(state) == [28, 28]  # two duels lost: 2 damage
    assert len(hand(state, 0)) == before - 2 + 1  # the witch played, one card discarded, the turn 4 draw
    assert any("discarded in rage" in e["text"] for e in seen_by(events, 1))


def test_rage_witch_with_an_empty_hand_does_nothing() -> None:
    state = start([["Lvl.4 Rage Witch"], ["Lvl.1 Serpent"]], deck=[])
    state, events = duel(state, "Lvl.4 Rage Witch {3}", "Lvl.1 Serpent {0}")
    assert "no card to discard" in told(events, 1)
    assert not any("in rage" in e["text"] for e in seen_by(events, None))


def test_jesting_witch_puts_three_cards_on_top() -> None:
    state, events = witch_duel("Lvl.4 Jesting Witch", "Lvl.1 Serpent", deck=DECK)
    # turn 2's draws took two of the three new cards; the third is on top
    assert len(state.deck) == len(DECK) - 2 + 3 - 2
    made = len(DECK) + 2
    assert state.deck[0].uid >= made and state.deck[1].uid < made
    assert "tells a joke" in told(events, 1)


def test_the_high_witch_lifts_and_doubles() -> None:
    state, _ = witch_duel("Lvl.4 The High Witch", "Lvl.1 Serpent",
                          hands=[["Lvl.6 Dragon"], ["Lvl.2 Giant"]], deck=DECK)
    assert modifiers(state) == ["The High Witch: Player 2's next card has +3 levels, and they take double damage "
                                "from it if it loses."]
    state, events = duel(state, "Lvl.6 Dragon {7}", "Lvl.2 Giant {4}")
    record = last_duel(state)
    assert record["powers"] == [13, 9] and record["winner"] == 0
    assert hp(state) == [30, 22]
    assert "Lvl.5 Giant {4}" in discard(state)
    assert modifiers(state) == []
    assert "The High Witch lifts Player 2's Lvl.2 Giant {4} to Lvl.5." in told(events, 0)


def test_two_wishes_replace_two_draws() -> None:
    deck = ["Lvl.1 Dragon", "Lvl.1 Vampire", "Lvl.1 Skeleton", "Lvl.6 Dragon", "Lvl.1 Skeleton", "Lvl.5 Vampire", *DECK]
    state = start([["Lvl.4 Wishing Witch", "Lvl.5 Wishing Witch", "Lvl.1 Giant", "Lvl.2 Giant"],
                   ["Lvl.1 Serpent", "Lvl.2 Serpent"]], deck=deck)
    state, _ = duel(state, "Lvl.4 Wishing Witch {3}", "Lvl.1 Serpent {0}")
    state, _ = duel(state, "Lvl.5 Wishing Witch {3}", "Lvl.1 Serpent {0}")
    # turn 2's draw was wished (a Giant: 3 Giants); turn 3's too (a fourth Giant: a Rally)
    assert sum(c["tribe"] == "Giant" for c in cards(state, 0)) == 4
    assert "Lvl.6 Dragon {7}" not in hand(state, 0) and "Lvl.1 Skeleton {3}" not in hand(state, 0)

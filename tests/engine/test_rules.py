"""One focused test per Creature Wars rule, each from an exact scenario position."""
from __future__ import annotations

from typing import Any

import pytest

from engine.creature_wars import GAME
from engine.creature_wars.witch_catalogue import Rarity, by_name
from engine.errors import BadOptions, IllegalDecision, MatchOver, NotYourTurn
from engine.interface import OutcomeReason, redact
from tests.engine.scenario import drawn, duel, events_of, fillers, hand, play, slot, start

CYCLE = [("Ancient", "Fire"), ("Fire", "Nightmare"), ("Nightmare", "Holy"), ("Holy", "Ancient")]


def last_duel(state: Any) -> dict[str, Any]:
    """The public record of the last duel."""
    record: dict[str, Any] = GAME.view(state, None)["last_duel"]
    return record


def discard(state: Any) -> list[str]:
    """The discard pile's notations."""
    return [c["text"] for c in GAME.view(state, None)["discard"]]


# -- power, damage, discard ------------------------------------------------------------------


def test_power_is_base_plus_level_without_types() -> None:
    """Typeless creatures: power is base strength + level, nothing else."""
    state = start([["Lvl.5 Dragon"], ["Lvl.6 Serpent"]])
    state, _ = duel(state, "Lvl.5 Dragon {7}", "Lvl.6 Serpent {0}")
    assert last_duel(state)["powers"] == [12, 6]
    assert last_duel(state)["winner"] == 0


@pytest.mark.parametrize(("strong", "weak"), CYCLE)
def test_type_advantage_adds_three(strong: str, weak: str) -> None:
    """Each link of Ancient > Fire > Nightmare > Holy > Ancient gives the stronger side +3."""
    state = start([[f"Lvl.3 {strong} Giant"], [f"Lvl.4 {weak} Pirate"]])
    state, events = duel(state, f"Lvl.3 {strong} Giant {{4}}", f"Lvl.4 {weak} Pirate {{3}}")
    assert last_duel(state)["powers"] == [10, 7]
    assert last_duel(state)["winner"] == 0
    assert not events_of(events, "bizarre_victory")


@pytest.mark.parametrize(("strong", "weak"), CYCLE)
def test_type_advantage_is_one_way(strong: str, weak: str) -> None:
    """The beaten type gets no bonus; the bonus goes to the other seat."""
    state = start([[f"Lvl.3 {weak} Giant"], [f"Lvl.4 {strong} Pirate"]])
    state, _ = duel(state, f"Lvl.3 {weak} Giant {{4}}", f"Lvl.4 {strong} Pirate {{3}}")
    assert last_duel(state)["powers"] == [7, 10]
    assert last_duel(state)["winner"] == 1


@pytest.mark.parametrize(("a", "b"), [("Ancient", "Nightmare"), ("Fire", "Holy"), ("Holy", "Holy")])
def test_no_advantage_across_or_within_types(a: str, b: str) -> None:
    """Opposite types and equal types give no bonus to either side."""
    state = start([[f"Lvl.3 {a} Giant"], [f"Lvl.4 {b} Pirate"]])
    state, _ = duel(state, f"Lvl.3 {a} Giant {{4}}", f"Lvl.4 {b} Pirate {{3}}")
    assert last_duel(state)["powers"] == [7, 7]


def test_loser_takes_own_creature_base_strength() -> None:
    """A losing Dragon costs its empire 7, whatever beat it."""
    state = start([["Lvl.1 Fire Dragon"], ["Lvl.7 Fire Wolf"]])
    state, _ = duel(state, "Lvl.1 Fire Dragon {7}", "Lvl.7 Fire Wolf {2}")
    assert last_duel(state)["damage"] == [7, 0]
    assert GAME.view(state, None)["hp"] == [23, 30]


def test_winner_strength_does_not_set_damage() -> None:
    """A Wolf losing to a Dragon costs only the Wolf's 2."""
    state = start([["Lvl.6 Fire Dragon"], ["Lvl.1 Fire Wolf"]])
    state, _ = duel(state, "Lvl.6 Fire Dragon {7}", "Lvl.1 Fire Wolf {2}")
    assert last_duel(state)["damage"] == [0, 2]
    assert GAME.view(state, None)["hp"] == [30, 28]


def test_both_creatures_are_discarded_after_a_fight() -> None:
    """Winner and loser both go to the discard pile; neither stays in hand."""
    state = start([["Lvl.6 Fire Dragon"], ["Lvl.1 Fire Wolf"]])
    state, _ = duel(state, "Lvl.6 Fire Dragon {7}", "Lvl.1 Fire Wolf {2}")
    assert discard(state) == ["Lvl.6 Fire Dragon {7}", "Lvl.1 Fire Wolf {2}"]
    assert "Lvl.6 Fire Dragon {7}" not in hand(state, 0)
    assert "Lvl.1 Fire Wolf {2}" not in hand(state, 1)


# -- ties and cooldown -----------------------------------------------------------------------


def test_tie_returns_both_with_one_turn_cooldown() -> None:
    """Equal power: no damage, both back in hand shown `: (1)`, not legal next turn, legal after."""
    state = start([["Lvl.3 Fire Giant"], ["Lvl.4 Fire Pirate"]])
    state, _ = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.4 Fire Pirate {3}")
    duel_record = last_duel(state)
    assert duel_record["winner"] is None and duel_record["damage"] == [0, 0]
    assert discard(state) == []
    assert GAME.view(state, None)["turn"] == 2
    assert "Lvl.3 Fire Giant {4}: (1)" in hand(state, 0)
    assert "Lvl.4 Fire Pirate {3}: (1)" in hand(state, 1)
    for seat, text in ((0, "Lvl.3 Fire Giant {4}: (1)"), (1, "Lvl.4 Fire Pirate {3}: (1)")):
        cooling = slot(state, seat, text)
        assert {"kind": "play", "slot": cooling} not in GAME.legal(state, seat)
        with pytest.raises(IllegalDecision, match="cooldown"):
            GAME.apply(state, seat, {"kind": "play", "slot": cooling})
    # turn 2: both play a filler drawn this game; turn 3: the tied cards are playable again
    state, _ = duel(state, hand(state, 0)[0], hand(state, 1)[0])
    assert GAME.view(state, None)["turn"] == 3
    assert "Lvl.3 Fire Giant {4}" in hand(state, 0)
    assert "Lvl.4 Fire Pirate {3}" in hand(state, 1)
    assert {"kind": "play", "slot": slot(state, 0, "Lvl.3 Fire Giant {4}")} in GAME.legal(state, 0)
    assert {"kind": "play", "slot": slot(state, 1, "Lvl.4 Fire Pirate {3}")} in GAME.legal(state, 1)


# -- Tribal Clash and Bizarre Victory --------------------------------------------------------


def test_tribal_clash_winner_draws() -> None:
    """Two Giants duel: the winner draws one extra card from the top of the deck."""
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.2 Holy Vampire", "Lvl.1 Pirate", "Lvl.1 Dragon"]
    state = start([["Lvl.5 Fire Giant"], ["Lvl.1 Fire Giant"]], deck)
    state, events = duel(state, "Lvl.5 Fire Giant {4}", "Lvl.1 Fire Giant {4}")
    assert [e.public["seat"] for e in events_of(events, "tribal_clash")] == [0]
    # the clash draw comes first, then turn 2's draws (seat 1 first)
    assert drawn(events) == [(0, "Lvl.2 Holy Vampire {5}"), (1, "Lvl.1 Pirate {3}"), (0, "Lvl.1 Dragon {7}")]
    assert hand(state, 0) == ["Lvl.1 Serpent {0}", "Lvl.2 Holy Vampire {5}", "Lvl.1 Dragon {7}"]
    assert GAME.view(state, None)["deck"] == 0


def test_tribal_clash_not_on_a_tie() -> None:
    """Two equal Giants tie: nobody wins, so nobody draws."""
    state = start([["Lvl.3 Fire Giant"], ["Lvl.3 Fire Giant"]])
    deck_before = GAME.view(state, None)["deck"]
    state, events = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.3 Fire Giant {4}")
    assert not events_of(events, "tribal_clash")
    assert GAME.view(state, None)["deck"] == deck_before - 2  # turn 2's draws only


def test_tribal_clash_needs_the_same_tribe() -> None:
    """Different tribes: the winner does not draw."""
    state = start([["Lvl.5 Fire Giant"], ["Lvl.1 Fire Pirate"]])
    deck_before = GAME.view(state, None)["deck"]
    state, events = duel(state, "Lvl.5 Fire Giant {4}", "Lvl.1 Fire Pirate {3}")
    assert not events_of(events, "tribal_clash")
    assert GAME.view(state, None)["deck"] == deck_before - 2


def test_bizarre_victory_gives_winner_a_secret_random_witch() -> None:
    """The winner with a type disadvantage gets a witch; only it learns which one."""
    state = start([["Lvl.6 Fire Giant"], ["Lvl.1 Ancient Serpent"]])
    state, events = duel(state, "Lvl.6 Fire Giant {4}", "Lvl.1 Ancient Serpent {0}")
    assert last_duel(state)["powers"] == [10, 4] and last_duel(state)["winner"] == 0
    (event,) = events_of(events, "bizarre_victory")
    mine = redact(event, 0)
    witch_text = mine["card"]
    cards = GAME.view(state, 0)["hands"][0]["cards"]
    witches = [c for c in cards if c["kind"] == "witch"]
    assert [w["text"] for w in witches] == [witch_text]
    rarity = Rarity(witches[0]["rarity"])
    assert by_name(witches[0]["name"]).rarity is rarity
    low, high = rarity.levels
    assert low <= witches[0]["level"] <= high
    for other in (1, None):
        seen = redact(event, other)
        assert "card" not in seen
        assert seen["text"] == event.public["text"]
        assert witches[0]["name"] not in str(seen)
        assert "Witch" in seen["text"]
    # the opponent sees only the count: 1 filler + the witch + turn 2's draw
    assert GAME.view(state, 1)["hands"][0] == {"count": 3}
    assert GAME.view(state, None)["hands"][0] == {"count": 3}


def test_no_bizarre_victory_when_the_loser_had_no_advantage() -> None:
    """A winner without a type disadvantage gets nothing extra."""
    state = start([["Lvl.6 Ancient Giant"], ["Lvl.1 Fire Serpent"]])
    state, events = duel(state, "Lvl.6 Ancient Giant {4}", "Lvl.1 Fire Serpent {0}")
    assert not events_of(events, "bizarre_victory")
    assert all(c["kind"] == "creature" for c in GAME.view(state, 0)["hands"][0]["cards"])


# -- witches ---------------------------------------------------------------------------------


def test_creature_kills_witch() -> None:
    """The creature wins: the witch's owner takes 3; the creature returns without cooldown."""
    state = start([["Lvl.1 Blind Witch"], ["Lvl.3 Fire Giant"]])
    state, _ = duel(state, "Lvl.1 Blind Witch {3}", "Lvl.3 Fire Giant {4}")
    record = last_duel(state)
    assert record["powers"] == [4, 7] and record["winner"] == 1 and record["damage"] == [3, 0]
    assert GAME.view(state, None)["hp"] == [27, 30]
    assert discard(state) == ["Lvl.1 Blind Witch {3}"]
    assert "Lvl.3 Fire Giant {4}" in hand(state, 1)
    assert {"kind": "play", "slot": slot(state, 1, "Lvl.3 Fire Giant {4}")} in GAME.legal(state, 1)


def test_witch_wins_and_flees() -> None:
    """The witch (3 + level, no type) wins: no damage, the creature returns, the witch is discarded."""
    state = start([["Lvl.2 Greedy Witch"], ["Lvl.2 Ancient Wolf"]])
    state, _ = duel(state, "Lvl.2 Greedy Witch {3}", "Lvl.2 Ancient Wolf {2}")
    record = last_duel(state)
    assert record["powers"] == [5, 4] and record["winner"] == 0 and record["damage"] == [0, 0]
    assert GAME.view(state, None)["hp"] == [30, 30]
    assert discard(state) == ["Lvl.2 Greedy Witch {3}"]
    assert "Lvl.2 Ancient Wolf {2}" in hand(state, 1)
    assert {"kind": "play", "slot": slot(state, 1, "Lvl.2 Ancient Wolf {2}")} in GAME.legal(state, 1)


def test_witch_tie_counts_as_fleeing() -> None:
    """Equal power against a witch: the witch flees, nobody is hurt, the creature has no cooldown."""
    state = start([["Lvl.3 Holy Wolf"], ["Lvl.2 Kind Witch"]])
    state, _ = duel(state, "Lvl.3 Holy Wolf {2}", "Lvl.2 Kind Witch {3}")
    record = last_duel(state)
    assert record["powers"] == [5, 5] and record["winner"] == 1 and record["damage"] == [0, 0]
    assert discard(state) == ["Lvl.2 Kind Witch {3}"]
    assert "Lvl.3 Holy Wolf {2}" in hand(state, 0)  # no ": (1)"


def test_two_witches_loser_takes_three_and_neither_returns() -> None:
    """Witch against witch: the weaker's empire takes 3, both are discarded."""
    state = start([["Lvl.3 Greedy Witch"], ["Lvl.1 Kind Witch"]])
    state, _ = duel(state, "Lvl.3 Greedy Witch {3}", "Lvl.1 Kind Witch {3}")
    record = last_duel(state)
    assert record["powers"] == [6, 4] and record["winner"] == 0 and record["damage"] == [0, 3]
    assert GAME.view(state, None)["hp"] == [30, 27]
    assert discard(state) == ["Lvl.3 Greedy Witch {3}", "Lvl.1 Kind Witch {3}"]
    assert all("Witch" not in text for seat in (0, 1) for text in hand(state, seat))


def test_two_witches_tie_no_damage() -> None:
    """Equal witches: no damage, both discarded."""
    state = start([["Lvl.2 Greedy Witch"], ["Lvl.2 Kind Witch"]])
    state, _ = duel(state, "Lvl.2 Greedy Witch {3}", "Lvl.2 Kind Witch {3}")
    record = last_duel(state)
    assert record["winner"] is None and record["damage"] == [0, 0]
    assert discard(state) == ["Lvl.2 Greedy Witch {3}", "Lvl.2 Kind Witch {3}"]


# -- passing and turn order ------------------------------------------------------------------


def test_player_without_playable_card_passes() -> None:
    """Only a cooling card in hand: the seat passes; the other card returns with no cooldown."""
    deck = ["Lvl.3 Fire Giant", "Lvl.2 Holy Wolf", "Lvl.1 Skeleton"]
    state = start([[], ["Lvl.4 Fire Pirate"]], deck)
    state, events = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.4 Fire Pirate {3}")  # tie
    # turn 2: seat 1 draws the last card; seat 0 draws nothing and holds only the cooling Giant
    assert hand(state, 0) == ["Lvl.3 Fire Giant {4}: (1)"]
    assert [e.public["seat"] for e in events_of(events, "pass")] == [0]
    assert GAME.legal(state, 0) == []
    assert GAME.view(state, 1)["passed"] == [True, False]
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, {"kind": "play", "slot": 0})
    state, events = play(state, 1, "Lvl.2 Holy Wolf {2}")  # resolves at once
    record = last_duel(state)
    assert record["cards"][0] is None and record["cards"][1]["text"] == "Lvl.2 Holy Wolf {2}"
    assert record["damage"] == [0, 0] and record["winner"] is None
    assert len(events_of(events, "return")) == 1
    assert GAME.view(state, None)["hp"] == [30, 30]
    assert discard(state) == []
    assert "Lvl.2 Holy Wolf {2}" in hand(state, 1)
    assert {"kind": "play", "slot": slot(state, 1, "Lvl.2 Holy Wolf {2}")} in GAME.legal(state, 1)


def test_first_drawer_alternates() -> None:
    """Turn 1 starts with the chosen first drawer; each turn the other seat draws first."""
    deck = ["Lvl.1 Ancient Serpent", "Lvl.2 Fire Wolf", "Lvl.3 Holy Skeleton", "Lvl.4 Nightmare Pirate",
            "Lvl.5 Ancient Giant", "Lvl.6 Fire Vampire", *fillers(4)]
    state = start([["Lvl.1 Dragon", "Lvl.2 Dragon"], ["Lvl.1 Vampire", "Lvl.2 Vampire"]], deck, first=1)
    view = GAME.view(state, None)
    assert view["turn"] == 1 and view["first_drawer"] == 1
    assert hand(state, 1)[-1] == "Lvl.1 Ancient Serpent {0}"
    assert hand(state, 0)[-1] == "Lvl.2 Fire Wolf {2}"
    state, events = duel(state, "Lvl.1 Dragon {7}", "Lvl.1 Vampire {5}")
    assert GAME.view(state, None)["first_drawer"] == 0
    assert drawn(events)[-2:] == [(0, "Lvl.3 Holy Skeleton {3}"), (1, "Lvl.4 Nightmare Pirate {3}")]
    state, events = duel(state, "Lvl.2 Dragon {7}", "Lvl.2 Vampire {5}")
    assert GAME.view(state, None)["first_drawer"] == 1
    assert drawn(events)[-2:] == [(1, "Lvl.5 Ancient Giant {4}"), (0, "Lvl.6 Fire Vampire {5}")]


# -- rallies and notation --------------------------------------------------------------------


def test_tribe_rally_once_per_card_persists_and_new_cards_join() -> None:
    """Four Wolves get +2 once; the bonus stays after one leaves; a new Wolf joins a standing rally."""
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Holy Wolf", "Lvl.1 Pirate", "Lvl.1 Giant"]
    wolves = ["Lvl.0 Holy Wolf", "Lvl.1 Fire Wolf", "Lvl.1 Ancient Wolf", "Lvl.1 Nightmare Wolf"]
    state = start([wolves, ["Lvl.1 Serpent"] * 3], deck)
    assert hand(state, 0) == ["Lvl.2 Holy Wolf! {2}", "Lvl.3 Fire Wolf! {2}", "Lvl.3 Ancient Wolf! {2}",
                              "Lvl.3 Nightmare Wolf! {2}", "Lvl.1 Skeleton {3}"]
    state, _ = duel(state, "Lvl.3 Fire Wolf! {2}", "Lvl.1 Serpent {0}")
    # turn 2: three rallied Wolves are left and a fourth is drawn: it joins (+2), the others stay as they were
    assert hand(state, 0) == ["Lvl.2 Holy Wolf! {2}", "Lvl.3 Ancient Wolf! {2}", "Lvl.3 Nightmare Wolf! {2}",
                              "Lvl.1 Skeleton {3}", "Lvl.3 Holy Wolf! {2}"]
    state, _ = duel(state, "Lvl.3 Ancient Wolf! {2}", "Lvl.1 Serpent {0}")
    # turn 3: only three Wolves remain; the bonus persists
    assert hand(state, 0) == ["Lvl.2 Holy Wolf! {2}", "Lvl.3 Nightmare Wolf! {2}", "Lvl.1 Skeleton {3}",
                              "Lvl.3 Holy Wolf! {2}", "Lvl.1 Pirate {3}"]
    levels = [c["level"] for c in GAME.view(state, 0)["hands"][0]["cards"]]
    assert levels == [2, 3, 1, 3, 1]
    rallies = [c["rally"] for c in GAME.view(state, 0)["hands"][0]["cards"]]
    assert rallies == [["tribe"], ["tribe"], [], ["tribe"], []]


def test_power_rally_notation() -> None:
    """Four Ancients of different tribes: +2 each, `!` after the Power Type."""
    state = start([["Lvl.4 Ancient Skeleton", "Lvl.1 Ancient Wolf", "Lvl.1 Ancient Giant", "Lvl.1 Ancient Dragon"],
                   ["Lvl.1 Serpent"]])
    assert hand(state, 0)[:4] == ["Lvl.6 Ancient! Skeleton {3}", "Lvl.3 Ancient! Wolf {2}",
                                  "Lvl.3 Ancient! Giant {4}", "Lvl.3 Ancient! Dragon {7}"]


def test_three_of_a_kind_is_no_rally() -> None:
    """Three matching cards give nothing."""
    state = start([["Lvl.1 Fire Wolf", "Lvl.1 Holy Wolf", "Lvl.1 Ancient Wolf"], ["Lvl.1 Serpent"]])
    assert hand(state, 0)[:3] == ["Lvl.1 Fire Wolf {2}", "Lvl.1 Holy Wolf {2}", "Lvl.1 Ancient Wolf {2}"]


def test_double_rally_gives_six() -> None:
    """Four Fire Wolves are in a Tribe and a Power rally at once: +6, both marks."""
    state = start([["Lvl.1 Fire Wolf", "Lvl.2 Fire Wolf", "Lvl.3 Fire Wolf", "Lvl.4 Fire Wolf"], ["Lvl.1 Serpent"]])
    assert hand(state, 0)[:4] == ["Lvl.7 Fire! Wolf! {2}", "Lvl.8 Fire! Wolf! {2}", "Lvl.9 Fire! Wolf! {2}",
                                  "Lvl.10 Fire! Wolf! {2}"]


def test_double_rally_totals_six_when_formed_in_two_steps() -> None:
    """A Wolf in a Tribe rally (+2) that later joins a Power rally ends at +6 in all, not +8."""
    mine = ["Lvl.1 Fire Wolf", "Lvl.1 Holy Wolf", "Lvl.1 Ancient Wolf", "Lvl.1 Nightmare Wolf",
            "Lvl.1 Fire Giant", "Lvl.1 Fire Dragon"]
    before = start([mine, ["Lvl.1 Serpent"]], ["Lvl.1 Skeleton", *fillers(3)])
    assert hand(before, 0)[0] == "Lvl.3 Fire Wolf! {2}"  # Tribe rally only: three Fire cards
    assert hand(before, 0)[4] == "Lvl.1 Fire Giant {4}"
    state = start([mine, ["Lvl.1 Serpent"]], ["Lvl.1 Fire Serpent", *fillers(3)])
    assert hand(state, 0) == ["Lvl.7 Fire! Wolf! {2}", "Lvl.3 Holy Wolf! {2}", "Lvl.3 Ancient Wolf! {2}",
                              "Lvl.3 Nightmare Wolf! {2}", "Lvl.3 Fire! Giant {4}", "Lvl.3 Fire! Dragon {7}",
                              "Lvl.3 Fire! Serpent {0}"]


def test_witch_rally_and_its_single_sinful_witch() -> None:
    """Four witches: +2 to witches only and one Sinful Witch; a Witch Rally formed again later grants none.

    The witches played only change HP, so the hands and draws stay as the test lays them out.
    """
    witches = ["Lvl.2 Blind Witch", "Lvl.1 The Witch Collector", "Lvl.1 Gluttonous Witch", "Lvl.1 Angry Witch",
               "Lvl.1 Fire Giant"]
    # seat 0 draws deck[0], deck[3], deck[4], deck[7] on turns 1-4
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Pirate", "Lvl.1 Holy Giant", "Lvl.1 Giant",
            "Lvl.1 Wolf", "Lvl.1 Cursed Witch", *fillers(4)]
    state = start([witches, ["Lvl.1 Serpent"] * 3], deck)
    cards = GAME.view(state, 0)["hands"][0]["cards"]
    assert [c["text"] for c in cards[:5]] == ["Lvl.4 Blind Witch! {3}", "Lvl.3 The Witch Collector! {3}",
                                              "Lvl.3 Gluttonous Witch! {3}", "Lvl.3 Angry Witch! {3}", "Lvl.1 Fire Giant {4}"]
    sinful = [c for c in cards if c["kind"] == "witch" and c["rarity"] == "sinful"]
    assert len(sinful) == 1
    assert sinful[0]["rally"] == ["witch"] and 9 <= sinful[0]["level"] <= 11
    assert sinful[0]["text"].endswith("! {3}")
    state, _ = duel(state, "Lvl.3 The Witch Collector! {3}", "Lvl.1 Serpent {0}")
    state, _ = duel(state, "Lvl.3 Gluttonous Witch! {3}", "Lvl.1 Serpent {0}")
    # turn 3: three witches are left (the rally has broken up); their bonus stays
    state, _ = duel(state, "Lvl.1 Fire Giant {4}", "Lvl.1 Serpent {0}")
    # turn 4: a fourth witch is drawn: a Witch Rally again, the newcomer joins, but no second Sinful Witch
    cards = GAME.view(state, 0)["hands"][0]["cards"]
    witch_cards = [c for c in cards if c["kind"] == "witch"]
    assert "Lvl.3 Cursed Witch! {3}" in [c["text"] for c in witch_cards]
    assert len(witch_cards) == 4
    assert sum(c["rarity"] == "sinful" for c in witch_cards) == 1
    assert "Lvl.4 Blind Witch! {3}" in [c["text"] for c in witch_cards]


def test_witches_do_not_count_toward_creature_rallies() -> None:
    """Three Holy creatures and a witch make no Power rally."""
    state = start([["Lvl.1 Holy Wolf", "Lvl.1 Holy Giant", "Lvl.1 Holy Dragon", "Lvl.1 Blind Witch"], ["Lvl.1 Serpent"]])
    assert hand(state, 0)[:4] == ["Lvl.1 Holy Wolf {2}", "Lvl.1 Holy Giant {4}", "Lvl.1 Holy Dragon {7}",
                                  "Lvl.1 Blind Witch {3}"]


def test_cooldown_notation() -> None:
    """A card on cooldown shows `: (1)` in its holder's view, and the view reports the cooldown."""
    state = start([["Lvl.3 Nightmare Wolf", "Lvl.1 Dragon"], ["Lvl.3 Nightmare Wolf", "Lvl.1 Giant"]])
    state, _ = duel(state, "Lvl.3 Nightmare Wolf {2}", "Lvl.3 Nightmare Wolf {2}")
    card = GAME.view(state, 0)["hands"][0]["cards"][slot(state, 0, "Lvl.3 Nightmare Wolf {2}: (1)")]
    assert card["cooldown"] == 1 and card["playable"] is False and card["banned"] is False


# -- MAYHEM and knockout ---------------------------------------------------------------------


def test_mayhem_after_one_final_duel() -> None:
    """The turn after the last draw has one duel without draws; then witches flee and hands hurt."""
    state = start([["Lvl.2 Fire Giant", "Lvl.5 Fire Dragon", "Lvl.1 Blind Witch"], ["Lvl.2 Fire Wolf", "Lvl.3 Fire Vampire"]],
                  ["Lvl.1 Fire Skeleton", "Lvl.1 Holy Pirate"], hp=10)
    assert GAME.view(state, None)["deck"] == 0 and GAME.view(state, None)["final_duel"] is False
    state, _ = duel(state, "Lvl.2 Fire Giant {4}", "Lvl.2 Fire Wolf {2}")
    view = GAME.view(state, None)
    assert GAME.outcome(state) is None
    assert view["turn"] == 2 and view["final_duel"] is True and view["hp"] == [10, 8]
    assert view["hands"][0]["count"] == 3 and view["hands"][1]["count"] == 2  # no draw on turn 2
    state, events = duel(state, "Lvl.1 Fire Skeleton {3}", "Lvl.3 Fire Vampire {5}")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.reason is OutcomeReason.MAYHEM
    # seat 0: 10 - 3 (lost) - 7 (Dragon in hand; the witch flees) = 0; seat 1: 8 - 3 (Pirate in hand)
    assert outcome.scores == (0, 5) and outcome.winner == 1
    assert events_of(events, "mayhem")
    assert not events_of(events, "draw")
    with pytest.raises(MatchOver):
        GAME.apply(state, 0, {"kind": "play", "slot": 0})


def test_mayhem_equal_hp_is_a_draw() -> None:
    """Equal HP after MAYHEM: no winner."""
    mine = ["Lvl.1 Fire Giant", "Lvl.1 Holy Wolf"]
    state = start([mine, mine], ["Lvl.1 Serpent", "Lvl.1 Serpent"])
    state, _ = duel(state, "Lvl.1 Fire Giant {4}", "Lvl.1 Fire Giant {4}")
    state, _ = duel(state, "Lvl.1 Holy Wolf {2}", "Lvl.1 Holy Wolf {2}")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is OutcomeReason.MAYHEM
    assert outcome.winner is None and outcome.scores == (24, 24)  # Giant 4 + Wolf 2 + Serpent 0 each


def test_mayhem_hp_may_go_negative() -> None:
    """MAYHEM damage is not capped and is not a knockout: HP compare below zero."""
    state = start([["Lvl.1 Serpent", "Lvl.1 Dragon", "Lvl.2 Dragon"], ["Lvl.1 Serpent", "Lvl.1 Serpent"]],
                  ["Lvl.1 Serpent", "Lvl.1 Serpent"], hp=3)
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.1 Serpent {0}")
    state, _ = duel(state, "Lvl.1 Serpent {0}", "Lvl.1 Serpent {0}")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason is OutcomeReason.MAYHEM
    assert outcome.scores == (-11, 3) and outcome.winner == 1
    assert GAME.view(state, None)["hp"] == [-11, 3]


@pytest.mark.parametrize("hp", [3, 4])
def test_knockout_at_zero_or_below_ends_the_match(hp: int) -> None:
    """HP <= 0 after a duel ends the match at once; nothing more is accepted."""
    state = start([["Lvl.1 Fire Giant", "Lvl.1 Serpent"], ["Lvl.1 Fire Dragon", "Lvl.1 Serpent"]], hp=hp)
    state, _ = duel(state, "Lvl.1 Fire Giant {4}", "Lvl.1 Fire Dragon {7}")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.reason is OutcomeReason.KNOCKOUT and outcome.winner == 1
    assert outcome.scores == (hp - 4, hp)
    assert GAME.view(state, None)["phase"] == "over"
    assert GAME.legal(state, 0) == [] and GAME.legal(state, 1) == []
    for seat in (0, 1):
        with pytest.raises(MatchOver):
            GAME.apply(state, seat, {"kind": "play", "slot": 0})


def test_no_knockout_above_zero() -> None:
    """One HP left: the match goes on."""
    state = start([["Lvl.1 Fire Giant"], ["Lvl.1 Fire Dragon"]], hp=5)
    state, _ = duel(state, "Lvl.1 Fire Giant {4}", "Lvl.1 Fire Dragon {7}")
    assert GAME.outcome(state) is None and GAME.view(state, None)["hp"] == [1, 5]


# -- errors ----------------------------------------------------------------------------------


def test_playing_twice_is_not_your_turn() -> None:
    """A seat that has locked in cannot lock in again."""
    state = start([["Lvl.1 Dragon", "Lvl.2 Dragon"], ["Lvl.1 Giant"]])
    state, _ = GAME.apply(state, 0, {"kind": "play", "slot": 0})
    assert GAME.legal(state, 0) == []
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 0, {"kind": "play", "slot": 1})


def test_unknown_seat_is_not_your_turn() -> None:
    """Only seats 0 and 1 exist."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 2, {"kind": "play", "slot": 0})


@pytest.mark.parametrize("bad", [99, 2, -1, "0", 1.0, True, None])
def test_bad_slot_is_illegal(bad: Any) -> None:
    """A slot outside the hand, or not an int, is illegal and the message names the slot."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])  # two cards in hand after the draw
    with pytest.raises(IllegalDecision, match="slot") as info:
        GAME.apply(state, 0, {"kind": "play", "slot": bad})
    assert repr(bad) in info.value.message


def test_missing_slot_is_illegal() -> None:
    """A play with no slot is illegal."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])
    with pytest.raises(IllegalDecision, match="slot"):
        GAME.apply(state, 0, {"kind": "play"})


@pytest.mark.parametrize("kind", ["draw", None, 3])
def test_unknown_kind_is_illegal(kind: Any) -> None:
    """An unknown decision kind is illegal and named in the message."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])
    with pytest.raises(IllegalDecision) as info:
        GAME.apply(state, 0, {"kind": kind, "slot": 0})
    assert repr(kind) in info.value.message


def test_cooldown_card_is_illegal() -> None:
    """Playing a cooling card names the card and its cooldown."""
    state = start([["Lvl.3 Fire Giant"], ["Lvl.4 Fire Pirate"]])
    state, _ = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.4 Fire Pirate {3}")
    with pytest.raises(IllegalDecision) as info:
        GAME.apply(state, 0, {"kind": "play", "slot": slot(state, 0, "Lvl.3 Fire Giant {4}: (1)")})
    assert "Lvl.3 Fire Giant {4}" in info.value.message and "cooldown" in info.value.message


def test_errors_leave_the_state_unchanged() -> None:
    """A rejected decision changes nothing (the state is immutable)."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])
    before = GAME.dump(state)
    with pytest.raises(IllegalDecision):
        GAME.apply(state, 0, {"kind": "play", "slot": 9})
    assert GAME.dump(state) == before


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"hp": 0}, "hp"),
        ({"hp": True}, "hp"),
        ({"hp": "30"}, "hp"),
        ({"hand_size": 21}, "hand_size"),
        ({"witches": -1}, "witches"),
        ({"first_drawer": 2}, "first_drawer"),
        ({"first_drawer": 1.0}, "first_drawer"),
        ({"first_drawer": True}, "first_drawer"),
        ({"deck": "Lvl.1 Wolf"}, "deck"),
        ({"deck": [1]}, "deck"),
        ({"deck": ["Lvl.3 Water Giant"]}, "deck"),
        ({"deck": ["Lvl.x Giant"]}, "deck"),
        ({"hands": [[]]}, "hands"),
        ({"hands": [["Lvl.1 Wolf"], 5]}, "hands"),
        ({"hands": [["Lvl.3 Nobody Special"], []]}, "hands"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_name_the_option(options: dict[str, Any], name: str) -> None:
    """Options the game cannot set up with raise BadOptions naming the option."""
    with pytest.raises(BadOptions) as info:
        GAME.setup(options, 1)
    assert repr(name) in info.value.message


# -- versions --------------------------------------------------------------------------------


def test_version_increases_by_one_per_decision_and_opened_tracks_the_duel() -> None:
    """Each applied decision adds exactly one; `opened` stays put until the duel resolves."""
    state = start([["Lvl.1 Dragon", "Lvl.2 Dragon"], ["Lvl.1 Giant", "Lvl.2 Giant"]])
    assert GAME.version(state) == 0 and GAME.opened(state, 0) == GAME.opened(state, 1) == 0
    state, _ = GAME.apply(state, 0, {"kind": "play", "slot": 0})
    assert GAME.version(state) == 1
    assert GAME.opened(state, 0) == 0 and GAME.opened(state, 1) == 0
    assert GAME.view(state, 1)["locked"] == [True, False]
    assert "locked_card" not in GAME.view(state, 1)
    assert GAME.view(state, 0)["locked_card"]["text"] == "Lvl.1 Dragon {7}"
    state, _ = GAME.apply(state, 1, {"kind": "play", "slot": 0})
    assert GAME.version(state) == 2
    assert GAME.opened(state, 0) == 2 and GAME.opened(state, 1) == 2
    state, _ = GAME.apply(state, 1, {"kind": "play", "slot": 0})
    assert GAME.version(state) == 3 and GAME.opened(state, 0) == 2
    state, _ = GAME.apply(state, 0, {"kind": "play", "slot": 0})
    assert GAME.version(state) == 4 and GAME.opened(state, 1) == 4


def test_rejected_decision_does_not_bump_version() -> None:
    """An error raises before any new state exists; the old version stands."""
    state = start([["Lvl.1 Dragon"], ["Lvl.1 Giant"]])
    with pytest.raises(IllegalDecision):
        GAME.apply(state, 0, {"kind": "nope"})
    assert GAME.version(state) == 0


def test_setup_is_deterministic_and_seeded() -> None:
    """The same seed deals the same match; another seed deals another."""
    a = GAME.dump(GAME.setup({}, 42))
    assert a == GAME.dump(GAME.setup({}, 42))
    assert a != GAME.dump(GAME.setup({}, 43))


def test_default_setup_matches_the_rules() -> None:
    """52 cards: one creature per Tribe and level 1-6, 10 witches; 5 cards each plus turn 1's draw; 30 HP."""
    state = GAME.setup({}, 5)
    view = GAME.view(state, None)
    assert view["hp"] == [30, 30] and view["turn"] == 1
    assert [h["count"] for h in view["hands"]] == [6, 6]
    assert view["deck"] == 52 - 12
    every = [*state.deck, *state.hands[0], *state.hands[1]]
    creatures = [c for c in every if not c.is_witch]
    assert len(creatures) == 42
    assert len({c.tribe for c in creatures}) == 7
    assert all(c.ptype is not None for c in creatures)
    unrallied = {(c.tribe, c.level) for c in state.deck if not c.is_witch}
    assert all(1 <= level <= 6 for _, level in unrallied)
    assert sum(c.is_witch for c in every) == 10 + sum(state.witch_rallied)


def test_rally_events_are_told_only_to_their_holder() -> None:
    """A rally in a hidden hand is private: the opponent and spectators are not told of it."""
    from engine.interface import redact_all

    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Holy Wolf", "Lvl.1 Pirate", "Lvl.1 Giant"]
    wolves = ["Lvl.0 Holy Wolf", "Lvl.1 Fire Wolf", "Lvl.1 Ancient Wolf", "Lvl.1 Nightmare Wolf"]
    state = start([wolves, ["Lvl.1 Serpent"] * 3], deck)
    _, events = duel(state, "Lvl.3 Fire Wolf! {2}", "Lvl.1 Serpent {0}")
    assert [e for e in redact_all(events, 0) if e["kind"] == "rally"]
    assert not [e for e in redact_all(events, 1) if e["kind"] == "rally"]
    assert not [e for e in redact_all(events, None) if e["kind"] == "rally"]
    assert len(redact_all(events, 1)) == len(events) - 1

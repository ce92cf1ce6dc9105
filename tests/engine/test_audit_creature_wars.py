"""Creature Wars against its sources, point by point: each test quotes the line it follows."""
from __future__ import annotations

from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import Event, redact_all
from tests.engine.scenario import duel, events_of, hand, play, start
from tests.engine.test_properties import check_conservation, check_rally_marks
from tests.engine.witches.helpers import answer, witch_duel


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees."""
    shown: dict[str, Any] = GAME.view(state, seat)
    return shown


def told(events: list[Event], seat: int | None) -> str:
    """Everything ``seat`` is told of ``events``, as one string."""
    return " ".join(str(e) for e in redact_all(events, seat))


def test_pass_cancels_everything() -> None:
    """RULINGS: "If one player passes, the other card goes back to its owner's hand with no cooldown and
    nothing else happens." A witch played against a pass casts nothing."""
    deck = ["Lvl.3 Fire Giant", "Lvl.2 Holy Wolf", "Lvl.1 Skeleton"]
    state = start([[], ["Lvl.4 Fire Pirate", "Lvl.2 The Witch Collector"]], deck)
    state, _ = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.4 Fire Pirate {3}")  # a tie: the Giant cools down
    assert view(state, 0)["passed"] == [True, False]
    state, events = play(state, 1, "Lvl.2 The Witch Collector {3}")
    assert view(state)["hp"] == [30, 30]
    assert events_of(events, "damage") == [] and events_of(events, "heal") == []
    assert events_of(events, "witch") == []  # nothing is cast
    assert "Lvl.2 The Witch Collector {3}" in hand(state, 1)  # back in hand, no cooldown
    assert {"kind": "play", "slot": hand(state, 1).index("Lvl.2 The Witch Collector {3}")} in GAME.legal(state, 1)
    assert view(state)["last_duel"]["damage"] == [0, 0]


def test_first_to_zero_hp_loses() -> None:
    """Source: "Whoever loses all their HP first loses". A knockout ends the match at the step that makes it,
    even in the middle of a duel: no heal afterwards, and a later fall of the other Empire does not count."""
    # seat 1 falls to The Witch Collector's cast; seat 1's own witch would heal it back before the fight
    state = start([["Lvl.1 The Witch Collector"], ["Lvl.4 Gluttonous Witch"]], hp=3)
    state, events = duel(state, "Lvl.1 The Witch Collector {3}", "Lvl.4 Gluttonous Witch {3}")
    outcome = view(state)["outcome"]
    assert outcome is not None and outcome["winner"] == 0 and outcome["reason"] == "knockout"
    assert view(state)["hp"] == [3, 0]
    assert [e.kind for e in events][-1] == "over"
    # the example: Giantfall Witch takes seat 1 to 0, then the fight takes seat 0 to 0 as well
    deck = ["Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Serpent", "Lvl.1 Skeleton"]
    giants = ["Lvl.1 Giant", "Lvl.2 Giant", "Lvl.3 Giant"]
    state = start([["Lvl.1 Dragon", "Lvl.7 Giantfall Witch", *giants], ["Lvl.6 Dragon", "Lvl.5 Dragon"]], deck, hp=10)
    state, _ = duel(state, "Lvl.1 Dragon {7}", "Lvl.6 Dragon {7}")
    assert view(state)["hp"] == [3, 10]
    state, _ = duel(state, "Lvl.7 Giantfall Witch {3}", "Lvl.5 Dragon {7}")
    outcome = view(state)["outcome"]
    assert outcome is not None and outcome["winner"] == 0, outcome
    assert view(state)["hp"] == [3, 0]  # the fight that would have hurt seat 0 never came
    # a draw that costs HP: The Witch of Tantalus' thirst takes seat 1's last HP at turn 2's draw; no duel follows
    state = start([["Lvl.7 The Witch of Tantalus", "Lvl.1 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]], hp=1)
    state, events = duel(state, "Lvl.7 The Witch of Tantalus {3}", "Lvl.1 Serpent {0}")
    outcome = view(state)["outcome"]
    assert outcome is not None and outcome["winner"] == 0 and view(state)["turn"] == 2
    assert GAME.legal(state, 0) == [] and GAME.legal(state, 1) == []
    kinds = [e.kind for e in events]
    assert set(kinds[kinds.index("over"):]) <= {"over", "draw"}  # the thirsty draw itself still lands in hand


def test_refilled_deck_is_not_fully_drawn() -> None:
    """Source: "If the deck is fully drawn before either player loses, the creatures turn feral and mayhem ensues."
    The trigger is an empty deck: cards an effect puts into an emptied deck are drawn before the final duel."""
    # turn 1's two draws empty the deck; the Jesting Witch then puts 3 cards on top of it
    state = start([["Lvl.2 Jesting Witch", "Lvl.1 Wolf"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]],
                  ["Lvl.1 Skeleton", "Lvl.1 Pirate"])
    state, _ = duel(state, "Lvl.2 Jesting Witch {3}", "Lvl.1 Serpent {0}")
    shown = view(state)
    assert shown["turn"] == 2 and shown["outcome"] is None
    assert shown["final_duel"] is False and shown["deck"] == 1  # turn 2 drew two of the three
    assert len(hand(state, 0)) == 3 and len(hand(state, 1)) == 4  # the Serpent came back from the witch
    # the refilled deck runs out in turn 3: turn 4 is the final duel, then MAYHEM
    state, _ = duel(state, "Lvl.1 Wolf {2}", "Lvl.2 Serpent {0}")
    assert view(state)["turn"] == 3 and view(state)["deck"] == 0 and view(state)["final_duel"] is False
    assert not view(state)["outcome"]


def test_hidden_hands_stay_hidden() -> None:
    """RULINGS: "a player sees ... what that player may see; a spectator only what every player may see." Witch of
    the Chosen Legion's ruling: "The chosen Tribe and the creatures are hidden from the opponent." The Wishing Witch's
    granted Tribe (the one its holder holds most of) is its holder's alone."""
    state, events = witch_duel("Lvl.4 Witch of the Chosen Legion", "Lvl.1 Serpent")
    state, more = answer(state, 0, 1)  # Skeleton
    events += more
    assert sum("Skeleton" in text for text in hand(state, 0)) >= 2
    told_of = [e for e in events if e.kind in ("answer", "gain")]  # the cast's own text names all three
    assert "Skeleton" in told(told_of, 0)
    for other in (1, None):
        assert "Skeleton" not in told(told_of, other), told(told_of, other)
    # Wishing Witch: seat 0 holds Wolves; its next draw is replaced by a Wolf, which only seat 0 learns
    state, events = witch_duel("Lvl.4 Wishing Witch", "Lvl.1 Serpent", hands=[["Lvl.1 Wolf", "Lvl.2 Wolf"], []])
    state, more = duel(state, "Lvl.1 Wolf {2}", "Lvl.1 Serpent {0}")
    events += more
    assert [e.kind for e in events].count("wish") == 1
    assert "Wolf" in str(redact_all(events_of(events, "wish"), 0))
    for other in (1, None):
        assert "Wolf" not in str(redact_all(events_of(events, "wish"), other))
        assert "Wolf" not in told(events_of(events, "draw"), other)


def test_no_card_vanishes() -> None:
    """Source: "After the fight, both creatures are __discarded__"; Pandora's Witch: "Those witches flee afterwards."
    Every card, made ones included, is in exactly one zone: the witch a Which Witch becomes while Pandora's Witch
    casts it from a hand flees to the discard pile with the rest."""
    for seed in range(1, 9):
        state, _ = witch_duel("Lvl.5 Pandora's Witch", "Lvl.1 Serpent", hands=[[], ["Lvl.2 Which Witch"]], seed=seed)
        check_conservation(state, GAME.setup({"deck": list(state.options.deck or ()),
                                              "hands": [list(h) for h in state.options.hands or ((), ())],
                                              "first_drawer": 0}, seed))
        shown = view(state)
        made = [c for c in shown["discard"] if c["kind"] == "witch" and c["name"] not in ("Pandora's Witch",)]
        assert made, f"seed {seed}: the witch Which Witch became is nowhere: {shown['discard']}"


def test_rally_marks_on_played_cards() -> None:
    """Source: "Rallies are denoted with a `!` after the Power Type or the Tribe"; the rules doc: "Rallies are private:
    the opponent and spectators are not told of them at all". A played card shows the table its level but no `!`
    mark and no rally list; only its holder's hand shows them."""
    deck = ["Lvl.1 Skeleton", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Holy Wolf", "Lvl.1 Pirate", "Lvl.1 Giant"]
    wolves = ["Lvl.0 Holy Wolf", "Lvl.1 Fire Wolf", "Lvl.1 Ancient Wolf", "Lvl.1 Nightmare Wolf"]
    state = start([wolves, ["Lvl.1 Serpent"] * 3], deck)
    mine = view(state, 0)["hands"][0]["cards"][1]
    assert mine["text"] == "Lvl.3 Fire Wolf! {2}" and mine["rally"] == ["tribe"]  # the holder sees its rally
    state, events = duel(state, "Lvl.3 Fire Wolf! {2}", "Lvl.1 Serpent {0}")
    for seat in (0, 1, None):
        shown = view(state, seat)
        played = shown["last_duel"]["cards"][0]
        assert played["text"] == "Lvl.3 Fire Wolf {2}" and played["rally"] == [] and played["level"] == 3
        assert [c["text"] for c in shown["discard"]] == ["Lvl.3 Fire Wolf {2}", "Lvl.1 Serpent {0}"]
        check_rally_marks(shown)
        assert "Wolf!" not in told(events_of(events, "reveal") + events_of(events, "fight"), seat)


def test_empires_falling_at_one_moment_compare_hp() -> None:
    """The ruling for a truly simultaneous fall: the Lusting Witch's "battle" hits both Empires at once ("You take
    damage from the small one and your opponent takes damage from the big one"); both fall in it, so the higher
    HP wins (seat 0 at 0 beats seat 1 at -4), though seat 0's hit is named first."""
    state, _ = witch_duel("Lvl.4 Lusting Witch", "Lvl.1 Serpent", hands=[["Lvl.1 Dragon"], ["Lvl.1 Skeleton"]], hp=3)
    outcome = view(state)["outcome"]
    assert outcome is not None and outcome["reason"] == "knockout"
    assert view(state)["hp"] == [0, -4] and outcome["winner"] == 0

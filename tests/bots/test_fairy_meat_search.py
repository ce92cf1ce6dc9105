"""The strong Fairy Meat bot: its worlds agree with the view they come from, owe nothing to the real state's
hidden cards, and it beats random play."""
from __future__ import annotations

import random
from typing import Any

import pytest

from bots import make
from bots.fairy_meat import SearchBot, world
from engine.fairy_meat import GAME
from engine.fairy_meat.state import State, dump
from tests.bots.matches import bot_match, random_states

SEEN = ("version", "phase", "duel", "wins", "round", "order", "turn", "turn_fairy", "fairies", "combat", "waiting_for",
        "locked", "last", "spoils", "spoils_top", "deck", "hand", "my_face_down", "my_choice", "outcome", "options")
"""What a world must show its seat exactly as the real state did."""


def _bare(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Legal decisions without their labels (a label previews a result, so it may tell an unseen card)."""
    return [{k: v for k, v in d.items() if k != "label"} for d in legal]


def _states(seed: int, options: dict[str, Any], plays: int = 400) -> list[State]:
    """The states of a random match, one per decision."""
    return random_states(GAME, seed, options, plays)


def test_a_world_shows_its_seat_what_the_real_state_showed() -> None:
    """At every decision of random matches (one fairy a side, and bands over three duels), for the seat that
    decides: the world's view equals the real one on everything the seat sees, its legal decisions included."""
    checked = 0
    phases: set[str] = set()
    for options, seeds in (({}, range(10)), ({"band": 2, "best_of": 3}, range(2))):
        for seed in seeds:
            for state in _states(seed, options):
                for seat in (0, 1):
                    shown = GAME.view(state, seat)
                    if not shown["legal"]:
                        continue
                    sampled = GAME.view(world(shown, random.Random(seed)), seat)
                    assert {k: sampled[k] for k in SEEN} == {k: shown[k] for k in SEEN}
                    assert _bare(sampled["legal"]) == _bare(shown["legal"])
                    checked += 1
                    phases.add(shown["phase"])
    assert checked > 500
    assert {"setup", "action", "declare", "trumps", "numbered", "reveal", "damage"} <= phases


def _hidden_swapped(state: State, seat: int) -> State:
    """The same table as ``seat`` sees it, the unseen cards dealt otherwise: the other combat hand traded for the
    top of the deck, the deck reversed."""
    other = state.clone()
    assert other.combat is not None
    theirs = other.combat.sides[1 - seat]
    n = len(theirs.hand)
    theirs.hand, other.deck = other.deck[:n], list(reversed(other.deck[n:] + theirs.hand))
    return other


def _mid_combat(seed: int, seat: int) -> State:
    """A state of a random match where ``seat`` chooses its Trumps and the other seat holds cards."""
    for state in _states(seed, {}):
        c = state.combat
        if (c is not None and GAME.view(state, seat)["phase"] == "trumps" and GAME.legal(state, seat)
                and c.sides[1 - seat].hand and len(state.deck) > len(c.sides[1 - seat].hand)):
            return state
    raise AssertionError("no such state")


def test_a_world_owes_nothing_to_the_real_hidden_cards() -> None:
    """Two real states that differ only in what the seat cannot see give one view, hence one world (for one
    seed) and one decision; and the worlds of one view deal the other hand differently from seed to seed."""
    for seed in range(6):
        seat = seed % 2
        real = _mid_combat(seed, seat)
        twin = _hidden_swapped(real, seat)
        assert real.combat is not None and twin.combat is not None
        assert real.combat.sides[1 - seat].hand != twin.combat.sides[1 - seat].hand and real.deck != twin.deck
        shown, twin_shown = GAME.view(real, seat), GAME.view(twin, seat)
        assert shown == twin_shown
        assert dump(world(shown, random.Random(5))) == dump(SearchBot.world(twin_shown, random.Random(5)))
        assert SearchBot(seed).decide(shown) == SearchBot(seed).decide(twin_shown)
        guesses = set()
        for n in range(8):
            sampled = world(shown, random.Random(n)).combat
            assert sampled is not None
            guesses.add(tuple(sampled.sides[1 - seat].hand))
        assert len(guesses) > 1  # a guess, not the real hand


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
def test_the_strong_bot_beats_random_play() -> None:
    """Forty fixed deals, seats swapped every other one (the full measure is ``python -m bench.bots``): random
    play wins about half (15 of these 40 against another random player); the strong bot must win at least 28."""
    wins = 0
    for seed in range(40):
        strong = seed % 2
        seats = {strong: make("fairy_meat", "strong", seed), 1 - strong: make("fairy_meat", "random", seed)}
        wins += bot_match(GAME, 2000 + seed, seats, 2000) == strong
    assert wins >= 28

"""The strong Creature Wars bot: its worlds agree with the view they come from, and it beats random play."""
from __future__ import annotations

import random
from typing import Any

from bots import make
from bots.creature_wars import world
from engine.creature_wars import GAME
from tests.bots.matches import bot_match, random_states

SEEN = ("hands", "hp", "turn", "deck", "discard", "first_drawer", "version", "locked", "final_duel")
"""What a world must show its seat exactly as the real state did."""


def _states(seed: int, plays: int) -> list[Any]:
    """The states of a random match, one per decision, up to ``plays`` decisions."""
    return random_states(GAME, seed, {}, plays)


def test_a_world_shows_its_seat_what_the_real_state_showed() -> None:
    checked = 0
    for seed in range(12):
        for state in _states(seed, 30):
            if state.modifiers or state.pending is not None:
                continue  # a world leaves modifiers out: only their text is in the view
            for seat in (0, 1):
                shown = GAME.view(state, seat)
                sampled = GAME.view(world(shown, random.Random(seed)), seat)
                assert {k: sampled[k] for k in SEEN} == {k: shown[k] for k in SEEN}
                checked += 1
    assert checked > 200


def test_worlds_deal_the_unseen_cards_differently() -> None:
    shown = GAME.view(_states(3, 6)[-1], 0)
    others = {tuple(c.uid for c in world(shown, random.Random(n)).hands[1]) for n in range(8)}
    assert len(others) > 1  # a guess, not the real hand


def test_the_strong_bot_beats_random_play() -> None:
    """Twenty fixed deals, seats swapped every other one (the full measure is ``python -m bench.bots``)."""
    wins = 0
    for seed in range(20):
        strong = seed % 2
        seats = {strong: make("creature_wars", "strong", seed), 1 - strong: make("creature_wars", "random", seed)}
        wins += bot_match(GAME, 1000 + seed, seats, 400) == strong
    assert wins >= 14

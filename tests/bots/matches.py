"""Matches straight through a game's engine, for the bot tests: random ones state by state, and bots against bots."""
from __future__ import annotations

import random
from typing import Any

from bots import Bot
from engine.interface import Game


def random_states(game: Game, seed: int, options: dict[str, Any], plays: int) -> list[Any]:
    """The states of a random match of ``game``, one per decision, up to ``plays`` decisions."""
    rng = random.Random(seed)
    state = game.setup(options, seed)
    out = [state]
    for _ in range(plays):
        movers = [s for s in (0, 1) if game.legal(state, s)]
        if game.outcome(state) is not None or not movers:
            break
        mover = rng.choice(movers)
        state, _ = game.apply(state, mover, dict(rng.choice(list(game.legal(state, mover)))))
        out.append(state)
    return out


def bot_match(game: Game, seed: int, seats: dict[int, Bot], bound: int) -> int | None:
    """A match between two bots, each handed its own seat's view only; the winner (None for a draw)."""
    state = game.setup({}, seed)
    for _ in range(bound):
        if game.outcome(state) is not None:
            break
        mover = next(s for s in (0, 1) if game.legal(state, s))
        state, _ = game.apply(state, mover, seats[mover].decide(game.view(state, mover)))
    outcome = game.outcome(state)
    assert outcome is not None, f"no outcome within {bound} decisions"
    return outcome.winner

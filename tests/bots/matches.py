"""Random matches straight through a game's engine, for the bot tests: every state on the way."""
from __future__ import annotations

import random
from typing import Any

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

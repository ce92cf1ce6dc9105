"""Bots against bots, engine-locally: win rates with 95% intervals per pairing and game.

    python -m bench.bots --matches 1000 --jobs 2

Each bot is handed only ``game.view(state, seat)`` for its own seat, exactly what a client of that seat
receives; seats are swapped every other match. Pairings: random vs random, strong vs random, strong vs
strong. Prints figures only.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bots import make
from engine import registry

__all__ = ["main"]

GAMES = ("creature_wars", "fairy_meat")
PAIRINGS = (("random", "random"), ("strong", "random"), ("strong", "strong"))
BOUND = 5000
"""Decisions before a match counts as endless."""


@dataclass(frozen=True)
class Tally:
    """How the first-named bot fared."""

    wins: int
    losses: int
    draws: int
    seconds: float


def play(game_name: str, first: str, second: str, seed: int) -> int | None:
    """One match; 0 if ``first`` won, 1 if ``second`` did, None for a draw (or an endless match)."""
    game = registry.get(game_name)
    assert game is not None
    swapped = seed % 2 == 1
    levels = (second, first) if swapped else (first, second)
    bots = [make(game_name, level, f"{seed}:{n}") for n, level in enumerate(levels)]
    state = game.setup({}, seed)
    for _ in range(BOUND):
        if game.outcome(state) is not None:
            break
        mover = next((s for s in range(2) if game.legal(state, s)), None)
        if mover is None:
            return None
        state, _ = game.apply(state, mover, bots[mover].decide(game.view(state, mover)))
    outcome = game.outcome(state)
    if outcome is None or outcome.winner is None:
        return None
    return int(outcome.winner != (1 if swapped else 0))


def _batch(args: tuple[str, str, str, range]) -> list[int | None]:
    game, first, second, seeds = args
    return [play(game, first, second, seed) for seed in seeds]


def run(game: str, first: str, second: str, matches: int, jobs: int) -> Tally:
    started = time.monotonic()
    chunks = [range(start, min(matches, start + 50)) for start in range(0, matches, 50)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = [r for batch in pool.map(_batch, [(game, first, second, c) for c in chunks]) for r in batch]
    return Tally(results.count(0), results.count(1), results.count(None), time.monotonic() - started)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (draws count half)."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches per pairing and game (default 1000)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--game", action="append", choices=GAMES, help="only this game (repeatable)")
    args = parser.parse_args(argv)
    for game in args.game or GAMES:
        for first, second in PAIRINGS:
            tally = run(game, first, second, args.matches, args.jobs)
            n = tally.wins + tally.losses + tally.draws
            score = tally.wins + tally.draws / 2
            low, high = wilson(score, n)
            print(f"{game}: {first} vs {second}: {first} scores {100 * score / n:.1f}% "
                  f"(95% interval {100 * low:.1f} to {100 * high:.1f}%) over {n} matches: {tally.wins} won, "
                  f"{tally.losses} lost, {tally.draws} drawn · {tally.seconds:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Swiss events: how long pairing a round of a 1,000-player Swiss takes.

    python -m bench.events --players 1000 --rounds 9

Pure Python, no server: ``--players`` players play ``--rounds`` rounds of random results (draws one time in ten);
before each round the standings are computed from every result so far (server/lobby/swiss.py, in exact
fractions) and the round is paired (no rematch, the bye to the lowest-ranked player without one). Each round's
standings and pairing times are printed, with the rematches the pairing had to allow (0 unless none could be
avoided).
"""
from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

from server.lobby.swiss import Result, pair_round, standings

__all__ = ["main"]

HALF = Fraction(1, 2)


def bench(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    results: list[Result] = []
    met: dict[str, set[str]] = {p: set() for p in names}
    had_bye: set[str] = set()
    for r in range(1, rounds + 1):
        t0 = time.perf_counter()
        ranked = [s.player for s in standings(names, results)]
        t1 = time.perf_counter()
        plan = pair_round(ranked, {p: frozenset(o) for p, o in met.items()}, frozenset(had_bye))
        t2 = time.perf_counter()
        print(f"round {r}: standings of {players} players {1000 * (t1 - t0):.1f} ms; pairing "
              f"{1000 * (t2 - t1):.1f} ms ({len(plan.tables)} tables, bye {plan.bye or '-'}, "
              f"{plan.rematches} rematches)")
        for a, b in plan.tables:
            met[a].add(b)
            met[b].add(a)
            roll = rng.random()
            points = (HALF, HALF) if roll < 0.1 else (Fraction(1), Fraction(0)) if roll < 0.55 else (Fraction(0), Fraction(1))
            results.append(Result(r, (a, b), points, points, 1))
        if plan.bye is not None:
            had_bye.add(plan.bye)
            results.append(Result(r, (plan.bye, ""), (Fraction(1), Fraction(0)), (Fraction(1), Fraction(0)), 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bench(args.players, args.rounds, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

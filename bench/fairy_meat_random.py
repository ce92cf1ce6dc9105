"""Random Fairy Meat matches through the engine's interface: that every one ends, and how long they last.

    python -m bench.fairy_meat_random --matches 2000

Each match draws its options (bands of 1-3 fairies, best of 1 or 3, the stacking and damage
options, sometimes a tiny scenario deck that rarely scores) and its seed from ``--seed``;
both seats take random legal decisions, and now and then a timed seat lets its time run out.
A match that runs past ``--bound`` decisions is counted as a stall. Prints figures only: the
rounds and decisions per match (median, 90th and 99th percentile, maximum), how matches ended
(knockout or round limit, drawn), and the stalls.
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from engine.fairy_meat import GAME
from engine.fairy_meat.cards import full_pack
from engine.fairy_meat.state import State
from engine.interface import Decision

__all__ = ["main", "options_for", "play"]


def options_for(rnd: random.Random) -> dict[str, Any]:
    """A random room: mostly real decks, sometimes a tiny scenario deck."""
    out: dict[str, Any] = {"band": rnd.choice([1, 1, 2, 3]), "best_of": rnd.choice([1, 1, 3])}
    if rnd.random() < 0.15:
        out["deck"] = [rnd.choice([*full_pack(), "JK1"]) for _ in range(rnd.randint(2, 16))]
        return out
    out["trumps"] = rnd.choice(["normal", "more", "fewer"])
    out["numbered"] = rnd.choice(["normal", "extreme", "median"])
    out["damage_scale"] = rnd.choice(["halved", "tiered"])
    out["spoils"] = rnd.choice(["heap", "reshuffle"])
    out["split_points"] = rnd.random() < 0.3
    return out


def play(options: dict[str, Any], seed: int, rnd: random.Random, bound: int) -> tuple[State, int]:
    """One match to its end (or ``bound`` decisions): the last state and the decisions taken."""
    state: State = GAME.setup(options, seed)
    steps = 0
    while GAME.outcome(state) is None and steps < bound:
        seat = rnd.choice([s for s in (0, 1) if GAME.legal(state, s)])
        timed = GAME.timer(state)
        decision: Decision
        if timed is not None and timed[0] == seat and rnd.random() < 0.05:
            decision = {"kind": "timeout"}
        else:
            decision = {k: v for k, v in rnd.choice(list(GAME.legal(state, seat))).items() if k != "label"}
        state, _ = GAME.apply(state, seat, decision)
        steps += 1
    return state, steps


def _spread(values: list[int]) -> str:
    ordered = sorted(values)

    def at(q: float) -> int:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"median {at(0.5)}, p90 {at(0.9)}, p99 {at(0.99)}, max {ordered[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bound", type=int, default=20000, help="decisions after which a match counts as a stall")
    args = parser.parse_args()
    rnd = random.Random(args.seed)
    rounds: list[int] = []
    steps_taken: list[int] = []
    ends: Counter[str] = Counter()
    by_band: dict[int, list[int]] = {}
    stalls = 0
    started = time.perf_counter()
    for _ in range(args.matches):
        options = options_for(rnd)
        state, steps = play(options, rnd.getrandbits(63), rnd, args.bound)
        outcome = GAME.outcome(state)
        if outcome is None:
            stalls += 1
            continue
        rounds.append(state.round)
        steps_taken.append(steps)
        by_band.setdefault(state.options.band, []).append(state.round)
        limit = "round limit" in (outcome.detail or "")
        ends[("round limit" if limit else "knockout") + (", drawn" if outcome.winner is None else "")] += 1
    took = time.perf_counter() - started
    print(f"{args.matches} random Fairy Meat matches in {took:.1f} s; stalls (over {args.bound} decisions): {stalls}")
    if rounds:
        print(f"rounds in the last duel: {_spread(rounds)}")
        print(f"decisions per match: {_spread(steps_taken)}")
        for band in sorted(by_band):
            print(f"  band {band}: {len(by_band[band])} matches, rounds {_spread(by_band[band])}")
        print("ended by: " + ", ".join(f"{kind} {n}" for kind, n in sorted(ends.items())))


if __name__ == "__main__":
    main()

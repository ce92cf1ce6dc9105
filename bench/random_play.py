"""Random-play benchmark: full matches of every game straight through its pure engine, no server.

    python -m bench.random_play                          # 2000 matches of each game
    python -m bench.random_play --matches 200 --game fairy_meat --bound 5000
    python -m bench.random_play --game fairy_tableau --careful   # no play marked "loses" while others exist

Each match sets a game up with its default options and a seed (the match's number plus
``--seed``), then, until it has an outcome, picks a seat that has legal decisions and one
of them at random (``random.Random`` seeded like the match) and applies it. A match ends
as a **crash** (any exception from the engine), a **stall** (no outcome, yet no seat has
anything legal), **endless** (more than ``--bound`` decisions), or with its outcome. For
each game it prints matches, crashes, stalls and endless matches, match length in
decisions (min/median/p95/max) and the outcome reasons; the first failure's seed and
error, to replay it. Only the pure engines take part (``engine.registry``): no I/O.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench import percentile
from engine.interface import Decision, Game
from engine.registry import GAMES

__all__ = ["BOUND", "MATCHES", "Match", "Report", "format_report", "main", "play_match", "run"]

MATCHES = 2000
"""Matches per game by default: the issue's figure for the two-player games."""
BOUND = 20_000
"""Decisions after which a match counts as endless (every game's matches take far fewer)."""
DISPLAY_KEYS = frozenset({"label", "loses"})
"""Keys a legal decision carries for a client to show; a client sends the decision without them."""


@dataclass(frozen=True, slots=True)
class Match:
    """How one match went: ``end`` is ``outcome``, ``crash``, ``stall`` or ``endless``."""

    seed: int
    end: str
    decisions: int
    reason: str | None = None
    winner: int | None = None
    scores: tuple[int, ...] = ()
    error: str = ""


@dataclass
class Report:
    """One game's figures over a run."""

    game: str
    matches: int = 0
    lengths: list[int] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    winners: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)
    """A one-seat game's final scores."""
    failures: list[Match] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def crashes(self) -> int:
        return self.ends["crash"]

    @property
    def stalls(self) -> int:
        return self.ends["stall"]

    @property
    def endless(self) -> int:
        return self.ends["endless"]

    def add(self, match: Match) -> None:
        self.matches += 1
        self.ends[match.end] += 1
        if match.end == "outcome":
            self.lengths.append(match.decisions)
            self.reasons[str(match.reason)] += 1
            self.winners["none" if match.winner is None else f"seat {match.winner}"] += 1
            if len(match.scores) == 1:
                self.scores.append(match.scores[0])
        else:
            self.failures.append(match)


def play_match(game: Game, seed: int, bound: int = BOUND, options: dict[str, Any] | None = None,
               careful: bool = False) -> Match:
    """One full match of random legal decisions (see the module's docstring for how it can end).

    ``careful``: a decision marked ``loses`` is picked only when the seat has nothing else.
    """
    chooser = random.Random(seed)
    decisions = 0
    try:
        options = options or {}
        state = game.setup(options, seed)
        seats = range(game.seats(options))
        while (outcome := game.outcome(state)) is None:
            if decisions >= bound:
                return Match(seed, "endless", decisions)
            ready = [(seat, legal) for seat in seats if (legal := list(game.legal(state, seat)))]
            if not ready:
                return Match(seed, "stall", decisions, error="no outcome, and no seat has a legal decision")
            seat, legal = chooser.choice(ready)
            if careful:
                legal = [d for d in legal if not d.get("loses")] or legal
            picked: Decision = chooser.choice(legal)
            state, _ = game.apply(state, seat, {k: v for k, v in picked.items() if k not in DISPLAY_KEYS})
            decisions += 1
        return Match(seed, "outcome", decisions, outcome.reason.value, outcome.winner, tuple(outcome.scores))
    except Exception as error:  # a crash is what the bench looks for: record it, go on
        where = traceback.extract_tb(error.__traceback__)[-1]
        return Match(seed, "crash", decisions,
                     error=f"{type(error).__name__}: {error} ({where.filename}:{where.lineno})")


def run(name: str, matches: int = MATCHES, bound: int = BOUND, seed: int = 0, careful: bool = False) -> Report:
    """Play ``matches`` random matches of the game ``name``, seeds ``seed`` to ``seed + matches - 1``."""
    game = GAMES[name]
    report = Report(name)
    started = time.perf_counter()
    for number in range(matches):
        report.add(play_match(game, seed + number, bound, careful=careful))
    report.seconds = time.perf_counter() - started
    return report


def _share(counts: Counter[str]) -> str:
    total = sum(counts.values())
    return ", ".join(f"{key} {n} ({100 * n / total:.1f}%)" for key, n in counts.most_common()) if total else "-"


def format_report(report: Report) -> str:
    """The figures of one game, a few lines."""
    ordered = sorted(report.lengths)
    if ordered:
        length = (f"{ordered[0]} / {percentile(ordered, 50):.0f} / {percentile(ordered, 95):.0f} / {ordered[-1]}")
    else:
        length = "-"
    lines = [
        f"{report.game}: {report.matches} matches in {report.seconds:.1f} s "
        f"({report.matches / report.seconds if report.seconds else float('nan'):.0f} full matches/s on one core)",
        f"  crashes {report.crashes} · stalls {report.stalls} · endless {report.endless}",
        f"  length in decisions (min / median / p95 / max): {length}",
        f"  outcome reasons: {_share(report.reasons)}",
        f"  winners: {_share(report.winners)}",
    ]
    if report.scores:
        scores = sorted(report.scores)
        lines.append(f"  score (min / median / p95 / max): {scores[0]} / {percentile(scores, 50):.0f} / "
                     f"{percentile(scores, 95):.0f} / {scores[-1]}")
    for failure in report.failures[:3]:
        lines.append(f"  {failure.end} at seed {failure.seed} after {failure.decisions} decisions: {failure.error}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.random_play", description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=MATCHES, help=f"matches per game (default {MATCHES})")
    parser.add_argument("--bound", type=int, default=BOUND, help=f"decisions before a match is endless ({BOUND})")
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed (default 0)")
    parser.add_argument("--careful", action="store_true",
                        help="pick a decision marked 'loses' only when the seat has nothing else")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    args = parser.parse_args(argv)
    failed = False
    for name in args.game or list(GAMES):
        report = run(name, args.matches, args.bound, args.seed, args.careful)
        print(format_report(report), flush=True)
        failed = failed or bool(report.failures)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

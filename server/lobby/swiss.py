"""Swiss pairing and standings, as pure functions of an event's recorded results (docs/protocol.md, "Events").

Standings: match points (win 1, draw 0.5, bye 1), then opponents' match-win percentage (each opponent's floored
at 1/3, byes not counted as opponents), then game-win percentage (floored at 1/3), then opponents' game-win
percentage, then registration order. Computed in exact fractions, so every node ranks alike.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["BUDGET", "FLOOR", "Pairing", "Result", "Standing", "pair_round", "standings"]

FLOOR = Fraction(1, 3)
"""The lowest match-win or game-win percentage counted in a tie-break."""
BUDGET = 200_000
"""Opponents tried, at most, while searching for a pairing without a rematch; past it a rematch is allowed."""


@dataclass(frozen=True, slots=True)
class Result:
    """One decided table of a round (or a bye: ``players[1]`` is "")."""

    round: int
    players: tuple[str, str]
    points: tuple[Fraction, Fraction]
    """Match points of each seat: 1, 0.5 or 0 (a bye: 1 for its player)."""
    games: tuple[Fraction, Fraction]
    """Game points of each seat: games won (a drawn game counts a half)."""
    played: int
    """Games played at the table (at least 1)."""

    @property
    def bye(self) -> bool:
        return not self.players[1]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place after the recorded results."""

    player: str
    rank: int
    points: Fraction
    omw: Fraction
    gw: Fraction
    ogw: Fraction
    played: int
    """Rounds the player took part in (byes included)."""
    byes: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's tables, best-ranked first, and the player given the bye (if the count is odd)."""

    tables: tuple[tuple[str, str], ...]
    bye: str | None
    rematches: int
    """Tables whose players had met before: 0 unless no pairing without one was found."""


def standings(players: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """Every one of ``players`` (in registration order, the last tie-break) ranked after ``results``."""
    points = dict.fromkeys(players, Fraction(0))
    games = dict.fromkeys(players, Fraction(0))
    played_games = dict.fromkeys(players, 0)
    rounds = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for r in results:
        for seat, player in enumerate(r.players):
            if not player or player not in points:
                continue
            points[player] += r.points[seat]
            games[player] += r.games[seat]
            played_games[player] += r.played
            rounds[player] += 1
            if r.bye:
                byes[player] += 1
            else:
                opponents[player].append(r.players[1 - seat])

    mwp = {p: max(FLOOR, points[p] / rounds[p]) if rounds[p] else FLOOR for p in players}
    gwp = {p: max(FLOOR, games[p] / played_games[p]) if played_games[p] else FLOOR for p in players}

    def mean(values: list[Fraction]) -> Fraction:
        return sum(values, Fraction(0)) / len(values) if values else Fraction(0)

    order = {p: n for n, p in enumerate(players)}
    rows = [(p, points[p], mean([mwp[o] for o in opponents[p] if o in mwp]), gwp[p] if played_games[p] else Fraction(0),
             mean([gwp[o] for o in opponents[p] if o in gwp])) for p in players]
    # each fraction led by its float: only exact float ties compare the (slower) fractions
    rows.sort(key=lambda row: (-float(row[1]), -float(row[2]), -row[2], -float(row[3]), -row[3], -float(row[4]), -row[4],
                               order[row[0]]))
    return [Standing(p, rank, pts, omw, gw, ogw, rounds[p], byes[p]) for rank, (p, pts, omw, gw, ogw) in enumerate(rows, 1)]


class _Exhausted(Exception):
    """The search tried more than ``BUDGET`` opponents."""


def _without_rematch(players: Sequence[str], met: Mapping[str, frozenset[str]],
                     budget: list[int]) -> list[tuple[int, int]] | None:
    """Pairs (indices into ``players``, in rank order) in which nobody meets an earlier opponent: each player,
    from the best, takes the nearest-ranked free opponent it has not met, backtracking when that leaves the rest
    unpairable; None when there is no such pairing."""
    n = len(players)
    used = [False] * n
    pairs: list[tuple[int, int]] = []

    def go(i: int) -> bool:
        while i < n and used[i]:
            i += 1
        if i == n:
            return True
        used[i] = True
        seen = met.get(players[i], frozenset())
        for j in range(i + 1, n):
            if used[j] or players[j] in seen:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _Exhausted
            used[j] = True
            pairs.append((i, j))
            if go(i + 1):
                return True
            pairs.pop()
            used[j] = False
        used[i] = False
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, n + 200))
    try:
        return pairs if go(0) else None
    finally:
        sys.setrecursionlimit(limit)


def pair_round(ranked: Sequence[str], met: Mapping[str, frozenset[str]], had_bye: frozenset[str] = frozenset()) -> Pairing:
    """The next round's tables of ``ranked`` (the players still in, best first) given who has ``met`` whom.

    With an odd count the bye goes to the lowest-ranked player who has had none (any, if all have), the next one
    up when the rest cannot then be paired without a rematch. Players of equal or near score meet: each takes
    the nearest-ranked opponent it has not met, the search backtracking when a greedy choice would force a
    rematch further down. Only when no pairing avoids one (or the search passes ``BUDGET``) are rematches allowed,
    as few as the greedy pass makes."""
    players = list(ranked)
    if len(players) % 2:
        eligible = [p for p in reversed(players) if p not in had_bye] or list(reversed(players))
    else:
        eligible = [""]
    budget = [BUDGET]
    for bye in eligible:
        rest = [p for p in players if p != bye]
        try:
            found = _without_rematch(rest, met, budget)
        except _Exhausted:
            break
        if found is not None:
            return Pairing(tuple((rest[i], rest[j]) for i, j in found), bye or None, 0)
    bye = eligible[0]
    rest = [p for p in players if p != bye]
    return _greedy(rest, met, bye or None)


def _greedy(rest: list[str], met: Mapping[str, frozenset[str]], bye: str | None) -> Pairing:
    """Each player, from the best, with the nearest-ranked free one it has not met, else the nearest free one."""
    free = list(rest)
    tables: list[tuple[str, str]] = []
    rematches = 0
    while free:
        first = free.pop(0)
        seen = met.get(first, frozenset())
        pick = next((k for k, p in enumerate(free) if p not in seen), 0)
        other = free.pop(pick)
        rematches += other in seen
        tables.append((first, other))
    return Pairing(tuple(tables), bye, rematches)

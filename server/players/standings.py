"""Where players stand: Glicko-2 ratings of rated head-to-head rooms, and each player's match history.

Settled once per finished room, in one atomic Redis step guarded by a marker on the room, so a
retry or a restart never counts a match twice. Layout (prefix ``cardroom:``):
``rating:{game}`` a hash player -> msgpack [r, rd, sigma, games, name]; ``leaders:{game}`` a sorted
set player -> r; ``history:{player}`` a list of msgpack entries, newest first, capped at ``KEEP``;
``settled:{room}`` the marker, kept as long as match records.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import msgpack

from engine.interface import Outcome, OutcomeReason
from protocol import ErrorCode, ProtocolError
from server.players.ratings import DEFAULT, Rating, update
from server.store.store import PREFIX, RECORD_TTL, Store

__all__ = ["KEEP", "RATED", "Finished", "history", "leaders", "rating_of", "settle"]

log = logging.getLogger(__name__)
RATED = "rated"
"""The ``table`` of a rated head-to-head room (a solitaire's is ``all`` or ``daily:...``)."""
KEEP = 50
"""Matches kept in a player's history."""

# KEYS: marker, ratings hash, leaderboard, then one history list per player.
# ARGV: marker ttl, history length, n ratings, then n times (player, packed rating, r), then one entry per history.
_SETTLE = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
local n = tonumber(ARGV[3])
for i = 0, n - 1 do
  redis.call('HSET', KEYS[2], ARGV[4 + 3 * i], ARGV[5 + 3 * i])
  redis.call('ZADD', KEYS[3], ARGV[6 + 3 * i], ARGV[4 + 3 * i])
end
local first = 4 + 3 * n
for k = 4, #KEYS do
  redis.call('LPUSH', KEYS[k], ARGV[first + k - 4])
  redis.call('LTRIM', KEYS[k], 0, tonumber(ARGV[2]) - 1)
end
return 1
"""


def _ratings(game: str) -> str:
    return f"{PREFIX}rating:{game}"


def _leaders(game: str) -> str:
    return f"{PREFIX}leaders:{game}"


def _history(player: str) -> str:
    return f"{PREFIX}history:{player}"


def _score(outcome: Outcome, seat: int) -> float:
    return 0.5 if outcome.winner is None else 1.0 if outcome.winner == seat else 0.0


@dataclass(frozen=True)
class Finished:
    """What settling a finished match needs to know of it."""

    room: str
    game: str
    table: str
    """The room's high-score or rating table (``RATED`` for a rated head-to-head)."""
    owners: tuple[str, ...]
    """The player holding each seat ("" for a guest)."""
    names: tuple[str, ...]
    outcome: Outcome
    ended: float


async def settle(store: Store, match: Finished) -> bool:
    """Rate a finished rated match and add the match to its players' histories, once; False if done before."""
    outcome = match.outcome
    players = list(match.owners)
    rated = match.table == RATED and outcome.reason is not OutcomeReason.ABORTED and all(players)
    changes: dict[int, tuple[Rating, Rating]] = {}
    args: list[Any] = []
    if rated:
        raw: list[bytes | None] = await store.redis.hmget(_ratings(match.game), players)  # type: ignore[assignment]
        stored = [None if r is None else msgpack.unpackb(r) for r in raw]
        before = [DEFAULT if s is None else Rating(*s[:3]) for s in stored]
        games = [0 if s is None else int(s[3]) for s in stored]
        for seat, player in enumerate(players):
            after = update(before[seat], [(before[1 - seat], _score(outcome, seat))])
            changes[seat] = (before[seat], after)
            args += [player, msgpack.packb([after.r, after.rd, after.sigma, games[seat] + 1, match.names[seat]]),
                     repr(after.r)]
    entries = []
    for seat, player in enumerate(players):
        if not player:
            continue
        entry: dict[str, Any] = {
            "room": match.room, "game": match.game, "ended": match.ended, "names": list(match.names),
            "seat": seat, "outcome": outcome.data(), "rated": rated,
        }
        if seat in changes:
            entry["rating"] = [round(changes[seat][0].r, 1), round(changes[seat][1].r, 1)]
        entries.append((player, msgpack.packb(entry)))
    keys = [f"{PREFIX}settled:{match.room}", _ratings(match.game), _leaders(match.game),
            *(_history(p) for p, _ in entries)]
    done = await store.redis.eval(_SETTLE, len(keys), *keys, str(RECORD_TTL), str(KEEP), str(len(changes)),
                                       *args, *(e for _, e in entries))
    if done:
        log.info("settled", extra={"room": match.room})
    return bool(done)


async def leaders(store: Store, game: str, limit: int) -> list[dict[str, Any]]:
    """The best ``limit`` ratings of ``game``, best first."""
    if not 1 <= limit <= 100:
        raise ProtocolError(ErrorCode.BAD_FIELD, "ratings: field 'limit' must be from 1 to 100")
    ranked: list[tuple[bytes, float]] = await store.redis.zrevrange(  # type: ignore[assignment]
        _leaders(game), 0, limit - 1, withscores=True)
    if not ranked:
        return []
    raw: list[bytes | None] = await store.redis.hmget(_ratings(game), [p for p, _ in ranked])  # type: ignore[assignment]
    out = []
    for rank, ((player, _), packed) in enumerate(zip(ranked, raw, strict=True), 1):
        if packed is None:
            continue
        r, rd, _sigma, games, name = msgpack.unpackb(packed)
        out.append({"rank": rank, "player": player.decode(), "name": name, "rating": round(r, 1),
                    "rd": round(rd, 1), "games": games})
    return out


async def history(store: Store, player: str, limit: int) -> list[dict[str, Any]]:
    """A player's last ``limit`` finished matches, newest first."""
    if not 1 <= limit <= KEEP:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"history: field 'limit' must be from 1 to {KEEP}")
    raw: list[bytes] = await store.redis.lrange(_history(player), 0, limit - 1)  # type: ignore[assignment]
    return [msgpack.unpackb(e, raw=False) for e in raw]


async def rating_of(store: Store, game: str, player: str | None) -> float:
    """A player's rating in ``game`` (the starting rating for a guest or a player who has played no rated match)."""
    if not player:
        return DEFAULT.r
    packed = await store.redis.hget(_ratings(game), player)
    return DEFAULT.r if packed is None else float(msgpack.unpackb(packed)[0])

"""Where players stand: Glicko-2 ratings of rated head-to-head rooms, and each player's match history.

Settled once per finished room, whatever the number of tries: what settling writes is worked out once and
kept in the room's hash (``settle``, the first one stored wins), then written in steps that each count once,
so a retry or a restart (on a Redis Cluster, where these keys lie in other slots than the room's) never counts
a match twice. Layout (prefix ``cardroom:``, server/store/keys.py): ``rating:{game}`` a hash player -> msgpack
[r, rd, sigma, games, name] and ``leaders:{game}`` a sorted set player -> r, written in one step with
``rated:{game}:{room}``, the mark that the match was rated (kept as long as match records); ``history:{player}``
a list of msgpack entries, newest first, capped at ``KEEP``, to which an entry already in it is not added again.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import msgpack
from redis.commands.core import AsyncScript

from engine.interface import Outcome, OutcomeReason
from protocol import ErrorCode, ProtocolError
from server.players.ratings import DEFAULT, Rating, update
from server.store import keys
from server.store.store import PREFIX, RECORD_TTL, Store

__all__ = ["KEEP", "RATED", "Finished", "history", "leaders", "rating_of", "settle"]

log = logging.getLogger(__name__)
RATED = "rated"
"""The ``table`` of a rated head-to-head room (a solitaire's is ``all`` or ``daily:...``)."""
KEEP = 50
"""Matches kept in a player's history."""

# What settling writes, kept in the room's hash: the first stored wins. KEYS: room; ARGV: the packed settlement.
_FIX = """
redis.call('HSETNX', KEYS[1], 'settle', ARGV[1])
return redis.call('HGET', KEYS[1], 'settle')
"""

# The ratings of a match, once (one slot: the game's). KEYS: mark, ratings hash, leaderboard; ARGV: mark ttl,
# then per player (player, packed rating, r). 1 if rated now, 0 if before.
_RATE = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
for i = 2, #ARGV, 3 do
  redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  redis.call('ZADD', KEYS[3], ARGV[i + 2], ARGV[i])
end
return 1
"""

# A match's entry in a player's history, once. KEYS: the history; ARGV: the entry, the history's length.
_HISTORY = """
if redis.call('LPOS', KEYS[1], ARGV[1]) then return 0 end
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
return 1
"""

_ratings = keys.ratings
_leaders = keys.leaders


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
    fixed = await store.redis.hget(keys.room(match.room), "settle")
    if fixed is None:
        fix = store.redis.register_script(_FIX)
        fixed = await fix(keys=[keys.room(match.room)], args=[await _settlement(store, match)])
    ratings, entries = msgpack.unpackb(fixed, raw=False)
    history = store.redis.register_script(_HISTORY)
    calls: list[tuple[AsyncScript, list[str], list[Any]]] = [
        (history, [_history(player)], [entry, str(KEEP)]) for player, entry in entries]
    if ratings:
        calls.append((store.redis.register_script(_RATE), [keys.rated(match.game, match.room), _ratings(match.game),
                      _leaders(match.game)], [str(RECORD_TTL), *(x for rated in ratings for x in rated)]))
    done = await keys.run_all(store.redis, calls)
    if any(done):
        log.info("settled", extra={"room": match.room})
    return any(done)


async def _settlement(store: Store, match: Finished) -> bytes:
    """What settling ``match`` writes: [the ratings, each (player, packed rating, r)], [each (player, history entry)]."""
    outcome = match.outcome
    players = list(match.owners)
    rated = match.table == RATED and outcome.reason is not OutcomeReason.ABORTED and all(players)
    changes: dict[int, tuple[Rating, Rating]] = {}
    ratings: list[tuple[str, bytes, str]] = []
    if rated:
        raw: list[bytes | None] = await store.redis.hmget(_ratings(match.game), players)  # type: ignore[assignment]
        stored = [None if r is None else msgpack.unpackb(r) for r in raw]
        before = [DEFAULT if s is None else Rating(*s[:3]) for s in stored]
        games = [0 if s is None else int(s[3]) for s in stored]
        for seat, player in enumerate(players):
            after = update(before[seat], [(before[1 - seat], _score(outcome, seat))])
            changes[seat] = (before[seat], after)
            ratings.append((player, msgpack.packb([after.r, after.rd, after.sigma, games[seat] + 1, match.names[seat]]),
                            repr(after.r)))
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
    packed: bytes = msgpack.packb([ratings, entries])
    return packed


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

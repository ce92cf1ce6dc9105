"""What one address may ask of the site: rooms created per minute, waiting rooms held; and a node's own caps.

The per-address (and per-player) quotas are counted in Redis, so every node of a cluster sees one count (three
nodes do not give one address three times the quota) and a restarted node keeps it:

- ``quota:{address}:minute``, a sorted set of the address's room creations in the last 60 s (wall-clock ms);
- ``quota:{address}:held`` and ``quota:held:player:{key}``, sorted sets of the rooms each created that may
  still be waiting for players (a creation under way is held as ``pending:{id}``).

A creation takes its place in one script per holder (``_TAKE``: prune, count, add, atomically; the address's
two keys share a slot, the player's lies in another), so concurrent creations from one address or one player,
on one node or several, never pass the quota together; a place taken for the address and refused for the
player is given back, as is that of a creation that fails. Which held rooms still wait is judged on the node
that checks: a room it serves by its status, a room another node serves by what that node publishes, any other
by whether it is still unfinished in Redis.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Mapping
from typing import Any

from redis.asyncio import Redis

from protocol import ErrorCode, ProtocolError
from server.ops import metrics
from server.rooms.room import Room
from server.store import keys
from server.store.store import OPEN, PREFIX

__all__ = ["MAX_ROOMS", "MAX_SPECTATORS", "PER_MINUTE", "WAITING", "Claim", "Quota", "check_spectators"]

PER_MINUTE = int(os.environ.get("CARDROOM_ROOMS_PER_MINUTE", "20"))
"""Rooms one address may create in any 60 seconds, across all nodes."""
WAITING = int(os.environ.get("CARDROOM_WAITING_ROOMS", "5"))
"""Rooms still waiting for players that one address, or one player (by key), may hold, across all nodes."""
MAX_ROOMS = int(os.environ.get("CARDROOM_MAX_ROOMS", "10000"))
"""Live rooms one node holds; past it ``create_room`` is refused with ``server_full``."""
MAX_SPECTATORS = int(os.environ.get("CARDROOM_MAX_SPECTATORS", "10000"))
"""Spectating connections one node serves; past it ``spectate`` is refused with ``server_full``."""
WINDOW_MS = 60_000
PENDING = "pending:"
"""Prefix of a held entry whose room is being created."""
HELD_TTL = 7 * 24 * 3600
"""Seconds a holder's set is kept after its last room (waiting rooms expire well before)."""

# Take a place for one holder: drop its held entries found no longer waiting, prune the minute (the address
# only), refuse past a quota, else add the creation to the minute and a pending entry to the held set. KEYS: held,
# then minute (the address only); ARGV: now ms, window ms, per minute, waiting, id, held TTL s, then the stale
# entries. Returns 1, or -1 (per minute), -2 (waiting rooms).
_TAKE = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
for i = 7, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
if KEYS[2] then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return -2 end
if KEYS[2] then
  redis.call('ZADD', KEYS[2], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], window)
end
redis.call('ZADD', KEYS[1], now, 'pending:' .. ARGV[5])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
"""

# Settle a place for one holder: the pending entry becomes the room (ARGV[2] not empty), or the place is given
# back. KEYS: held, then minute (the address only); ARGV: id, room or '', now ms.
_SETTLE = """
redis.call('ZREM', KEYS[1], 'pending:' .. ARGV[1])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2]) end
if ARGV[2] == '' and KEYS[2] then redis.call('ZREM', KEYS[2], ARGV[1]) end
return 1
"""

_minute = keys.quota_minute
_held = keys.quota_held


def _held_player(player: str) -> str:
    return f"{PREFIX}quota:held:player:{player}"


class Claim:
    """A place taken for one room being created; ``room`` is set once it exists."""

    def __init__(self, holders: list[list[str]], ident: str) -> None:
        self.holders = holders
        """Each holder's keys (held, then the address's minute), one script each."""
        self.id = ident
        self.room = ""


class Quota:
    """Per-address (and per-player) room creation, counted in Redis for the whole cluster."""

    def __init__(self, redis: Redis, elsewhere: Callable[[str], dict[str, Any] | None] = lambda room: None) -> None:
        self.redis = redis
        self.elsewhere = elsewhere
        """What another node published of a room this node does not serve (its ``status``), or None."""
        self._take = redis.register_script(_TAKE)
        self._settle = redis.register_script(_SETTLE)

    @contextlib.asynccontextmanager
    async def claim(self, address: str, rooms: Mapping[str, Room], player: str = "") -> AsyncIterator[Claim]:
        """Take a place for a new room, or refuse it past the node's cap or the address's (or the player's)
        quotas; the body creates the room and sets ``room`` on the claim. A body that raises gives the place back."""
        taken = await self.take(address, rooms, player)
        try:
            yield taken
        except BaseException:
            with contextlib.suppress(Exception):
                await self._give_back(taken.holders, taken.id)
            raise
        for holder in taken.holders:
            await self._settle(keys=holder, args=[taken.id, taken.room, _now()])

    async def _give_back(self, holders: list[list[str]], ident: str) -> None:
        for holder in holders:
            await self._settle(keys=holder, args=[ident, "", 0])

    async def take(self, address: str, rooms: Mapping[str, Room], player: str = "") -> Claim:
        if len(rooms) >= MAX_ROOMS:
            metrics.REFUSED.labels("server_full").inc()
            raise ProtocolError(ErrorCode.SERVER_FULL, f"this server holds {MAX_ROOMS} rooms, its most; try later")
        holders = [[_held(address), _minute(address)]] + ([[_held_player(player)]] if player else [])
        now = _now()
        async with self.redis.pipeline(transaction=False) as pipe:
            for holder in holders:
                pipe.zrange(holder[0], 0, -1, withscores=True)
            held: list[list[tuple[bytes, float]]] = await pipe.execute()
        stale = await self._stale(held, rooms, now)
        ident = secrets.token_hex(8)
        taken: list[list[str]] = []
        for n, holder in enumerate(holders):
            try:
                result = await self._take(keys=holder, args=[now, WINDOW_MS, PER_MINUTE, WAITING, ident, HELD_TTL,
                                                             *stale[n]])
            except BaseException:  # failed: the places taken so far go back
                with contextlib.suppress(Exception):
                    await self._give_back(taken, ident)
                raise
            if result == 1:
                taken.append(holder)
                continue
            with contextlib.suppress(Exception):  # refused: likewise
                await self._give_back(taken, ident)
            if result == -1:
                metrics.REFUSED.labels("rooms_per_minute").inc()
                raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"at most {PER_MINUTE} rooms a minute from one address")
            metrics.REFUSED.labels("waiting_rooms").inc()
            who = "your address holds" if n == 0 else "you hold"
            raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"{who} {WAITING} rooms still waiting for players, "
                                                          f"the most allowed; play or cancel one first")
        return Claim(holders, ident)

    async def _stale(self, held: list[list[tuple[bytes, float]]], rooms: Mapping[str, Room],
                     now: int) -> list[list[str]]:
        """For each holder, its entries no longer waiting: rooms started, over or gone, creations that never
        finished (a minute on)."""
        unknown: set[str] = set()
        verdict: dict[str, bool] = {}
        for entries in held:
            for raw, score in entries:
                member = raw.decode()
                if member.startswith(PENDING):
                    verdict[member] = now - score <= WINDOW_MS
                elif member in rooms:
                    verdict[member] = rooms[member].status == "waiting"
                elif (entry := self.elsewhere(member)) is not None:
                    verdict[member] = entry.get("status") == "waiting"
                else:
                    unknown.add(member)
        if unknown:  # served by no node in sight: waiting still if unfinished in Redis (counted, to be safe)
            ordered = sorted(unknown)
            flags = await self.redis.smismember(OPEN, ordered)
            verdict.update({room: bool(flag) for room, flag in zip(ordered, flags, strict=True)})
        return [[m.decode() for m, _ in entries if not verdict[m.decode()]] for entries in held]


def _now() -> int:
    """Wall-clock milliseconds: the same clock on every node and after a restart."""
    return int(time.time() * 1000)


def check_spectators(watching: int) -> None:
    """Refuse one more spectator past the node's cap (``watching``: how many its rooms have now)."""
    if watching >= MAX_SPECTATORS:
        metrics.REFUSED.labels("server_full").inc()
        raise ProtocolError(ErrorCode.SERVER_FULL, f"this server serves {MAX_SPECTATORS} spectators, its most; try later")

"""What one address may ask of the site: rooms created per minute, waiting rooms held; and a node's own caps.

The per-address (and per-player) quotas are counted in Redis, so every node of a cluster sees one count (three
nodes do not give one address three times the quota) and a restarted node keeps it:

- ``quota:{address}:minute``, a sorted set of the address's room creations in the last 60 s (wall-clock ms);
- ``quota:{address}:held`` and ``quota:held:player:{key}``, sorted sets of the rooms each created that may
  still be waiting for players (scored by when they were taken).

A creation takes its place in one script per holder (``_TAKE``: count, add, atomically; the address's two keys
share a slot, the player's lies in another; both are sent in one round trip), so concurrent creations from one
address or one player, on one node or several, never pass the quota together; a place taken for the address and
refused for the player is given back, as is that of a creation that fails. A place is taken under the id the
room will be made with, so a room made under it needs nothing more written (a creation that knows no id yet is
held as ``pending:{id}`` and settled once made). Which held rooms still wait is judged on the node that checks,
only when they would refuse a creation (then it is taken again without those that no longer wait): a room it
serves by its status, a room another node serves by what that node publishes, any other by whether it is still
unfinished in Redis, or, taken less than a minute ago and not stored yet, being made (on another node).
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

# Take a place for one holder: drop the held entries found no longer waiting (ARGV[8] on), prune the minute (the
# address only), refuse past a quota, else add the creation to the minute and its room (or pending entry) to the
# held set. KEYS: held, then minute (the address only); ARGV: now ms, window ms, per minute, waiting, the minute's
# entry, held TTL s, the held entry, then the stale entries. Returns 1; -1 (per minute); or, refused for the
# waiting rooms, the held entries and their scores, for the node to judge which still wait.
_TAKE = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
for i = 8, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
if KEYS[2] then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES') end
if KEYS[2] then
  redis.call('ZADD', KEYS[2], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[2], window)
end
redis.call('ZADD', KEYS[1], now, ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
"""

# Settle a place for one holder: its held entry becomes the room made (ARGV[2]), or the place is given back
# (ARGV[2] empty: the minute's entry goes too). KEYS: held, then minute (the address only); ARGV: the held entry,
# the room or '', now ms, the minute's entry.
_SETTLE = """
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2]) end
if ARGV[2] == '' and KEYS[2] then redis.call('ZREM', KEYS[2], ARGV[4]) end
return 1
"""

_minute = keys.quota_minute
_held = keys.quota_held


def _held_player(player: str) -> str:
    return f"{PREFIX}quota:held:player:{player}"


class Claim:
    """A place taken for one room being created; ``room`` is set once it exists."""

    def __init__(self, holders: list[list[str]], ident: str, held: str) -> None:
        self.holders = holders
        """Each holder's keys (held, then the address's minute), one script each."""
        self.id = ident
        """The creation's entry in the address's minute."""
        self.held = held
        """Its entry in each held set: the id the room is to be made with, or ``pending:{id}``."""
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
    async def claim(self, address: str, rooms: Mapping[str, Room], player: str = "", room: str = "") -> AsyncIterator[Claim]:
        """Take a place for a new room, or refuse it past the node's cap or the address's (or the player's)
        quotas; the body creates the room and sets ``room`` on the claim. ``room``: the id the body will try first,
        held from the start, so that nothing is written after a room made under it. A body that raises, or makes
        no room, gives the place back."""
        taken = await self.take(address, rooms, player, room)
        try:
            yield taken
        except BaseException:
            with contextlib.suppress(Exception):
                await self._settle_all(taken.holders, taken, "")
            raise
        if taken.room != taken.held:  # made under another id (or not at all): the held entries say so
            await self._settle_all(taken.holders, taken, taken.room)

    async def _settle_all(self, holders: list[list[str]], taken: Claim, room: str) -> None:
        """Settle ``taken``'s place with each of ``holders`` in one round trip: its room is ``room``, or (``""``) the
        place is given back."""
        now = _now()
        await keys.run_all(self.redis, [(self._settle, holder, [taken.held, room, now, taken.id]) for holder in holders])

    async def take(self, address: str, rooms: Mapping[str, Room], player: str = "", room: str = "") -> Claim:
        """A place for one creation with the address (and the player), taken in one round trip while no quota
        refuses it; see :meth:`claim`."""
        if len(rooms) >= MAX_ROOMS:
            metrics.REFUSED.labels("server_full").inc()
            raise ProtocolError(ErrorCode.SERVER_FULL, f"this server holds {MAX_ROOMS} rooms, its most; try later")
        holders = [[_held(address), _minute(address)]] + ([[_held_player(player)]] if player else [])
        ident = secrets.token_hex(8)
        taken = Claim(holders, ident, room or PENDING + ident)
        stale: list[list[str]] = [[] for _ in holders]
        for attempt in range(2):
            now = _now()
            calls = [(self._take, holder, [now, WINDOW_MS, PER_MINUTE, WAITING, ident, HELD_TTL, taken.held, *gone])
                     for holder, gone in zip(holders, stale, strict=True)]
            try:
                results = await keys.run_all(self.redis, calls, partial=True)
            except BaseException:  # none known to be taken, some may be: given back
                with contextlib.suppress(Exception):
                    await self._settle_all(holders, taken, "")
                raise
            if all(r == 1 for r in results):
                return taken
            with contextlib.suppress(Exception):  # refused or failed with one holder: given back to the others
                await self._settle_all([h for h, r in zip(holders, results, strict=True) if r == 1], taken, "")
            failed = next((r for r in results if isinstance(r, Exception)), None)
            if failed is not None:
                raise failed
            if -1 in results:
                metrics.REFUSED.labels("rooms_per_minute").inc()
                raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"at most {PER_MINUTE} rooms a minute from one address")
            held = [_pairs(r) if isinstance(r, list) else [] for r in results]
            stale = await self._stale(held, rooms, now)
            if attempt == 0 and any(stale):  # some no longer wait: taken again without them
                continue
            break
        metrics.REFUSED.labels("waiting_rooms").inc()
        who = "your address holds" if isinstance(results[0], list) else "you hold"
        raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"{who} {WAITING} rooms still waiting for players, "
                                                      f"the most allowed; play or cancel one first")

    async def _stale(self, held: list[list[tuple[str, float]]], rooms: Mapping[str, Room],
                     now: int) -> list[list[str]]:
        """For each holder, its entries no longer waiting: rooms started, over or gone, creations that never
        finished (a minute on)."""
        unknown: dict[str, bool] = {}
        """Rooms served by no node in sight, each with whether it was taken less than a minute ago."""
        verdict: dict[str, bool] = {}
        for entries in held:
            for member, score in entries:
                if member.startswith(PENDING):
                    verdict[member] = now - score <= WINDOW_MS
                elif member in rooms:
                    verdict[member] = rooms[member].status == "waiting"
                elif (entry := self.elsewhere(member)) is not None:
                    verdict[member] = entry.get("status") == "waiting"
                else:
                    unknown[member] = unknown.get(member, False) or now - score <= WINDOW_MS
        if unknown:  # waiting still if unfinished in Redis (counted, to be safe), or, taken a moment ago, not made yet
            ordered = sorted(unknown)
            young = [room for room in ordered if unknown[room]]
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.smismember(OPEN, ordered)
                for room in young:
                    pipe.exists(keys.room(room))
                flags, *made = await pipe.execute()
            verdict.update({room: bool(flag) for room, flag in zip(ordered, flags, strict=True)})
            verdict.update({room: True for room, there in zip(young, made, strict=True) if not there})
        return [[m for m, _ in entries if not verdict[m]] for entries in held]


def _pairs(flat: list[Any]) -> list[tuple[str, float]]:
    """A held set's entries and scores, as ``ZRANGE ... WITHSCORES`` in a script returns them (one flat list)."""
    return [(bytes(flat[n]).decode(), float(flat[n + 1])) for n in range(0, len(flat) - 1, 2)]


def _now() -> int:
    """Wall-clock milliseconds: the same clock on every node and after a restart."""
    return int(time.time() * 1000)


def check_spectators(watching: int) -> None:
    """Refuse one more spectator past the node's cap (``watching``: how many its rooms have now)."""
    if watching >= MAX_SPECTATORS:
        metrics.REFUSED.labels("server_full").inc()
        raise ProtocolError(ErrorCode.SERVER_FULL, f"this server serves {MAX_SPECTATORS} spectators, its most; try later")

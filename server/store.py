"""The Redis store: rooms, their states and decision logs, behind one interface.

Layout (prefix ``cardroom:``): ``room:{id}`` a hash (game, options, seed, commitment,
created, version, state, ``seat:{n}`` token hashes, ``name:{n}`` and ``player:{n}`` the
name and player id of each seat's holder, ``limits`` and ``clock`` the room's clock, ``over``);
``room:{id}:log`` a list of msgpack decision records; ``open`` the set of unfinished room ids;
``alive`` the last time a server said it was running (see server/clock.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from server.errors import StaleWrite, StoreUnavailable
from server.identity import rooms_key

__all__ = ["RoomRecord", "Store"]

PREFIX = "cardroom:"
OPEN = PREFIX + "open"
ALIVE = PREFIX + "alive"

# Version check, new state, log append and (when the match ends) leaving the open set:
# one atomic step, so a decision is either wholly stored or not at all.
_COMMIT = """
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'state', ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[4])
if ARGV[5] == '1' then
  redis.call('HSET', KEYS[1], 'over', '1')
  redis.call('SREM', KEYS[3], ARGV[6])
  if ARGV[7] ~= '' then redis.call('ZADD', KEYS[4], ARGV[8], ARGV[7]) end
end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[9]) end
return 1
"""

# A seat, its holder's name and player id, the player's room set (and the clock the full room
# starts): one atomic step, so a lost reply cannot leave a seat half claimed.
_CLAIM = """
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
if ARGV[6] ~= '' then redis.call('SADD', KEYS[2], ARGV[7]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[8]) end
return 1
"""


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """A room as stored: its fixed facts, current state (plain data), version and claimed seats."""

    room: str
    game: str
    options: dict[str, Any]
    seed: int
    commitment: str
    created: float
    version: int
    state: dict[str, Any]
    seats: tuple[str | None, ...]
    names: tuple[str, ...] = ()
    table: str = ""
    """The high-score table the room's result goes to: ``all``, ``daily:YYYY-MM-DD``, or "" (not ranked)."""
    owners: tuple[str, ...] = ()
    """The player id holding each seat ("" for a guest or a free seat)."""
    limits: dict[str, int] | None = None
    """The room's clock setting (``move``, ``bank``, ``increment``); None for rooms stored before clocks."""
    clock: dict[str, Any] | None = None
    """The clock as last stored (see server/clock.py); None until the room first filled."""


def _key(room: str) -> str:
    return f"{PREFIX}room:{room}"


def _scores(table: str) -> str:
    return f"{PREFIX}scores:{table}"


class Store:
    """Async access to the rooms in Redis."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, decode_responses=False)
        self._commit = self.redis.register_script(_COMMIT)
        self._claim = self.redis.register_script(_CLAIM)

    async def ping(self) -> None:
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"cannot reach Redis at {self.url}: {exc}") from exc

    async def close(self) -> None:
        await self.redis.aclose()

    async def create(self, record: RoomRecord) -> bool:
        """Store a new room; False if the id is taken."""
        key = _key(record.room)
        if not await self.redis.hsetnx(key, "game", record.game):
            return False
        fields: dict[str | bytes, str | bytes | int | float] = {
            "options": msgpack.packb(record.options),
            "seed": str(record.seed),
            "commitment": record.commitment,
            "created": repr(record.created),
            "version": str(record.version),
            "state": msgpack.packb(record.state),
            "seats": str(len(record.seats)),
            "table": record.table,
        }
        if record.limits is not None:
            fields["limits"] = msgpack.packb(record.limits)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=fields)  # type: ignore[arg-type]  # redis-py types the key invariantly
            pipe.sadd(OPEN, record.room)
            await pipe.execute()
        return True

    async def claim(self, room: str, seat: int, token_hash: str, name: str, player: str = "", clock: bytes = b"") -> bool:
        """Claim a seat for a token hash (with the player's name and id, and the room's clock if it
        starts now) in one atomic step; False if someone holds it already."""
        key = _key(room)
        done = await self._claim(
            keys=[key, rooms_key(player) if player else key + ":noplayer"],
            args=[f"seat:{seat}", token_hash, f"name:{seat}", name, f"player:{seat}", player, room, clock],
        )
        return bool(done)

    async def player_rooms(self, player: str) -> list[str]:
        """The rooms where ``player`` has held a seat."""
        members: set[bytes] = await self.redis.smembers(rooms_key(player))  # type: ignore[assignment]
        return sorted(m.decode() for m in members)

    async def save_clock(self, room: str, clock: bytes) -> None:
        """Store a room's clock alone (after a restart has carried it over the downtime)."""
        await self.redis.hset(_key(room), "clock", clock)

    async def beat(self, now: float) -> None:
        """Say that a server is running at ``now``; a restarted server charges clocks only up to this."""
        await self.redis.set(ALIVE, repr(now))

    async def alive(self) -> float | None:
        """The last time a server said it was running, if ever."""
        raw = await self.redis.get(ALIVE)
        return float(raw) if raw is not None else None

    async def commit(self, room: str, expected: int, version: int, state: bytes, record: bytes, over: bool,
                     score: tuple[str, str, int] | None = None, clock: bytes = b"") -> None:
        """Persist a decision: new state + log record (+ the final score in its table, + the clock),
        atomically, refused if the version moved. ``score`` is (table, member, points)."""
        key = _key(room)
        table, member, points = score or ("", "", 0)
        done = await self._commit(
            keys=[key, key + ":log", OPEN, _scores(table) if table else key + ":noscore"],
            args=[str(expected), str(version), state, record, "1" if over else "0", room, member, str(points), clock],
        )
        if not done:
            raise StaleWrite(f"room {room}: stored version is no longer {expected}")

    async def log(self, room: str) -> list[dict[str, Any]]:
        """Every decision record of a room, oldest first."""
        return [msgpack.unpackb(r, raw=False) for r in await self.redis.lrange(_key(room) + ":log", 0, -1)]

    async def load(self, room: str) -> RoomRecord | None:
        raw: dict[bytes, bytes] = await self.redis.hgetall(_key(room))  # type: ignore[assignment]
        if not raw or b"state" not in raw:
            return None
        count = int(raw[b"seats"])
        seats = tuple(
            raw[f"seat:{n}".encode()].decode() if f"seat:{n}".encode() in raw else None for n in range(count)
        )
        return RoomRecord(
            room=room,
            game=raw[b"game"].decode(),
            options=msgpack.unpackb(raw[b"options"], raw=False),
            seed=int(raw[b"seed"]),
            commitment=raw[b"commitment"].decode(),
            created=float(raw[b"created"]),
            version=int(raw[b"version"]),
            state=msgpack.unpackb(raw[b"state"], raw=False, strict_map_key=False),
            seats=seats,
            names=tuple(raw.get(f"name:{n}".encode(), b"").decode() for n in range(count)),
            table=raw.get(b"table", b"").decode(),
            owners=tuple(raw.get(f"player:{n}".encode(), b"").decode() for n in range(count)),
            limits=msgpack.unpackb(raw[b"limits"], raw=False) if b"limits" in raw else None,
            clock=msgpack.unpackb(raw[b"clock"], raw=False) if b"clock" in raw else None,
        )

    async def scores(self, game: str, table: str, limit: int) -> list[tuple[str, int]]:
        """The best ``limit`` (member, points) of a game's table, best first."""
        rows: list[tuple[bytes, float]] = await self.redis.zrevrange(  # type: ignore[assignment]
            _scores(f"{game}:{table}"), 0, limit - 1, withscores=True
        )
        return [(member.decode(), int(points)) for member, points in rows]

    async def open_rooms(self) -> list[RoomRecord]:
        """Every unfinished room, for resuming after a restart."""
        members: set[bytes] = await self.redis.smembers(OPEN)  # type: ignore[assignment]
        ids = sorted(m.decode() for m in members)
        records = [await self.load(room) for room in ids]
        return [r for r in records if r is not None]

"""The Redis store: rooms, their states and decision logs, behind one interface.

Layout (prefix ``cardroom:``): ``room:{id}`` a hash (game, options, seed, commitment,
created, version, state, ``seat:{n}`` token hashes, ``over``); ``room:{id}:log`` a list
of msgpack decision records; ``open`` the set of unfinished room ids.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from server.errors import StaleWrite, StoreUnavailable

__all__ = ["RoomRecord", "Store"]

PREFIX = "cardroom:"
OPEN = PREFIX + "open"
DAILY_SECRET = PREFIX + "secret:daily"

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
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(key, mapping=fields)  # type: ignore[arg-type]  # redis-py types the key invariantly
            pipe.sadd(OPEN, record.room)
            await pipe.execute()
        return True

    async def claim(self, room: str, seat: int, token_hash: str, name: str) -> bool:
        """Claim a seat for a token hash (and the player's name); False if someone holds it already."""
        key = _key(room)
        if not await self.redis.hsetnx(key, f"seat:{seat}", token_hash):
            return False
        await self.redis.hset(key, f"name:{seat}", name)
        return True

    async def commit(self, room: str, expected: int, version: int, state: bytes, record: bytes, over: bool,
                     score: tuple[str, str, int] | None = None) -> None:
        """Persist a decision: new state + log record (+ the final score in its table), atomically,
        refused if the version moved. ``score`` is (table, member, points)."""
        key = _key(room)
        table, member, points = score or ("", "", 0)
        done = await self._commit(
            keys=[key, key + ":log", OPEN, _scores(table) if table else key + ":noscore"],
            args=[str(expected), str(version), state, record, "1" if over else "0", room, member, str(points)],
        )
        if not done:
            raise StaleWrite(f"room {room}: stored version is no longer {expected}")

    async def version(self, room: str) -> int | None:
        """The stored version of a room (None if there is no such room)."""
        raw = await self.redis.hget(_key(room), "version")
        return None if raw is None else int(raw)

    async def log_since(self, room: str, version: int) -> list[dict[str, Any]]:
        """The decision records after ``version`` (the record of version v is the log's v-th entry)."""
        raw = await self.redis.lrange(_key(room) + ":log", version, -1)
        return [msgpack.unpackb(r, raw=False) for r in raw]

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
        )

    async def daily_secret(self) -> bytes:
        """The key of the daily seeds: 32 random bytes made once (SET NX, so every node agrees) and kept."""
        await self.redis.set(DAILY_SECRET, secrets.token_bytes(32), nx=True)
        secret = await self.redis.get(DAILY_SECRET)
        assert isinstance(secret, bytes)
        return secret

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

"""Player identity: a secret key kept by the client, a public id derived from it, and names bound to keys.

Redis (prefix ``cardroom:``): ``name:{casefolded name}`` holds the hash of the key the name is
bound to; ``player:{id}:rooms`` the set of rooms where that player holds a seat.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from protocol import ErrorCode, ProtocolError
from server.players.names import normalise

__all__ = ["MAX_KEY", "MIN_KEY", "Identity", "Names", "identify", "player_id"]

MIN_KEY = 16
MAX_KEY = 128
PREFIX = "cardroom:"

# A free name is bound to a key the first time a key uses it; a bound name only to that key.
_BIND = """
local held = redis.call('GET', KEYS[1])
if not held then
  if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1]) end
  return 1
end
if held == ARGV[1] then return 1 end
return 0
"""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a connection is: its public player id (``None`` for a guest) and its normalised name."""

    player: str | None
    name: str


def player_id(key: str) -> str:
    """The public id of a key: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def _key_hash(key: str) -> str:
    """What a name is bound to: a hash of the key under its own label, never the key itself."""
    return hashlib.sha256(f"cardroom:name-key:{key}".encode()).hexdigest()


class Names:
    """The name bindings in Redis."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._bind = redis.register_script(_BIND)

    async def bind(self, name: str, key: str | None) -> bool:
        """Bind ``name`` to ``key`` if it is free; True if the key (or a guest, for a free name) may use it."""
        try:
            held = await self._bind(keys=[f"{PREFIX}name:{name.casefold()}"], args=[_key_hash(key) if key else ""])
        except (RedisError, OSError) as exc:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"the name could not be checked, try again: {exc}") from None
        return bool(held)


async def identify(names: Names, raw_name: str, key: str | None) -> Identity:
    """Check a ``hello``'s name and key: ``bad_field``, ``bad_name`` or ``name_taken``, else who it is."""
    if key is not None and not MIN_KEY <= len(key) <= MAX_KEY:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"hello: field 'key' must be {MIN_KEY} to {MAX_KEY} characters long")
    name = normalise(raw_name)
    if name and not await names.bind(name, key):
        if key is None:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} belongs to a player with a key; pick another")
        raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is bound to another player's key")
    return Identity(player_id(key) if key is not None else None, name)

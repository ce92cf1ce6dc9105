"""Player identity: a secret key kept by the client, a public id derived from it, and names bound to keys.

Redis (prefix ``cardroom:``, every name and look in the ``{names}`` slot, server/store/keys.py):
``{names}:name:NAME`` (the casefolded name) holds the hash of the key the name is bound to;
``{names}:look:LOOK`` (server/players/names.py: the confusable skeleton) a hash of ``key`` (the
same key hash) and ``name`` (the first name bound with that look), so that a name that looks like a
bound one is found in one lookup; ``player:ID:rooms`` the set of rooms where that player holds a seat.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from protocol import ErrorCode, ProtocolError
from server.players.names import look, normalise
from server.store import keys

__all__ = ["MAX_KEY", "MIN_KEY", "Identity", "Names", "identify", "player_id"]

MIN_KEY = 16
MAX_KEY = 128
PREFIX = "cardroom:"

# A free name is bound to a key the first time a key uses it; a bound name only to that key. A free name
# that looks like one bound to another key is refused too (answered: the name it looks like); the name's
# look is recorded for the key that binds it (and, for a name bound before looks were recorded, when its
# key comes back). KEYS: name, look; ARGV: the key's hash ("" for a guest), the name.
_BIND = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return {0, ''} end
if not held then
  local owner = redis.call('HMGET', KEYS[2], 'key', 'name')
  if owner[1] and owner[1] ~= ARGV[1] then return {0, owner[2]} end
  if ARGV[1] == '' then return {1, ''} end
  redis.call('SET', KEYS[1], ARGV[1])
end
if redis.call('HSETNX', KEYS[2], 'key', ARGV[1]) == 1 then redis.call('HSET', KEYS[2], 'name', ARGV[2]) end
return {1, ''}
"""

# Index a name bound before looks were recorded (KEYS: name, look; ARGV: the look's name): its look is the
# key's, unless another name with that look was indexed first.
_INDEX = """
local held = redis.call('GET', KEYS[1])
if held and redis.call('HSETNX', KEYS[2], 'key', held) == 1 then redis.call('HSET', KEYS[2], 'name', ARGV[1]) end
return 1
"""
INDEXED = f"{PREFIX}names:looks-indexed"
"""Set once every name bound before looks were recorded has been indexed by its look."""


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
        self._index = redis.register_script(_INDEX)

    async def bind(self, name: str, key: str | None) -> tuple[bool, str]:
        """Bind ``name`` to ``key`` if it is free and looks like no name bound to another key: whether the key
        (or a guest, for such a name) may use it, and if not because it looks like another name, that name."""
        try:
            held, like = await self._bind(keys=[keys.name(name.casefold()), keys.look(look(name))],
                                          args=[_key_hash(key) if key else "", name])
        except (RedisError, OSError) as exc:
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"the name could not be checked, try again: {exc}") from None
        return bool(held), like.decode() if isinstance(like, bytes) else str(like)

    async def index_skeletons(self) -> None:
        """Index by look the names bound before looks were recorded (once: a marker says it is done). Such a
        name is stored only case-folded, so its look is that of the case-folded name."""
        if await self.redis.exists(INDEXED):
            return
        prefix = keys.name("")
        async for raw in self.redis.scan_iter(match=prefix + "*", count=1000):
            stored = raw.decode() if isinstance(raw, bytes) else str(raw)
            name = stored[len(prefix):]
            await self._index(keys=[stored, keys.look(look(name))], args=[name])
        await self.redis.set(INDEXED, b"1")


async def identify(names: Names, raw_name: str, key: str | None) -> Identity:
    """Check a ``hello``'s name and key: ``bad_field``, ``bad_name`` or ``name_taken``, else who it is."""
    if key is not None and not MIN_KEY <= len(key) <= MAX_KEY:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"hello: field 'key' must be {MIN_KEY} to {MAX_KEY} characters long")
    name = normalise(raw_name)
    if not name:
        return Identity(player_id(key) if key is not None else None, name)
    allowed, like = await names.bind(name, key)
    if not allowed and like:
        raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} looks like {like!r}, which is bound to another "
                                                  "player's key; pick another")
    if not allowed:
        if key is None:
            raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} belongs to a player with a key; pick another")
        raise ProtocolError(ErrorCode.NAME_TAKEN, f"the name {name!r} is bound to another player's key")
    return Identity(player_id(key) if key is not None else None, name)

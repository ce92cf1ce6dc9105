"""Every Redis key's name, in one place; calls over many keys that work on a Redis Cluster too (grouped by slot,
sent per slot); and the one-time move of keys named before hash tags.

A room's keys share one hash slot (the room's id in braces, Redis Cluster's hash tag), so that each script
that writes a room touches one slot: ``room:{id}`` (its hash), ``:log``, ``:chat``, ``:lease``, a join's
``:request:...``, and its match record ``match:{id}`` and ``match:{id}:log``. A game's ratings and leaderboard
share the game's slot (``rating:{game}``, ``leaders:{game}``, and ``rated:{game}:{room}``, the mark of a match
rated); an address's quotas share the address's (``quota:{address}:minute``, ``:held``); the bound names and
their looks share one slot (``{names}``), the matchmaking pools another (``{pools}``), the live nodes a third
(``{nodes}``). What spans slots (the open-room set, score tables, a player's rooms and history) is written
outside the room's scripts (server/store/store.py). One Redis uses the same names as a cluster.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.crc import key_slot
from redis.exceptions import NoScriptError

from server.store import link

T = TypeVar("T")

__all__ = ["LAYOUT", "by_slot", "chat", "lease", "log", "match", "match_log", "mget", "migrate", "room", "room_request",
           "run_all"]

log_ = logging.getLogger(__name__)
PREFIX = "cardroom:"
LAYOUT = PREFIX + "layout"
"""``2`` once the keys named before hash tags have been moved (:func:`migrate`)."""


def room(room_id: str) -> str:
    """A room's hash."""
    return f"{PREFIX}room:{{{room_id}}}"


def log(room_id: str) -> str:
    """A room's decision log."""
    return room(room_id) + ":log"


def chat(room_id: str) -> str:
    """A room's last chat lines."""
    return room(room_id) + ":chat"


def lease(room_id: str) -> str:
    """A room's lease (server/store/lease.py)."""
    return room(room_id) + ":lease"


def room_request(room_id: str, request: str) -> str:
    """What a keyed ``join`` of a room took (``room:seat``)."""
    return room(room_id) + ":request:" + request


def match(room_id: str) -> str:
    """A finished match's record."""
    return f"{PREFIX}match:{{{room_id}}}"


def match_log(room_id: str) -> str:
    return match(room_id) + ":log"


def ratings(game: str) -> str:
    return f"{PREFIX}rating:{{{game}}}"


def leaders(game: str) -> str:
    return f"{PREFIX}leaders:{{{game}}}"


def rated(game: str, room_id: str) -> str:
    """The mark that a room's match moved its game's ratings (in the game's slot, set with them)."""
    return f"{PREFIX}rated:{{{game}}}:{room_id}"


def quota_minute(address: str) -> str:
    return f"{PREFIX}quota:{{{address}}}:minute"


def quota_held(address: str) -> str:
    return f"{PREFIX}quota:{{{address}}}:held"


def name(folded: str) -> str:
    return f"{PREFIX}{{names}}:name:{folded}"


def look(skeleton: str) -> str:
    return f"{PREFIX}{{names}}:look:{skeleton}"


POOLS = f"{PREFIX}{{pools}}:"
"""The prefix of every matchmaking key (server/lobby/pools.py): one slot, so each pool script touches one."""
NODES: Final[str] = f"{PREFIX}{{nodes}}"
"""The live nodes (server/store/lease.py). (Its type written out: the compiled build's type check may reach
its use before this line, and cannot infer it then.)"""


def node(node_id: str) -> str:
    """A node's liveness: in the live nodes' slot, so that both are written in one script."""
    return f"{NODES}:{node_id}"


def by_slot(redis: aioredis.Redis | RedisCluster, items: Iterable[T], key_of: Callable[[T], str]) -> list[list[T]]:
    """``items`` in groups whose keys share a slot, for one script or MGET each: on a Redis Cluster, one group per
    slot; on one Redis, one group of them all (one call, as before clusters)."""
    items = list(items)
    if not isinstance(redis, RedisCluster):
        return [items] if items else []
    groups: dict[int, list[T]] = {}
    for item in items:
        groups.setdefault(key_slot(key_of(item).encode()), []).append(item)
    return list(groups.values())


async def mget(redis: aioredis.Redis | RedisCluster, names: list[str]) -> list[bytes | None]:
    """The values of ``names``: one MGET on one Redis; on a Redis Cluster, one per slot, pipelined per primary."""
    if not names:
        return []
    if isinstance(redis, RedisCluster):
        return await redis.mget_nonatomic(names)
    values: list[bytes | None] = await redis.mget(names)  # type: ignore[assignment]  # bytes: no decoding
    return values


async def run_all(redis: aioredis.Redis | RedisCluster, calls: list[tuple[AsyncScript, list[str], list[Any]]],
                  partial: bool = False) -> list[Any]:
    """Many script calls (script, keys, args), each keys' in one slot; their results in order, in one pipelined
    round trip (on a Redis Cluster, one per primary, sent at once). Scripts Redis has not loaded yet are loaded
    and their calls sent again. ``partial``: a call that failed has its exception as its result (on a cluster,
    one primary down fails its calls only), unless every call failed."""
    if not calls:
        return []
    fast = link.scripts_of(redis)
    results = await _evalsha(redis, calls, fast)
    missing = [n for n, r in enumerate(results) if isinstance(r, NoScriptError)]
    if missing:  # Redis restarted, or never saw these scripts: loaded (on every primary), then sent again
        for script in {id(calls[n][0]): calls[n][0] for n in missing}.values():
            await redis.script_load(script.script)
        for n, result in zip(missing, await _evalsha(redis, [calls[n] for n in missing], fast), strict=True):
            results[n] = result
    failed = [r for r in results if isinstance(r, Exception)]
    if failed and (not partial or len(failed) == len(results)):
        raise failed[0]
    return results


async def _evalsha(redis: aioredis.Redis | RedisCluster, calls: list[tuple[AsyncScript, list[str], list[Any]]],
                   fast: link.Scripts | None = None) -> list[Any]:
    if fast is not None:  # one plain Redis: through the link kept for script calls, else (it failed) redis-py
        done = await fast.run(calls)
        if done is not None:
            return done
    # EVALSHA by name: the cluster client's pipeline refuses its evalsha method, not the command
    async with redis.pipeline(transaction=False) as pipe:
        for script, names, args in calls:
            pipe.execute_command("EVALSHA", script.sha, len(names), *names, *args)
        return list(await pipe.execute(raise_on_error=False))


# The names before hash tags: (the old names' prefix, the new name of what follows it). A room's keys keep their
# suffix (``:log``, ``:chat``, ``:lease``).
def _room_key(rest: str) -> str:
    room_id, sep, suffix = rest.partition(":")
    return room(room_id) + sep + suffix


def _match_key(rest: str) -> str:
    room_id, sep, suffix = rest.partition(":")
    return match(room_id) + sep + suffix


_MOVES = (
    (PREFIX + "room:", _room_key),
    (PREFIX + "match:", _match_key),
    (PREFIX + "rating:", ratings),
    (PREFIX + "leaders:", leaders),
    (PREFIX + "quota:minute:", quota_minute),
    (PREFIX + "quota:held:addr:", quota_held),
    (PREFIX + "name:", name),
    (PREFIX + "look:", look),
)

_TAGGED_AFTER = frozenset({PREFIX + "room:", PREFIX + "match:", PREFIX + "rating:", PREFIX + "leaders:"})
"""The prefixes that new names share with old ones (the old names never had a brace right after them)."""

def _renamed(old: str) -> tuple[str, str] | None:
    """(old, new) for a key named before hash tags; None for any other key."""
    for pattern, renamed in _MOVES:
        if old.startswith(pattern):
            rest = old[len(pattern):]
            if rest.startswith("{") and pattern in _TAGGED_AFTER:  # a new name under the same prefix
                return None
            return old, renamed(rest)
    return None


# Move a key to its new name unless that name is taken (a second node migrating at once, or a room already
# served under it): RENAME keeps the value and its time to live. KEYS: old, new. 1 moved, 0 not.
_MOVE = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
return 1
"""


async def migrate(redis: aioredis.Redis) -> int:
    """Move every key named before hash tags to its new name, once (``LAYOUT`` marks it done); returns how many
    moved. Safe to run on two nodes at once and to cut halfway: a key is moved atomically, only if its old name
    still exists and its new one does not, and a run cut short is taken up again at the next start. One Redis
    only: data of a cluster has always had the new names."""
    if await redis.get(LAYOUT) == b"2":
        return 0
    move = redis.register_script(_MOVE)
    moved = 0
    cursor = 0
    while True:  # one pass over the keyspace, each batch's moves in one round trip
        cursor, found = await redis.scan(cursor, match=PREFIX + "*", count=1000)
        pairs = [pair for raw in found if (pair := _renamed(raw.decode() if isinstance(raw, bytes) else str(raw)))]
        moved += sum(int(done) for done in await run_all(redis, [(move, [old, new], []) for old, new in pairs]))
        if cursor == 0:
            break
    await redis.set(LAYOUT, b"2")
    if moved:
        log_.info("keys moved to their hash-tagged names", extra={"keys": moved})
    return moved

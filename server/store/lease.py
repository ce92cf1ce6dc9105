"""Room ownership across server nodes: one node at a time owns a live room, by a lease in Redis.

A node takes a room's lease (``SET NX PX``, value: its node id) before it serves the room, and renews the
leases of its rooms every third of their time to live. Taking a lease also increases the room's fencing
token (``fence`` in the room's hash), and every script that writes a room's decisions or seats refuses a
token that is not the current one: a node that lost its lease (a pause, a network split) can never write
to the room again, even if it still believes it owns it. The fence, not the lease, makes writes safe.
"""
from __future__ import annotations

import os
import secrets
import socket

import redis.asyncio as aioredis

from server.store import keys

__all__ = ["LEASE_MS", "Leases", "lease_key", "new_node_id"]

LEASE_MS = int(os.environ.get("CARDROOM_LEASE_MS", "3000"))
"""How long a lease lasts unless renewed (milliseconds); renewed every third of it, on its own deadline (renewal
costs one round trip for all of a node's rooms), so a dead node's rooms move within about a lease."""

# KEYS: lease, room; ARGV: node, ttl. Returns {fence, holder}: fence 0 when another node holds the lease,
# -1 when there is no such room. A node taking a lease it still holds keeps its token: its own writes in flight
# (a room it serves while a sweep takes the lease again) stay valid; a lapsed lease taken again gets a new one.
_TAKE = """
if redis.call('EXISTS', KEYS[2]) == 0 then return {-1, ''} end
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return {0, holder} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if holder == ARGV[1] then
  local fence = redis.call('HGET', KEYS[2], 'fence')
  if fence then return {tonumber(fence), ARGV[1]} end
end
return {redis.call('HINCRBY', KEYS[2], 'fence', 1), ARGV[1]}
"""

# KEYS: (lease, room) pairs; ARGV: node, ttl, then each room's fencing token as this node holds it. For each
# lease, 1 if it is still ours (and renewed), else 0. A lease that lapsed (a pause a little past it) while nobody
# took it is taken again when the room's token is still ours: no other node can have written in between, since
# taking the lease would have moved the token.
_RENEW = """
local out = {}
for i = 1, #KEYS / 2 do
  local lease = KEYS[2 * i - 1]
  local holder = redis.call('GET', lease)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', lease, ARGV[2])
    out[i] = 1
  elseif not holder and ARGV[2 + i] ~= '' and redis.call('HGET', KEYS[2 * i], 'fence') == ARGV[2 + i] then
    redis.call('SET', lease, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# KEYS: lease; ARGV: node. The lease given up, if it is still ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# KEYS: leases; ARGV: node, ttl. For each lease: 1 if it is ours now (taken, or held and renewed), else 0. A lease
# of work that is not a room's (a matchmaking pool's pairing, server/lobby/pools.py): nothing to fence but the
# lease itself, which the work's scripts check as they write.
_HOLD = """
local out = {}
for i = 1, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
    out[i] = 1
  elseif not holder then
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

NODES = keys.NODES
"""The live nodes: a sorted set of node ids scored by when their liveness lapses (Redis time, ms), so that
finding them costs the nodes, not a scan of the keyspace. ``keys.node(id)`` (in the same slot) is a node's
liveness, renewed with its leases; its value is the process's incarnation, so that a node restarted under the
same id is told from the process before it."""

# KEYS: the node's liveness, the live nodes; ARGV: node, ttl, incarnation. Say the node is alive; the nodes alive now.
_BEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return redis.call('ZRANGE', KEYS[2], 0, -1)
"""

# KEYS: the live nodes. The nodes whose liveness has not lapsed.
_NODES = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"""


lease_key = keys.lease


def new_node_id(port: int = 0) -> str:
    """A node id for a server started without one: its host name and port, the same when the same server
    restarts, so that it takes its rooms back at once instead of waiting for its old leases to lapse."""
    return f"{socket.gethostname()}:{port}" if port else f"{socket.gethostname()}-{secrets.token_hex(3)}"


class Leases:
    """Taking, renewing and giving up room leases for one node."""

    def __init__(self, redis: aioredis.Redis, node: str) -> None:
        self.redis = redis
        self.node = node
        self.incarnation = secrets.token_hex(6)
        """This process's run of the node: a node restarted under the same id has another."""
        self._take = redis.register_script(_TAKE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._beat = redis.register_script(_BEAT)
        self._nodes = redis.register_script(_NODES)
        self._hold = redis.register_script(_HOLD)

    async def take(self, room: str) -> tuple[int, str]:
        """(the room's new fencing token, this node) once the lease is ours; (0, holder) when another node holds
        it; (-1, "") when there is no such room."""
        fence, holder = await self._take(keys=[lease_key(room), keys.room(room)], args=[self.node, LEASE_MS])
        return int(fence), holder.decode() if isinstance(holder, bytes) else str(holder)

    async def take_many(self, rooms: list[str]) -> list[int]:
        """:meth:`take` for many rooms in one round trip: each room's new fencing token, 0 where another node
        holds the lease, -1 where there is no such room."""
        if not rooms:
            return []
        taken = await keys.run_all(self.redis, [(self._take, [lease_key(room), keys.room(room)], [self.node, LEASE_MS])
                                                for room in rooms])
        return [int(fence) for fence, _ in taken]

    async def hold(self, leases: list[str]) -> list[bool]:
        """Take or renew the plain leases ``leases`` (keys), one round trip for all: whether each is this node's now.
        Work under such a lease checks, in the script that writes, that the lease is still this node's."""
        if not leases:
            return []
        return [bool(ok) for ok in await self._hold(keys=leases, args=[self.node, LEASE_MS])]

    async def renew(self, rooms: dict[str, int | None]) -> list[str]:
        """Renew the leases of ``rooms`` (each with the fencing token this node holds); returns those no longer
        ours. One round trip for them all (one script call; on a Redis Cluster one per slot, pipelined)."""
        groups = keys.by_slot(self.redis, rooms.items(), lambda item: keys.room(item[0]))
        kept = await keys.run_all(self.redis, [
            (self._renew, [key for room, _ in group for key in (lease_key(room), keys.room(room))],
             [self.node, LEASE_MS, *("" if fence is None else str(fence) for _, fence in group)]) for group in groups],
            partial=True)  # a cluster's primary down: its rooms are kept until it answers (a lapsed lease is retaken)
        kept = [[1] * len(group) if isinstance(oks, Exception) else oks for group, oks in zip(groups, kept, strict=True)]
        return [room for group, oks in zip(groups, kept, strict=True) for (room, _), ok in zip(group, oks, strict=True)
                if not ok]

    async def retire(self, rooms: list[str]) -> None:
        """This node stops: its leases given up (another node may take its rooms at once), and it is no
        longer counted alive."""
        await self.release_many(rooms)
        await self.redis.delete(keys.node(self.node))
        await self.redis.zrem(NODES, self.node)

    async def release_many(self, rooms: list[str]) -> None:
        """Give up the leases of ``rooms`` (those still ours), in one round trip."""
        await keys.run_all(self.redis, [(self._release, [lease_key(room)], [self.node]) for room in rooms])

    async def beat(self) -> int:
        """Say this node is alive (for a lease's time); returns how many other nodes say so."""
        alive = await self._beat(keys=[keys.node(self.node), NODES], args=[self.node, LEASE_MS, self.incarnation])
        return sum(1 for node in alive if node.decode() != self.node)

    async def nodes(self) -> list[str]:
        """The nodes that say they are alive (one read of a set of the nodes, never a scan of the keyspace)."""
        return [node.decode() for node in await self._nodes(keys=[NODES])]

    async def alive(self, nodes: list[str]) -> list[bool]:
        """Whether each node still says it is alive (:meth:`beat`)."""
        return [v is not None for v in await self.incarnations(nodes)]

    async def incarnations(self, nodes: list[str]) -> list[str | None]:
        """The run of each node that says it is alive now (None: it does not)."""
        if not nodes:
            return []
        raw = await self.redis.mget([keys.node(n) for n in nodes])  # one slot: one MGET on a cluster too
        return [v.decode() if isinstance(v, bytes) else None for v in raw]

    async def holders(self, rooms: list[str]) -> list[str | None]:
        """Who holds each room's lease (None: nobody, the room is orphaned)."""
        raw = await keys.mget(self.redis, [lease_key(r) for r in rooms])
        return [v.decode() if isinstance(v, bytes) else None for v in raw]

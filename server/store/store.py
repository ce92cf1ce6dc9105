"""The Redis store: rooms, their states and decision logs, behind one interface; one Redis or a Redis Cluster.

Layout (prefix ``cardroom:``; every key of a room in the room's hash slot, see server/store/keys.py):
``room:{id}`` a hash (game, options, seed (once dealt), commitment,
``server_seed``, ``salt``, ``seeding``, ``nonce:{n}`` each seat's nonce (server/rooms/seeding.py),
created, version, ``state`` (a snapshot, see server/rooms/snapshots.py) and ``snap`` (the version it holds),
``link`` the last log record's link (server/rooms/snapshots.py), ``seat:{n}`` token hashes, ``name:{n}`` and ``player:{n}`` the
name and player id of each seat's holder, ``limits`` and ``clock`` the room's clock, ``over``, ``hosted``
(see :class:`RoomRecord`), ``out`` and ``settle`` (below));
``room:{id}:log`` a list of msgpack decision records; ``open`` the set of unfinished room ids;
``alive`` the last time a server said it was running (see server/rooms/clock.py).

When a match ends, the same atomic step stamps ``ended`` on the room, gives its live keys
(``room:{id}``, ``:log``, ``:chat``) a time to live of ``LIVE_TTL``, and copies the match
record a replay needs to ``match:{id}`` (a hash: game, options, seed, commitment, server_seed,
salt, seeding, ``nonce:{n}``, created, ``replays`` (who may export it), ``player:{n}``,
seats, ``name:{n}``, table, version, ended, ``outcome`` msgpack; no seat token hashes) and
``match:{id}:log`` (the decision log), both kept ``RECORD_TTL``. What the end changes outside the room's slot
(the open set, a score table, ratings and histories) is written next, by steps that may be repeated: the
same step records them in the room's ``out`` field (an :class:`Outbox`), and the node that ends the match,
or any node that loads the room later, writes them and then clears the field (:meth:`Store.done`).
"""
from __future__ import annotations

import contextlib
import functools
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

import hiredis
import msgpack
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import RedisError

from protocol.packing import pack
from server.errors import Fenced, StaleWrite, StoreMissing, StoreUnavailable
from server.store import keys, link
from server.store.group import Group
from server.store.lease import LEASE_MS

__all__ = ["CLUSTER_SCHEME", "Outbox", "RoomRecord", "Store"]

CLUSTER_SCHEME = "redis+cluster://"
"""A Redis URL with this scheme names a node of a Redis Cluster (``redis+cluster://host:port``)."""

PREFIX = "cardroom:"
OPEN = PREFIX + "open"
DAILY_SECRET = PREFIX + "secret:daily"
LIVE_TTL = 24 * 3600
"""Seconds a finished room's live keys stay in Redis (resume, spectate and rematch it meanwhile)."""
REQUEST_TTL = 600
"""Seconds a keyed ``create_room`` or ``join`` is remembered: a retry within them gets the same room and seat."""
POOL = 64
"""Connections to Redis at most; requests beyond them wait for one (a burst of spectators, a restart)."""
POOL_WAIT = 10.0
"""Seconds a request waits for a free connection before it fails as ``unavailable``."""
RECORD_TTL = 30 * 24 * 3600
"""Seconds a finished match's record (for replays) stays in Redis."""

# The match record, written when a match ends; KEYS: room, log, chat, match, match log;
# ARGV: ended, live ttl, record ttl, outcome (msgpack). Shared by _COMMIT and _FINISH.
_ARCHIVE = """
local function archive(k, a)
  redis.call('HSET', k[1], 'over', '1', 'ended', a[1])
  local fields = redis.call('HGETALL', k[1])
  local rec = {}
  for i = 1, #fields, 2 do
    local f = fields[i]
    if f ~= 'state' and f ~= 'out' and f ~= 'settle' and string.sub(f, 1, 5) ~= 'seat:' and string.sub(f, 1, 6) ~= 'abort:' then
      rec[#rec + 1] = f
      rec[#rec + 1] = fields[i + 1]
    end
  end
  redis.call('DEL', k[4])
  redis.call('HSET', k[4], unpack(rec))
  redis.call('HSET', k[4], 'outcome', a[4])
  redis.call('DEL', k[5])
  if redis.call('EXISTS', k[2]) == 1 then redis.call('COPY', k[2], k[5]) end
  for i = 1, 3 do redis.call('EXPIRE', k[i], a[2]) end
  redis.call('EXPIRE', k[4], a[3])
  redis.call('EXPIRE', k[5], a[3])
end
"""
ALIVE = PREFIX + "alive"

# Version check, log append (with a snapshot of the state now and then) and (when the match ends) the match
# record and what remains to write outside the room's slot (``out``): one atomic step, so a decision is either
# wholly stored or not at all. A room stored before snapshots holds the state of its version: it is marked so
# (its ``snap``) with the first decision that stores none. KEYS: room, log, and (sent only with the decision that ends the
# match) chat, match, match log; ARGV: expected, version, snapshot, record, over, out, clock, link, fence, then
# (the same) the archive's four. The room's fields are read in one call and written in one (the archived record keeps
# the clock as it was before the last decision, as it always has): each call a script makes costs Redis more than the
# command itself. ``commit`` reads its keys and arguments in place, after the first ``k`` of the call's KEYS and ``a``
# of its ARGV, so that a batch of them (_COMMIT_MANY) copies none.
_COMMIT_FN = _ARCHIVE + """
local function commit(K, A, k, a)
  local room, log = K[k + 1], K[k + 2]
  local expected, version, snapshot, over, clock, fence = A[a + 1], A[a + 2], A[a + 3], A[a + 5], A[a + 7], A[a + 9]
  local held = redis.call('HMGET', room, 'fence', 'version', 'snap')
  if fence ~= '' and held[1] ~= fence then return -1 end
  if held[2] ~= expected then return 0 end
  if snapshot == '' and held[3] then  -- most decisions: the version, the link and (mostly) the clock, no table built
    if clock ~= '' and over ~= '1' then
      redis.call('HSET', room, 'version', version, 'link', A[a + 8], 'clock', clock)
    else
      redis.call('HSET', room, 'version', version, 'link', A[a + 8])
    end
  else
    local fields = {'version', version, 'link', A[a + 8]}
    if snapshot ~= '' then
      fields[5], fields[6], fields[7], fields[8] = 'state', snapshot, 'snap', version
    else
      fields[5], fields[6] = 'snap', expected
    end
    if clock ~= '' and over ~= '1' then
      fields[#fields + 1] = 'clock'
      fields[#fields + 1] = clock
    end
    redis.call('HSET', room, unpack(fields))
  end
  redis.call('RPUSH', log, A[a + 4])
  if over == '1' then
    redis.call('HSET', room, 'over', '1')
    archive({room, log, K[k + 3], K[k + 4], K[k + 5]}, {A[a + 10], A[a + 11], A[a + 12], A[a + 13]})
    redis.call('HSET', room, 'out', A[a + 6])
    if clock ~= '' then redis.call('HSET', room, 'clock', clock) end
  end
  return 1
end
"""
_COMMIT = _COMMIT_FN + "return commit(KEYS, ARGV, 0, 0)\n"

# Many commits in one script call, each as its own call of _COMMIT would be, its result (or its error) in its
# place: on one Redis, where a script may write keys of any slot, a batch costs Redis one script call, not one
# per commit. KEYS: every commit's, in order; ARGV: how many commits, then per commit its count of keys and of
# arguments, and its arguments.
_COMMIT_MANY = _COMMIT_FN + """
local done, k, a = {}, 0, 2
for n = 1, tonumber(ARGV[1]) do
  local nk, na = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local ok, result = pcall(commit, KEYS, ARGV, k, a + 1)
  if ok then done[n] = result elseif type(result) == 'table' then done[n] = result else done[n] = {err = tostring(result)} end
  k, a = k + nk, a + 2 + na
end
return done
"""

# A seat, its holder's name, player id and nonce (and the clock the full room starts, the deal the last seat's
# nonce completes, and a keyed join's seat): one atomic step, so a lost reply cannot leave a seat half claimed,
# nor a full room without its deal. KEYS: room, the join's request (in the room's slot); on one Redis (where a
# script may write keys of other slots) also the player's room set and the join's request key, written first as
# a cluster's steps of their own are (ARGV[15] the room, ARGV[16] '1': the set, ARGV[17] '1': the request).
_CLAIM = """
if ARGV[16] == '1' then redis.call('SADD', KEYS[3], ARGV[15]) end
if ARGV[17] == '1' then redis.call('SET', KEYS[4], ARGV[15], 'NX', 'EX', ARGV[12]) end
if ARGV[14] ~= '' and redis.call('HGET', KEYS[1], 'fence') ~= ARGV[14] then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'clock', ARGV[7]) end
if ARGV[9] ~= '' then redis.call('HSET', KEYS[1], ARGV[8], ARGV[9]) end
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'seed', ARGV[10], 'state', ARGV[11]) end
if ARGV[12] ~= '' then redis.call('SET', KEYS[2], ARGV[13], 'EX', ARGV[12]) end
return 1
"""

# A new room's hash, unless the id is taken, and (ARGV[1] not empty) its lease, held by ARGV[1] for ARGV[2] ms
# with the first fencing token: made and held in one step, so no other node adopts it in between. A log or chat
# lines left under its id (an earlier room's, expired a moment apart from its hash) go: a new room has none. On
# one Redis (where a script may write keys of other slots) the same step enters it in the open set (KEYS[5]) and,
# for a keyed request (KEYS[6]), remembers it under the request's key, unless that names another room already:
# then nothing is made and that room is returned. KEYS: room, lease, log, chat, then those two; ARGV: holder,
# lease ms, the room, the request's TTL s, then the room's fields and values. 1, 0 (the id is taken), or a room.
_CREATE = """
if KEYS[6] then
  local prior = redis.call('GET', KEYS[6])
  if prior and prior ~= ARGV[3] then return prior end
end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if KEYS[6] then redis.call('SET', KEYS[6], ARGV[3], 'EX', ARGV[4]) end
if KEYS[5] then redis.call('SADD', KEYS[5], ARGV[3]) end
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], unpack(ARGV, 5))
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[1], 'fence', 1)
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
end
return 1
"""

# A keyed request's room, unless the request made one before: then that one. KEYS: request; ARGV: room, ttl.
_REQUEST = """
local prior = redis.call('GET', KEYS[1])
if prior then return prior end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
"""

# A room's ``out`` cleared once what it named is written, if it still names the same; with KEYS[2], the room first leaves
# the open set. KEYS: room(, the open set); ARGV: out(, the room's id).
_DONE = """
if KEYS[2] then redis.call('SREM', KEYS[2], ARGV[2]) end
if redis.call('HGET', KEYS[1], 'out') == ARGV[1] then redis.call('HDEL', KEYS[1], 'out') return 1 end
return 0
"""

# A seat's token replaced, if it is still the one expected (a retried request given its seat again).
_REISSUE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

# A daily attempt counted for an address, unless its count reached ARGV[1]. KEYS: the address's count;
# ARGV: attempts per address, seconds kept. 1 counted, 0 refused.
_DAILY = """
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# A seat's offer (``abort:{seat}`` or ``rematch:{seat}``, the value after "="), kept with the room so that the node
# serving it next knows it. KEYS: room; ARGV: fence ("" for a finished match: no lease), kind, seat, value, seats.
# -1 fenced off, -2 no such room; else {the rematch made ("" if none), then each seat's offer ("" for none)}.
_OFFER = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if ARGV[1] ~= '' and redis.call('HGET', KEYS[1], 'fence') ~= ARGV[1] then return -1 end
local out = {redis.call('HGET', KEYS[1], 'rematched') or ''}
if out[1] == '' then redis.call('HSET', KEYS[1], ARGV[2] .. ':' .. ARGV[3], '=' .. ARGV[4]) end
for i = 0, tonumber(ARGV[5]) - 1 do out[#out + 1] = redis.call('HGET', KEYS[1], ARGV[2] .. ':' .. i) or '' end
return out
"""

# The room a finished match's rematch is played in, unless one was set before (another node completed it first):
# the one that stands (no longer stored: nothing is written). KEYS: room; ARGV: the new room.
_REMATCHED = """
if redis.call('EXISTS', KEYS[1]) == 0 then return ARGV[1] end
redis.call('HSETNX', KEYS[1], 'rematched', ARGV[1])
return redis.call('HGET', KEYS[1], 'rematched')
"""

# A match that ended outside a decision: archive, once, and record what remains to write (``out``).
_FINISH = _ARCHIVE + """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'ended') == 1 then return 0 end
archive(KEYS, ARGV)
redis.call('HSET', KEYS[1], 'out', ARGV[5])
return 1
"""


@dataclass(frozen=True, slots=True)
class Outbox:
    """What a finished match still has to write outside its room's slot: the room leaves the open set; a ranked
    solitaire's ``score`` (table, member, points) enters its table; ``settle``, the players' ratings and
    histories (server/players/standings.py). Each write may be repeated: it counts once."""

    score: tuple[str, str, int] | None = None
    settle: bool = False

    def pack(self) -> bytes:
        packed: bytes = msgpack.packb({"score": list(self.score) if self.score else None, "settle": self.settle})
        return packed

    @staticmethod
    def unpack(raw: bytes) -> Outbox:
        data = msgpack.unpackb(raw, raw=False)
        score = data.get("score")
        return Outbox((str(score[0]), str(score[1]), int(score[2])) if score else None, bool(data.get("settle")))


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """A room as stored: its fixed facts, current state (plain data), version and claimed seats."""

    room: str
    game: str
    options: dict[str, Any]
    seed: int | None
    """The match seed; None while the room waits for the nonces its deal is derived from."""
    commitment: str
    created: float
    version: int
    state: dict[str, Any]
    """The state as last stored whole: at version ``snap``; ``tail`` holds the decisions since."""
    seats: tuple[str | None, ...]
    names: tuple[str, ...] = ()
    table: str = ""
    """The high-score table the room's result goes to: ``all``, ``daily:YYYY-MM-DD``, or "" (not ranked)."""
    spectator_chat: str = "all"
    """Who reads spectators' chat: ``all``, or ``spectators`` (kept from the seated players)."""
    ended: float | None = None
    """When the match ended (seconds since the epoch), once it has."""
    owners: tuple[str, ...] = ()
    """The player id holding each seat ("" for a guest or a free seat)."""
    limits: dict[str, int] | None = None
    """The room's clock setting (``move``, ``bank``, ``increment``); None for rooms stored before clocks."""
    clock: dict[str, Any] | None = None
    """The clock as last stored (see server/rooms/clock.py); None until the room first filled."""
    daily: str = ""
    """The day (``YYYY-MM-DD``, UTC) of a daily room, ranked or practice: its seed is told once that day has ended."""
    server_seed: int | None = None
    """The server's secret seed, committed to with ``salt`` (server/rooms/seeding.py); None for rooms stored before."""
    salt: str = ""
    seeding: str = ""
    """``players`` (the seed is derived from the nonces), ``fixed``, or "" for rooms stored before salts."""
    nonces: tuple[str, ...] = ()
    """Each seat's nonce ("" for a free seat)."""
    snap: int | None = None
    """The version ``state`` is at (None: at ``version``)."""
    link: str = ""
    """The last log record's link in the log's chain ("" before the first)."""
    tail: tuple[dict[str, Any], ...] = ()
    """The decision records after ``snap``, oldest first: replayed on ``state`` to reach ``version``."""
    replays: str = "everyone"
    """Who may export the finished match: ``everyone`` or ``players`` (server/lobby/replays.py)."""
    hosted: bool = False
    """Made for players seated in a second step (its creator, a pool's pair, a rematch's players): with no
    seat taken a while later, that step was cut (its node stopped) and the room is abandoned."""
    out: bytes = b""
    """The finished match's writes outside its slot not yet done (a packed :class:`Outbox`; empty: none)."""
    abort_offers: tuple[int, ...] = ()
    """The seats that offer to abort the match (``abort:{n}``)."""
    rematch_nonces: dict[int, str] = field(default_factory=dict)
    """The seats that asked for a rematch, each with its nonce for the new deal (``rematch:{n}``)."""
    rematched: str = ""
    """The room the rematch is played in, once every seat asked for it."""


_key = keys.room


class _HiredisPacking:
    """Packs commands with hiredis' packer (in C), as redis-py's synchronous client does; its asyncio client packs
    in Python: a room's creation (its many fields) took 37 µs to pack, 6 with hiredis, a seat's claim 18, 3. The
    bytes are the same (tests/server/test_packing.py); what hiredis refuses (a bool) gets redis-py's own error."""

    def pack_command(self, *args: Any) -> list[bytes]:
        first = args[0]  # a command name of two words (CONFIG GET) is sent as two arguments, as redis-py does
        if isinstance(first, str) and " " in first:
            args = (*first.encode().split(), *args[1:])
        elif isinstance(first, bytes) and b" " in first:
            args = (*first.split(), *args[1:])
        try:
            return [hiredis.pack_command(args)]
        except TypeError:
            return super().pack_command(*args)  # type: ignore[misc, no-any-return]


def _packing(connection: type[AbstractConnection]) -> type[AbstractConnection]:
    """``connection`` (the class a URL names: TCP, TLS or a Unix socket) packing with hiredis."""
    return type("Packing" + connection.__name__, (_HiredisPacking, connection), {})


def rooms_key(player: str) -> str:
    """The Redis set of rooms where ``player`` holds a seat."""
    return f"{PREFIX}player:{player}:rooms"


def _archive_keys(room: str) -> list[str]:
    return [keys.room(room), keys.log(room), keys.chat(room), keys.match(room), keys.match_log(room)]


@functools.lru_cache(maxsize=4096)
def _log_keys(room: str) -> list[str]:
    """The keys a decision that does not end its match is committed under (the room's hash and log), named once
    per room of the last few thousand: the commit script's caller only reads them."""
    return [keys.room(room), keys.log(room)]


def _request(request: str) -> str:
    return f"{PREFIX}request:{request}"


def _scores(table: str) -> str:
    return f"{PREFIX}scores:{table}"


class Store:
    """Async access to the rooms in Redis."""

    def __init__(self, url: str, replicas: int = 0) -> None:
        self.url = url
        self.cluster: RedisCluster | None = None
        """The cluster client, on a Redis Cluster (``redis+cluster://``); None on one Redis."""
        if url.startswith(CLUSTER_SCHEME):
            self.cluster = RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME):], max_connections=POOL)
            # the cluster client speaks the same commands; what differs (slots, connections per node, sharded
            # pub/sub) is asked of ``cluster`` where it matters
            self.redis: aioredis.Redis = self.cluster  # type: ignore[assignment]
        else:
            # a bounded pool that makes a burst wait for a connection (redis-py's default pool refuses past 100)
            pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=POOL, timeout=POOL_WAIT)
            pool.connection_class = _packing(pool.connection_class)
            self.redis = aioredis.Redis(connection_pool=pool)
        self.one_node = self.cluster is None
        """Every key on one Redis: a room's script also writes what lies in other slots (the open set, a request's
        key, a player's rooms), saving round trips; on a Redis Cluster those are steps of their own, taken first."""
        self._commit = Group(self.redis, self.redis.register_script(_COMMIT), self.cluster, replicas,
                             self.redis.register_script(_COMMIT_MANY))
        """Decisions, group-committed; with ``replicas``, each batch confirmed by that many replicas (WAIT)."""
        self.scripts = link.scripts_of(self.redis, make=self.cluster is None)
        """On one plain Redis: script calls (``keys.run_all``) written with the commits' batches (without replicas to
        wait for), else on a link of their own."""
        if self.scripts is not None and self._commit.plain and not replicas:
            self.scripts.carrier = self._commit.carry
        self._finish = self.redis.register_script(_FINISH)
        self._claim = self.redis.register_script(_CLAIM)
        self._create = self.redis.register_script(_CREATE)
        self._remember = self.redis.register_script(_REQUEST)
        self._reissue = self.redis.register_script(_REISSUE)
        self._daily = self.redis.register_script(_DAILY)
        self._done = self.redis.register_script(_DONE)
        self._offer = self.redis.register_script(_OFFER)
        self._rematched = self.redis.register_script(_REMATCHED)

    async def ping(self) -> None:
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise StoreUnavailable(f"cannot reach Redis at {self.url}: {exc}") from exc

    async def drop_idle(self) -> None:
        """Close the pool's idle connections (each is opened again when next taken): after an outage they may be
        broken in a way the pool does not see. (The cluster client retries a command that meets a broken
        connection on a new one by itself.)"""
        if self.cluster is None:
            await self.redis.connection_pool.disconnect(inuse_connections=False)

    async def close(self) -> None:
        """Close every connection to Redis: the links, and the pool's (a client given its pool does not close it by
        itself: each stopped server left its connections open)."""
        await self._commit.close()
        if self.scripts is not None:
            self.scripts.close()
        await self.redis.aclose(close_connection_pool=True)

    async def create(self, record: RoomRecord, request: str = "", holder: str = "") -> str:
        """Store a new room (its hash in one atomic step, after its place in the open set); "" if the id is taken.
        With a ``request`` key (see server/lobby/retries.py), the room's id is remembered under it first, for
        ``REQUEST_TTL`` seconds, and a request remembered before answers the id it was given instead (the room
        may be missing if that making was cut: the caller makes it under that id). With ``holder``, the room's
        lease is that node's from the same step, with fencing token 1. On one Redis all of it is one script
        call (``one_node``); on a Redis Cluster, up to four steps in that order."""
        key = _key(record.room)
        fields: dict[str | bytes, str | bytes | int | float] = {
            "game": record.game,
            "options": msgpack.packb(record.options),
            "commitment": record.commitment,
            "created": repr(record.created),
            "version": str(record.version),
            "state": pack(record.state),
            "snap": str(record.version),
            "seats": str(len(record.seats)),
            "table": record.table,
            "spectator_chat": record.spectator_chat,
            "replays": record.replays,
        }
        if record.hosted:
            fields["hosted"] = "1"
        if record.limits is not None:
            fields["limits"] = msgpack.packb(record.limits)
        if record.daily:
            fields["daily"] = record.daily
        if record.seed is not None:
            fields["seed"] = str(record.seed)
        if record.server_seed is not None:
            fields.update({"server_seed": str(record.server_seed), "salt": record.salt, "seeding": record.seeding})
        names = [key, keys.lease(record.room), keys.log(record.room), keys.chat(record.room)]
        args = [holder, LEASE_MS, record.room, REQUEST_TTL, *(x for kv in fields.items() for x in kv)]
        if self.one_node:  # one step: the open set's entry, the request's and the room's hash
            made = (await keys.run_all(self.redis, [(self._create, [*names, OPEN, *([_request(request)] if request else [])],
                                                      args)]))[0]
            return made.decode() if isinstance(made, bytes) else record.room if made else ""
        if request:  # first: a retry after a lost reply finds the room it made, or makes it under that id
            prior = str((await self._remember(keys=[_request(request)], args=[record.room, REQUEST_TTL])).decode())
            if prior != record.room:
                return prior
        await self.redis.sadd(OPEN, record.room)  # before the room: a room that exists is found by a restart
        if not await self._create(keys=names, args=args):
            if request:  # the id is another room's: the request is not remembered for it
                await self.redis.delete(_request(request))
            return ""
        await self.redis.sadd(OPEN, record.room)  # again: a look that found no hash meanwhile may have removed it
        return record.room

    async def requested(self, request: str, room: str = "") -> str | None:
        """What a keyed request made while it is remembered: a room id (for a join, the room it is for), or
        ``room:seat``, the seat a join of ``room`` took."""
        raw = await self.redis.get(keys.room_request(room, request) if room else _request(request))
        return raw.decode() if isinstance(raw, bytes) else None

    async def reissue(self, room: str, seat: int, old_hash: str, new_hash: str) -> bool:
        """Replace a seat's token hash, if it is still ``old_hash``; one atomic step."""
        return bool(await self._reissue(keys=[_key(room)], args=[f"seat:{seat}", old_hash, new_hash]))

    async def claim(self, room: str, seat: int, token_hash: str, name: str, player: str = "", clock: bytes = b"",
                    nonce: str = "", deal: tuple[int, bytes] | None = None, request: str = "",
                    fence: int | None = None) -> bool:
        """Claim a seat for a token hash (with the player's name, id and nonce, the room's clock if it
        starts now, ``deal`` = (seed, state) if this seat completes it, and ``room:seat`` under a
        ``request`` key) in one atomic step; False if someone holds it already. The player's room set and the
        request's room (other slots) are written first (on one Redis, in the same step): they may name a room
        where the player holds no seat, never miss one."""
        key = _key(room)
        seed, state = deal if deal is not None else ("", b"")
        names = [key, keys.room_request(room, request) if request else key + ":norequest"]
        if self.one_node:  # the room set and the request's key in the claim's step (placeholders when unused)
            names += [rooms_key(player) if player else key + ":noplayer", _request(request) if request else key + ":norequest"]
        else:
            if player:
                await self.redis.sadd(rooms_key(player), room)
            if request:  # which room the request is for (another slot), so that its key is not used for another
                await self.redis.set(_request(request), room, nx=True, ex=REQUEST_TTL)
        done = (await keys.run_all(self.redis, [(self._claim, names, [
            f"seat:{seat}", token_hash, f"name:{seat}", name, f"player:{seat}", player, clock, f"nonce:{seat}", nonce,
            str(seed), state, str(REQUEST_TTL) if request else "", f"{room}:{seat}", "" if fence is None else str(fence),
            room, "1" if self.one_node and player else "", "1" if self.one_node and request else ""])]))[0]
        if done == -1:
            raise Fenced(f"room {room}: another node has taken it over")
        return bool(done)

    async def holder(self, room: str, seat: int) -> str | None:
        """The token hash holding a seat, if any (after a claim whose reply was lost)."""
        raw = await self.redis.hget(_key(room), f"seat:{seat}")
        return raw.decode() if isinstance(raw, bytes) else None

    async def player_rooms(self, player: str) -> list[str]:
        """The rooms where ``player`` has held a seat."""
        members: set[bytes] = await self.redis.smembers(rooms_key(player))  # type: ignore[assignment]
        return sorted(m.decode() for m in members)

    async def save_clocks(self, clocks: dict[str, bytes]) -> None:
        """Store rooms' clocks alone (after a restart has carried them over the downtime), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for room, clock in clocks.items():
                pipe.hset(_key(room), "clock", clock)
            await pipe.execute()

    async def beat(self, now: float) -> None:
        """Say that a server is running at ``now``; a restarted server charges clocks only up to this."""
        await self.redis.set(ALIVE, repr(now))

    async def alive(self) -> float | None:
        """The last time a server said it was running, if ever."""
        raw = await self.redis.get(ALIVE)
        return float(raw) if raw is not None else None

    async def commit(self, room: str, expected: int, version: int, snapshot: bytes, record: bytes, over: bool,
                     out: Outbox | None = None, outcome: dict[str, Any] | None = None,
                     clock: bytes = b"", link: str = "", fence: int | None = None) -> None:
        """Persist a decision: its log record and ``link`` (its link in the log's chain), + the state when
        ``snapshot`` holds it, + the clock, + (when it ends the match) the match record and ``out``, what remains
        to write elsewhere (:meth:`done` once written); atomically, refused if the version moved."""
        args = [str(expected), str(version), snapshot, record, "1" if over else "0", out.pack() if out else b"",
                clock, link, "" if fence is None else str(fence)]
        if over:  # the script reads the archive's keys and arguments only for the decision that ends the match
            done = await self._commit(keys=_archive_keys(room), args=[*args, *self._archive_args(outcome)])
        else:
            done = await self._commit(keys=_log_keys(room), args=args)
        if done == -1:
            raise Fenced(f"room {room}: another node has taken it over")
        if not done:
            raise StaleWrite(f"room {room}: stored version is no longer {expected}")

    async def offer(self, room: str, kind: str, seat: int, value: str, seats: int,
                    fence: int | None = None) -> tuple[dict[int, str], str]:
        """Store a seat's offer (``kind`` ``abort`` or ``rematch``, with ``value``) with the room, in one atomic step
        (refused with :class:`Fenced` once another node has taken the room over); returns every seat's offer of
        that kind as stored now, and the room its rematch is played in ("" while none is): then nothing is stored."""
        done = await self._offer(keys=[_key(room)], args=["" if fence is None else str(fence), kind, seat, value, seats])
        if done == -1:
            raise Fenced(f"room {room}: another node has taken it over")
        if done == -2:
            raise StoreMissing(f"room {room} is no longer stored")
        made, *offers = (v.decode() if isinstance(v, bytes) else str(v) for v in done)
        return {n: offer[1:] for n, offer in enumerate(offers) if offer}, made

    async def rematched(self, room: str, new: str) -> str:
        """Record ``new`` as the room of ``room``'s rematch, unless another was recorded first: the one that stands."""
        made = await self._rematched(keys=[_key(room)], args=[new])
        return made.decode() if isinstance(made, bytes) else str(made)

    async def version(self, room: str) -> int | None:
        """The stored version of a room (None if there is no such room)."""
        raw = await self.redis.hget(_key(room), "version")
        return None if raw is None else int(raw)

    async def log_since(self, room: str, version: int) -> list[dict[str, Any]]:
        """The decision records after ``version`` (the record of version v is the log's v-th entry)."""
        raw = await self.redis.lrange(_key(room) + ":log", version, -1)
        return [msgpack.unpackb(r, raw=False) for r in raw]

    @staticmethod
    def _archive_args(outcome: dict[str, Any] | None) -> list[str | bytes]:
        """The archive's arguments of a match ending now: when it ended, the TTLs, and its outcome packed."""
        return [repr(time.time()), str(LIVE_TTL), str(RECORD_TTL), msgpack.packb(outcome)]

    async def finish(self, room: str, outcome: dict[str, Any] | None, out: Outbox | None = None) -> bool:
        """Archive a match that ended other than by a stored decision, with what remains to write elsewhere (``out``);
        False if already archived."""
        done = await self._finish(keys=_archive_keys(room), args=[*self._archive_args(outcome), (out or Outbox()).pack()])
        return bool(done)

    async def outbox(self, room: str) -> bytes:
        """A finished room's writes outside its slot not yet done (a packed :class:`Outbox`), or b"" for none."""
        raw = await self.redis.hget(_key(room), "out")
        return raw if isinstance(raw, bytes) else b""

    async def done(self, room: str, out: bytes) -> None:
        """What ``out`` named is written: the room leaves the open set, and ``out`` is cleared (if unchanged); on one
        Redis in one script call (``one_node``), on a Redis Cluster (the open set in a slot of its own) in two."""
        if self.one_node:
            await keys.run_all(self.redis, [(self._done, [_key(room), OPEN], [out, room])])
            return
        await self.redis.srem(OPEN, room)
        await self._done(keys=[_key(room)], args=[out])

    async def closing(self, room: str) -> None:
        """A cancelled or expired room (its tombstone stored) leaves the open set."""
        await self.redis.srem(OPEN, room)

    async def drop_missing(self, room: str) -> None:
        """An open-set entry whose room is not stored (closed, or a making cut before its hash) leaves the set,
        unless the room is there after all: a making only slow (its hash stored between two looks) keeps its
        entry, checked again after the removal and put back (the maker also adds it again once the hash is in)."""
        if await self.redis.hexists(_key(room), "game"):
            return
        await self.redis.srem(OPEN, room)
        if await self.redis.hexists(_key(room), "game"):
            await self.redis.sadd(OPEN, room)

    async def match(self, room: str) -> dict[str, Any] | None:
        """A finished match's record (fields as stored, ``options`` and ``outcome`` decoded, plus its ``log``)."""
        raw: dict[bytes, bytes] = await self.redis.hgetall(keys.match(room))  # type: ignore[assignment]
        if not raw:
            return None
        packed = (b"options", b"outcome", b"limits", b"clock")
        out: dict[str, Any] = {k.decode(): v.decode() for k, v in raw.items() if k not in packed}
        out.update({k.decode(): msgpack.unpackb(v, raw=False) for k, v in raw.items() if k in packed})
        logged = await self.redis.lrange(keys.match_log(room), 0, -1)
        out["log"] = [msgpack.unpackb(r, raw=False) for r in logged]
        return out

    async def closed(self, room: str) -> str:
        """Why a room was closed (``cancelled``, ``expired``), or "" if it was not."""
        reason = await self.redis.hget(_key(room), "closed")
        return reason.decode() if isinstance(reason, bytes) else ""

    async def log(self, room: str) -> list[dict[str, Any]]:
        """Every decision record of a room, oldest first."""
        return [msgpack.unpackb(r, raw=False) for r in await self.redis.lrange(_key(room) + ":log", 0, -1)]

    async def load(self, room: str) -> RoomRecord | None:
        """A room as stored, with the log records its snapshot lacks; None if there is none."""
        raw: dict[bytes, bytes] = await self.redis.hgetall(_key(room))  # type: ignore[assignment]
        record = self._parse(room, raw)
        if record is None or record.snap is None or record.snap >= record.version:
            return record
        tail: list[bytes] = await self.redis.lrange(_key(room) + ":log", record.snap, record.version - 1)  # type: ignore[assignment]
        return self._with_tail(record, tail)

    async def load_many(self, rooms: list[str]) -> list[RoomRecord]:
        """Many rooms at once: two pipelined round trips (the hashes, then the logs' tails)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for room in rooms:
                pipe.hgetall(_key(room))
            hashes = await pipe.execute()
        parsed = [r for r in (self._parse(room, raw) for room, raw in zip(rooms, hashes, strict=True)) if r is not None]
        behind = [r for r in parsed if r.snap is not None and r.snap < r.version]
        async with self.redis.pipeline(transaction=False) as pipe:
            for r in behind:
                pipe.lrange(_key(r.room) + ":log", r.snap or 0, r.version - 1)
            tails = dict(zip((r.room for r in behind), await pipe.execute(), strict=True))
        return [self._with_tail(r, tails[r.room]) if r.room in tails else r for r in parsed]

    @staticmethod
    def _with_tail(record: RoomRecord, tail: list[bytes]) -> RoomRecord:
        return replace(record, tail=tuple(msgpack.unpackb(r, raw=False) for r in tail))

    @staticmethod
    def _parse(room: str, raw: dict[bytes, bytes]) -> RoomRecord | None:
        """A room hash as read; None if it holds no room."""
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
            seed=int(raw[b"seed"]) if b"seed" in raw else None,
            commitment=raw[b"commitment"].decode(),
            created=float(raw[b"created"]),
            version=int(raw[b"version"]),
            state=msgpack.unpackb(raw[b"state"], raw=False, strict_map_key=False),
            seats=seats,
            names=tuple(raw.get(f"name:{n}".encode(), b"").decode() for n in range(count)),
            table=raw.get(b"table", b"").decode(),
            spectator_chat=raw.get(b"spectator_chat", b"all").decode(),
            ended=float(raw[b"ended"]) if b"ended" in raw else None,
            owners=tuple(raw.get(f"player:{n}".encode(), b"").decode() for n in range(count)),
            limits=msgpack.unpackb(raw[b"limits"], raw=False) if b"limits" in raw else None,
            clock=msgpack.unpackb(raw[b"clock"], raw=False) if b"clock" in raw else None,
            daily=raw.get(b"daily", b"").decode(),
            server_seed=int(raw[b"server_seed"]) if b"server_seed" in raw else None,
            salt=raw.get(b"salt", b"").decode(),
            seeding=raw.get(b"seeding", b"").decode(),
            nonces=tuple(raw.get(f"nonce:{n}".encode(), b"").decode() for n in range(count)),
            snap=int(raw[b"snap"]) if b"snap" in raw else None,
            link=raw.get(b"link", b"").decode(),
            replays=raw.get(b"replays", b"everyone").decode(),
            hosted=b"hosted" in raw,
            out=raw.get(b"out", b""),
            abort_offers=tuple(n for n in range(count) if f"abort:{n}".encode() in raw),
            rematch_nonces={n: raw[f"rematch:{n}".encode()].decode()[1:] for n in range(count)
                            if f"rematch:{n}".encode() in raw},
            rematched=raw.get(b"rematched", b"").decode(),
        )

    async def add_score(self, table: str, member: str, points: int) -> None:
        """A finished solitaire's entry in its high-score table (the same entry again changes nothing)."""
        await self.redis.zadd(_scores(table), {member: points})

    async def daily_secret(self) -> bytes:
        """The key of the daily seeds: 32 random bytes made once (SET NX, so every node agrees) and kept."""
        await self.redis.set(DAILY_SECRET, secrets.token_bytes(32), nx=True)
        secret = await self.redis.get(DAILY_SECRET)
        assert isinstance(secret, bytes)
        return secret

    async def first_daily(self, player: str, address: str, game: str, day: str, per_address: int) -> str:
        """Mark ``player``'s daily attempt of ``game`` on ``day`` from ``address`` (marks kept two days): "" if it
        is a first one, ``player`` if that player made one already, ``address`` if ``per_address`` attempts came
        from that address already. The player's mark is taken first (SET NX: one attempt wins), then the address
        counted; an address refused gives the player's mark back, so that a refused attempt counts for nothing."""
        mark, kept = f"{PREFIX}daily:{game}:{day}:{player}", 2 * 24 * 3600
        if not await self.redis.set(mark, b"1", nx=True, ex=kept):
            return "player"
        try:
            counted = await self._daily(keys=[f"{PREFIX}daily:{game}:{day}:at:{address}"], args=[str(per_address), str(kept)])
        except BaseException:
            with contextlib.suppress(Exception):
                await self.redis.delete(mark)
            raise
        if not counted:
            await self.redis.delete(mark)
            return "address"
        return ""

    async def scores(self, game: str, table: str, limit: int) -> list[tuple[str, int]]:
        """The best ``limit`` (member, points) of a game's table, best first."""
        rows: list[tuple[bytes, float]] = await self.redis.zrevrange(  # type: ignore[assignment]
            _scores(f"{game}:{table}"), 0, limit - 1, withscores=True
        )
        return [(member.decode(), int(points)) for member, points in rows]

    async def open_ids(self) -> list[str]:
        """The ids of every unfinished room (sorted), for resuming them after a restart."""
        members: set[bytes] = await self.redis.smembers(OPEN)  # type: ignore[assignment]
        return sorted(m.decode() for m in members)

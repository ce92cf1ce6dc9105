"""Group commit: one batch of commits in flight per store, the commits that arrive meanwhile queued behind it and
sent together as the next batch, so batches grow with the load; each gets its own result (a stale one fails
alone), as if sent by itself.

A batch is packed once (hiredis' C packer) and written on a connection kept for commits, and its replies read
back in order: no pipeline object per batch. On one plain Redis without replicas to wait for, the script calls of
``keys.run_all`` (making, seating and ending rooms, quotas, leases) ride with the next batch (:meth:`Group.carry`):
Redis then reads, runs and fsyncs them with the commits rather than in turns of its own. On one plain Redis (over
TCP or a Unix socket) that connection is a :class:`server.store.link.Link`, which parses the replies as they arrive,
with no read coroutine per reply.
Every call is a Lua script call (EVALSHA, not in a transaction: each script is atomic by itself and the calls
are independent). On one Redis, a batch of many is one call of ``many``, a script that makes each call in turn
and answers each one's result in its place (a script call costs Redis more than the commands it makes). On a
Redis Cluster a batch is split by the primary that serves each call's slot, with a commit connection kept per
primary, and the parts are sent at once. With ``replicas`` (``--min-replicas-acked``), ``WAIT replicas timeout``
follows each batch on its connection: if fewer replicas confirm it in time, each call of the batch that
succeeded fails with :class:`server.errors.Unreplicated` instead (its primary holds it, a failover may not).
"""
from __future__ import annotations

import asyncio
import contextlib
import math
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.commands.core import AsyncScript
from redis.exceptions import NoScriptError, ResponseError

from server.errors import Unreplicated
from server.ops import metrics
from server.store.link import Link, Unopened, as_raised, open_like, pack, plain

__all__ = ["REPLICA_WAIT_MS", "REPLY_TIMEOUT", "Group"]

REPLY_TIMEOUT = 10.0
"""Seconds to wait for a batch's replies: past that, each commit's room asks Redis whether it landed."""

GATHER = 4
"""Turns of the event loop a batch waits before it is sent when the batch before it carried more than one commit
(under load): the requests read meanwhile make their commits, which join it. Redis fsyncs once a batch, and on a
disk like this machine's an fsync costs Redis some 100 µs of CPU where a commit costs it 7: under bench.load, pinned,
batches grow from 16 to 41 commits, and Redis' CPU a decision falls by a fifth. A lone commit (a quiet node) is sent
at once."""
REPLICA_WAIT_MS = 1000
"""Milliseconds a batch waits for its replicas (``WAIT``) before its commits are answered as unconfirmed."""

Call = tuple[list[Any], list[Any], "asyncio.Future[Any]"]


def _each(reply: Any, calls: int) -> list[Any]:
    """The results of ``calls`` calls made in one call of ``many``: its reply's elements (an error reply's as its
    exception, as redis-py makes it), or its own error for each (NoScriptError: none was made)."""
    if isinstance(reply, Exception):
        return [reply] * calls
    return [as_raised(r) for r in reply]


class Group:
    """Calls of one Lua script, batched while the batch before is in flight."""

    def __init__(self, redis: aioredis.Redis, script: AsyncScript, cluster: RedisCluster | None = None,
                 replicas: int = 0, many: AsyncScript | None = None) -> None:
        self.redis = redis
        self.script = script
        self.many = many if cluster is None else None
        """The script that makes many calls of ``script`` in one (ARGV: how many, then for each its counts of keys
        and of arguments and its arguments; KEYS: each one's in turn), on one Redis."""
        self.cluster = cluster
        """On a Redis Cluster: its client, which tells the primary of each call's slot."""
        self.replicas = replicas
        """Replicas that must confirm a batch before its commits succeed (0: the primary's reply is enough)."""
        self.pending: list[Call] = []
        self.carried: list[tuple[list[tuple[Any, ...]], asyncio.Future[list[Any]]]] = []
        """Other commands to write with the next batch (:meth:`carry`), each group with its future."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.flying: asyncio.Task[None] | None = None
        self.conns: dict[str, AbstractConnection] = {}
        """The connection kept for commits, per primary ("" on one Redis), when it is redis-py's."""
        self.plain = cluster is None and plain(redis)
        """One Redis over plain TCP or a Unix socket, in RESP2: commits go through a :class:`Link` of their own."""
        self.link: Link | None = None

    def __call__(self, keys: list[Any], args: list[Any]) -> asyncio.Future[Any]:
        """Queue a call of the script; the future holds its reply (awaited as it is: no coroutine of its own)."""
        future: asyncio.Future[Any] = self._queued()
        self.pending.append((keys, args, future))
        return future

    def carry(self, commands: list[tuple[Any, ...]]) -> asyncio.Future[list[Any]]:
        """Write ``commands`` with the next batch (at once when none is in flight); their replies in order, an error
        reply as its exception. The script calls of making and seating rooms so share a batch's write and Redis's
        fsync of it, rather than costing their own. On one plain Redis, without ``replicas`` (whose ``WAIT`` is for
        the commits alone); :class:`Unopened` when no link could be opened, nothing written."""
        assert self.plain and not self.replicas, "commands are carried on one plain Redis's link, with no WAIT"
        future: asyncio.Future[list[Any]] = self._queued()
        self.carried.append((commands, future))
        return future

    def _queued(self) -> asyncio.Future[Any]:
        """The future of a call the caller queues now, with the drain started if none runs (it first yields, so the
        call is queued by the time it looks)."""
        loop = self.loop
        if loop is None:  # (asked once: in Python 3.11 each asking makes a getpid system call)
            loop = self.loop = asyncio.get_running_loop()
        if self.flying is None:
            self.flying = loop.create_task(self._drain())
        return loop.create_future()

    async def _drain(self) -> None:
        """Send what is pending, one batch at a time, until nothing is."""
        try:
            await asyncio.sleep(0)  # the other commits of this loop tick join the first batch
            sent = 0
            while self.pending or self.carried:
                if sent > 1:  # under load: the commits of requests already read join this batch (see GATHER)
                    for _ in range(GATHER):
                        await asyncio.sleep(0)
                batch, self.pending = self.pending, []
                sent = len(batch)
                carried, self.carried = self.carried, []
                if batch:
                    metrics.COMMIT_BATCH.observe(len(batch))
                if self.cluster is None:
                    await self._send("", batch, carried)
                else:
                    parts: dict[str, list[Call]] = {}
                    for call in batch:
                        node = self.cluster.get_node_from_key(call[0][0])
                        parts.setdefault(node.name if node is not None else "", []).append(call)
                    await asyncio.gather(*(self._send(node, part) for node, part in parts.items()))
        finally:
            self.flying = None

    async def _send(self, node: str, batch: list[Call],
                    carried: list[tuple[list[tuple[Any, ...]], asyncio.Future[list[Any]]]] | None = None) -> None:
        carried = carried or []
        try:
            results, replies = await self._round_trip(node, batch, [commands for commands, _ in carried])
            if any(isinstance(r, NoScriptError) for r in results):  # Redis restarted or flushed its scripts
                for script in (self.script, self.many):
                    if script is not None:
                        await self.redis.script_load(script.script)
                again = [call for call, r in zip(batch, results, strict=True) if isinstance(r, NoScriptError)]
                redone = iter((await self._round_trip(node, again))[0])  # those did not run: sending them again is safe
                results = [next(redone) if isinstance(r, NoScriptError) else r for r in results]
        except (Exception, asyncio.CancelledError) as exc:  # whether each landed is for its room to find out
            if self.link is not None:  # closed: the next batch opens another
                self.link.close()
                self.link = None
            conn = self.conns.get(node)
            if conn is not None:  # kept: it connects again for the next batch
                with contextlib.suppress(Exception):
                    await conn.disconnect()
            for future in [call[2] for call in batch] + [future for _, future in carried]:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else ConnectionError("commit cancelled"))
            if isinstance(exc, asyncio.CancelledError):
                raise
            return
        for (_, done), got in zip(carried, replies, strict=True):
            if not done.done():
                done.set_result(got)
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():
                continue
            if isinstance(result, Exception):
                future.set_exception(result)
            else:
                future.set_result(result)

    async def _connection(self, node: str) -> AbstractConnection:
        """The connection kept for commits to ``node``."""
        conn = self.conns.get(node)
        if conn is None:
            if self.cluster is None:
                conn = await self.redis.connection_pool.get_connection()  # type: ignore[no-untyped-call]  # kept
            else:
                found = self.cluster.get_node(node_name=node)
                if found is None:
                    raise ConnectionError(f"no primary {node or 'serves this slot'}")
                conn = found.acquire_connection()
            self.conns[node] = conn
        await conn.connect()
        return conn

    def _give_back(self, node: str, conn: AbstractConnection) -> None:
        if self.cluster is None:
            return
        found = self.cluster.get_node(node_name=node)
        if found is not None:
            found.release(conn)  # type: ignore[arg-type]

    async def _link(self) -> Link:
        """The link kept for commits (on one plain Redis), opened again after a failure closed it."""
        if self.link is None or self.link.lost is not None:
            try:
                self.link = await open_like(self.redis, REPLY_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise Unopened(f"no link to Redis: {exc}") from exc
        return self.link

    async def _round_trip(self, node: str, batch: list[Call],
                          carried: list[list[tuple[Any, ...]]] | None = None) -> tuple[list[Any], list[list[Any]]]:
        """One write of the whole batch (and the ``carried`` commands after it), then its replies in order (an error
        reply is that call's result), and each carried group's."""
        commands = self._commands(batch) if batch else []
        own = len(commands)
        for more in carried or []:
            commands += more
        if self.replicas:
            commands.append(("WAIT", self.replicas, REPLICA_WAIT_MS))
        results: list[Any] = []
        if self.plain:
            link = await self._link()  # one bound for the whole batch, kept by the link's one timer
            results = await link.call(pack(commands), len(commands), REPLY_TIMEOUT + REPLICA_WAIT_MS / 1000)
            confirmed = results.pop() if self.replicas else None
        else:
            conn = await self._connection(node)
            await conn.send_packed_command(pack(commands), check_health=False)
            # one bound for the whole batch: each read waits without redis-py's own timer (``math.inf``), which
            # would arm and cancel one per reply
            async with asyncio.timeout(REPLY_TIMEOUT + REPLICA_WAIT_MS / 1000):
                for _ in commands[:len(commands) - bool(self.replicas)]:
                    try:
                        results.append(await conn.read_response(timeout=math.inf))
                    except ResponseError as exc:
                        results.append(exc)
                confirmed = await conn.read_response(timeout=math.inf) if self.replicas else None
        replies: list[list[Any]] = []
        at = own
        for more in carried or []:
            replies.append(results[at:at + len(more)])
            at += len(more)
        results = results[:own]
        if len(results) < len(batch):  # one call of ``many``
            results = _each(results[0], len(batch))
        if isinstance(confirmed, Exception):  # WAIT refused: the batch fails, as any error of its round trip
            raise confirmed
        if confirmed is not None and int(confirmed) < self.replicas:
            metrics.UNREPLICATED.inc(len(batch))
            short = Unreplicated(f"{confirmed} of {self.replicas} replicas confirmed the commit in {REPLICA_WAIT_MS} ms")
            results = [r if isinstance(r, Exception) else short for r in results]
        return results, replies

    def _commands(self, batch: list[Call]) -> list[tuple[Any, ...]]:
        """The batch's script calls: one of ``many`` for a batch of more than one on one Redis."""
        if self.many is not None and len(batch) > 1:
            names: list[Any] = []
            argv: list[Any] = [len(batch)]
            for keys, args, _ in batch:
                names += keys
                argv += (len(keys), len(args), *args)
            return [("EVALSHA", self.many.sha, len(names), *names, *argv)]
        sha = self.script.sha
        return [("EVALSHA", sha, len(keys), *keys, *args) for keys, args, _ in batch]

    async def close(self) -> None:
        """Close the commit connections and give them back."""
        if self.link is not None:
            self.link.close()
            self.link = None
        for node, conn in list(self.conns.items()):
            self.conns.pop(node, None)
            with contextlib.suppress(Exception):
                await conn.disconnect()
                if self.cluster is None:
                    await self.redis.connection_pool.release(conn)
                else:
                    self._give_back(node, conn)

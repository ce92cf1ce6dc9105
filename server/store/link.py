"""A connection to one Redis kept for batches of commands: each batch written whole, its replies parsed by
hiredis as they arrive and handed to the batch that waits for them, in order.

The group commit (server/store/group.py) keeps one for its batches, which also carries the script calls of
``keys.run_all`` (:class:`Scripts`; on a link of their own where the group takes none: with replicas to wait for):
through redis-py each reply cost a read coroutine of its own over an asyncio stream (and each call its pool's
bookkeeping). Here the socket's protocol parses what arrives and completes the batch's future in
the same callback. It connects as redis-py would for a plain Redis, over TCP or a Unix socket (``AUTH`` and ``SELECT``
from the pool's settings); any other kind of connection (TLS, RESP3) keeps redis-py's path.
"""
from __future__ import annotations

import asyncio
import collections
import weakref
from collections.abc import Awaitable, Callable
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis._parsers.base import BaseParser
from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection
from redis.commands.core import AsyncScript

from server.store import resp

__all__ = ["CARRIED", "REPLY_TIMEOUT", "Carrier", "Link", "Scripts", "Unopened", "pack", "plain", "scripts_of"]

REPLY_TIMEOUT = 10.0
"""Seconds a batch of script calls waits for its replies on a link before the link is closed and the calls fail."""
CARRIED = 8
"""The most script calls of one ``keys.run_all`` that ride with a batch of commits (:class:`Scripts`); more (a node's
leases renewed, say) take the scripts' own link, so that no commit waits behind them."""


Carrier = Callable[[list[tuple[Any, ...]]], Awaitable[list[Any]]]
"""Writes commands on a link kept for other batches, with the next of them, and answers their replies in order."""


class Unopened(ConnectionError):
    """No link could be opened: nothing was written."""


def _hiredis_pack(commands: list[tuple[Any, ...]]) -> bytes:
    return b"".join([hiredis.pack_command(command) for command in commands])


pack: Callable[[list[tuple[Any, ...]]], bytes] = resp.pack if resp.COMPILED else _hiredis_pack
"""Commands in Redis' wire form: by the compiled packer of server/store/resp.py where the engine's build is loaded,
else by hiredis' (in C: a sixth of the time of redis-py's)."""


def as_raised(reply: Any) -> Any:
    """An error reply as the exception redis-py makes of it (NoScriptError, ...); any other reply as it is."""
    if isinstance(reply, hiredis.ReplyError):
        return BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call]
    return reply


class Link(asyncio.Protocol):
    """One socket to Redis: :meth:`call` writes a batch of packed commands and returns their replies in order, an
    error reply as its exception (as redis-py makes it) in its place. A lost connection fails every batch
    waiting on it; the link is then closed for good and its owner opens another."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.loop = asyncio.get_running_loop()  # (asked once: in Python 3.11 each asking makes a getpid system call)
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[tuple[int, list[Any], asyncio.Future[list[Any]], float]] = collections.deque()
        """Each batch written: how many replies it waits for, those come, its future, and when (loop time) they must
        all have come."""
        self.watch: asyncio.TimerHandle | None = None
        """The one timer that checks the batches' deadlines, due at the earliest: armed when a batch is written and
        none is (or it is due later), so a batch costs no timer of its own (an ``asyncio.timeout`` per batch armed
        and cancelled one each)."""
        self.lost: Exception | None = None

    @classmethod
    async def open(cls, host: str, port: int, db: int = 0, username: str | None = None,
                   password: str | None = None, timeout: float = 10.0, path: str | None = None) -> Link:
        """Connect (to the Unix socket ``path``, if given, else to ``host`` and ``port``), and log in and pick the
        database as the pool's connections do."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(timeout):
            if path is not None:
                _, link = await loop.create_unix_connection(cls, path)
            else:
                _, link = await loop.create_connection(cls, host, port)
            hello: list[tuple[Any, ...]] = []
            if password is not None:
                hello.append(("AUTH", username, password) if username else ("AUTH", password))
            if db:
                hello.append(("SELECT", db))
            if hello:
                for reply in await link.call(pack(hello), len(hello)):
                    if isinstance(reply, Exception):
                        link.close()
                        raise reply
        return link

    def call(self, packed: bytes, replies: int, timeout: float = REPLY_TIMEOUT) -> asyncio.Future[list[Any]]:
        """Write ``packed`` (``replies`` commands); the future holds their replies once all have come. Those that have
        not come within ``timeout`` seconds fail it with a TimeoutError, and the link is closed: replies come in
        order, so every batch written after it would wait as long."""
        future: asyncio.Future[list[Any]] = self.loop.create_future()
        if self.lost is not None or self.transport is None or self.transport.is_closing():
            future.set_exception(self.lost or ConnectionError("the link to Redis is closed"))
            return future
        deadline = self.loop.time() + timeout
        self.waiting.append((replies, [], future, deadline))
        if self.watch is None or deadline < self.watch.when():
            self._arm(deadline)
        self.transport.write(packed)
        return future

    def _overdue(self) -> None:
        """The watch's turn: fail every batch and close the link if any is past its deadline, else look again at the
        oldest one's."""
        self.watch = None
        if not self.waiting:
            return
        now = self.loop.time()
        if any(deadline <= now for *_, deadline in self.waiting):
            if self.transport is not None:
                self.transport.abort()
            self._fail(TimeoutError("Redis did not answer a batch of commands in the time allowed"))
            return
        self._arm(min(deadline for *_, deadline in self.waiting))

    def _arm(self, at: float) -> None:
        if self.watch is not None:
            self.watch.cancel()
        self.watch = self.loop.call_at(at, self._overdue)

    def close(self) -> None:
        """Close the socket: every batch still waiting fails."""
        if self.transport is not None:
            self.transport.abort()
        self._fail(ConnectionError("the link to Redis was closed"))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream transport: uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting = self.waiting
        while waiting:
            wanted, got, future, _ = waiting[0]
            reply = self.reader.gets()
            if reply is False:
                return
            got.append(as_raised(reply))
            if len(got) == wanted:
                waiting.popleft()
                if not future.done():
                    future.set_result(got)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("Redis closed the link"))

    def _fail(self, exc: Exception) -> None:
        if self.lost is None:
            self.lost = exc
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        while self.waiting:
            _, _, future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(self.lost)


def plain(redis: aioredis.Redis) -> bool:
    """Whether ``redis`` is one Redis over plain TCP or a Unix socket in RESP2, which a :class:`Link` can speak to."""
    pool = redis.connection_pool
    kind = pool.connection_class
    return (((issubclass(kind, Connection) and not issubclass(kind, SSLConnection))
             or issubclass(kind, UnixDomainSocketConnection))
            and pool.connection_kwargs.get("protocol") in (None, 2, "2"))


async def open_like(redis: aioredis.Redis, timeout: float = REPLY_TIMEOUT) -> Link:
    """A link to the Redis ``redis`` (a :func:`plain` one) connects to, as its user and on its database."""
    settings = redis.connection_pool.connection_kwargs
    return await Link.open(settings.get("host", "localhost"), int(settings.get("port", 6379)), int(settings.get("db", 0)),
                           settings.get("username"), settings.get("password"), timeout, settings.get("path"))


class Scripts:
    """Lua script calls to one plain Redis written with the group commit's batches (``carrier``), else on a link of
    their own, many in one write (the calls of every request pipelined on it): a round trip through redis-py's pool
    costs ten times the CPU. Calls go through redis-py instead while no link can be opened; calls written on a link
    that then fails fail with it (whether they ran is for the caller to find out, as after a lost reply through
    redis-py): they are never sent twice."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self.link: Link | None = None
        self.opening: asyncio.Future[Link] | None = None
        self.carrier: Carrier | None = None
        """The store's group commit, when it takes script calls with its batches (server/store/group.py): a
        call then shares a batch's write, and Redis's fsync of it, rather than costing its own."""

    async def _link(self) -> Link:
        if self.link is not None and self.link.lost is None:
            return self.link
        if self.opening is None:  # one connection, however many calls wait for it
            self.opening = asyncio.ensure_future(open_like(self.redis))
        opening = self.opening
        try:
            self.link = await asyncio.shield(opening)
        finally:
            if self.opening is opening and opening.done():
                self.opening = None
        return self.link

    async def run(self, calls: list[tuple[AsyncScript, list[str], list[Any]]]) -> list[Any] | None:
        """The calls' replies in order (an error reply as its exception), or None when no link could be opened
        (nothing was sent: the caller sends them through redis-py)."""
        commands = [("EVALSHA", script.sha, len(names), *names, *args) for script, names, args in calls]
        if self.carrier is not None and len(commands) <= CARRIED:
            try:
                return await self.carrier(commands)
            except Unopened:
                return None
        try:
            link = await self._link()
        except (OSError, TimeoutError):
            return None
        packed = pack(commands)
        try:
            return await link.call(packed, len(calls))
        except (OSError, TimeoutError):  # lost or silent: closed, and the next call opens another (a caller
            link.close()                  # cancelled leaves it open: its replies still come, and are skipped)
            if self.link is link:
                self.link = None
            raise

    def close(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None


_SCRIPTS: weakref.WeakKeyDictionary[aioredis.Redis, Scripts] = weakref.WeakKeyDictionary()


def scripts_of(redis: Any, make: bool = False) -> Scripts | None:
    """The :class:`Scripts` kept for the client ``redis`` (made with ``make``, if it is a :func:`plain` one)."""
    if not isinstance(redis, aioredis.Redis):
        return None
    found = _SCRIPTS.get(redis)
    if found is None and make and plain(redis):
        found = _SCRIPTS[redis] = Scripts(redis)
    return found

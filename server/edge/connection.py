"""One client connection: frames written at once while its socket keeps up, else an ordered outbox drained by
its own writer task.

Broadcasts never wait, so a slow reader never stalls a room: a frame goes straight to the transport only when
nothing is queued before it and the transport holds little (``DIRECT_BUFFER``); otherwise it is queued. A reader that lets more
than OUTBOX frames or OUTBOX_BYTES bytes pile up is dropped once: it is marked dead,
unwatched from every room (no more frames are built for it), and its transport is
aborted if the close handshake has not finished within CLOSE_TIMEOUT.

A reader that stops reading is dropped sooner, whatever it has queued: its socket's kernel send buffer is
small (``SNDBUF``), so its transport's write buffer soon passes the high-water mark (``WRITE_LIMIT``) and
writing pauses; if it has not drained below the low-water mark, nor shrunk, within ``STALL_SECONDS``, the
connection is dropped as stalled (``cardroom_stalled_drops_total``). What one connection holds is so bounded
by ``SNDBUF`` (doubled by Linux) in the kernel, ``DIRECT_BUFFER`` plus one frame in its transport, and the
outbox bound, for at most ``STALL_SECONDS`` once it stops reading.

``Socket`` is the websockets connection class the server makes (``serve(create_connection=...)``): it sets
the send buffer, watches for stalls, and reads a PROXY protocol header (server/edge/forwarded.py) before the
HTTP handshake, believing it only from a trusted proxy.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any, cast

from websockets.asyncio.connection import broadcast
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from protocol.framing import at_frame_start, header
from server.edge import forwarded
from server.ops import metrics
from server.rooms.peer import Peer

try:  # websockets' C unmasking, as its own parser uses it (its pure-Python one where it was built without)
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

__all__ = ["CLOSE_TIMEOUT", "OUTBOX", "OUTBOX_BYTES", "SNDBUF", "STALL_SECONDS", "WRITE_LIMIT", "Connection", "Inbox",
           "Socket", "next_request", "socket_class", "wire"]

log = logging.getLogger(__name__)
OUTBOX = 512
"""Frames queued for one connection before it is dropped."""
OUTBOX_BYTES = 4 * 1024 * 1024
"""Bytes queued for one connection before it is dropped."""
DIRECT_BUFFER = 64 * 1024
"""Bytes a connection's transport may hold for a new frame still to be written at once rather than queued."""
CLOSE_TIMEOUT = 2.0
"""Seconds a dropped connection's close handshake may take before its transport is aborted."""
STALL_SECONDS = 5.0
"""Seconds a connection's writing may stay paused without its buffer draining or shrinking before it is dropped."""
SNDBUF = 32 * 1024
"""The socket send buffer asked for each connection (Linux doubles it): the kernel holds little for a non-reader."""
WRITE_LIMIT = (32 * 1024, 8 * 1024)
"""The transport's write buffer high- and low-water marks: writing pauses above the first, resumes below the second."""


class Socket(ServerConnection):
    """The server's websockets connection: a small send buffer, stall detection, and the client's address
    (``client``) from a trusted proxy's PROXY header (server/edge/forwarded.py)."""

    trusted: forwarded.Trusted = forwarded.Trusted()
    """Peers whose PROXY header is believed (set on the class ``socket_class`` makes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.client = ""
        """The client's address: the TCP peer's, or what a trusted proxy said (PROXY header, X-Forwarded-For)."""
        self.proxied = False
        """A trusted proxy's PROXY header named the client."""
        self.header: bytearray | None = bytearray()
        """Bytes read while a PROXY header may still be coming; None once past it."""
        self.framing: bytearray | None = None
        """Bytes of frames not yet whole, once this class reads the frames (see :meth:`_read_frames`)."""
        self.on_stall: Callable[[], None] | None = None
        self.stall: asyncio.TimerHandle | None = None
        self.stall_mark = 0
        self.inbox_wanted = False
        """:meth:`read_requests` was called: the next request read here with websockets' queue empty opens the inbox."""
        self.inbox: Inbox | None = None
        """Where :meth:`_read_frames` puts the requests it reads (see :class:`Inbox`); None: they go through
        websockets' own queue."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.client = forwarded.normal(str(peer[0])) if peer else "?"
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError, AttributeError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SNDBUF)

    def data_received(self, data: bytes) -> None:
        if self.header is None:
            if self.framing is not None:
                self._read_frames(data)
                return
            super().data_received(data)
            if self.protocol.state is State.OPEN and not self.protocol.extensions and at_frame_start(self.protocol):
                self.framing = bytearray()  # the handshake is done, and nothing of a frame is held: frames read here
            return
        self.header += data
        pending = bytes(self.header)
        begins = forwarded.begins_header(pending)
        if begins is None:
            return
        if not begins:
            self.header = None
            super().data_received(pending)
            return
        try:
            parsed = forwarded.parse_header(pending)
        except forwarded.BadHeader as exc:
            log.warning("bad PROXY header from %s: %s", self.client, exc)
            metrics.REFUSED.labels("proxy_header").inc()
            self.header = None
            self.transport.abort()
            return
        if parsed is None:
            return
        address, used = parsed
        self.header = None
        if self.client in self.trusted:
            if address is not None:
                self.client, self.proxied = address, True
        else:  # anyone may write a header: only a trusted proxy's is believed
            metrics.IGNORED_FORWARDING.inc()
            if self.client not in _warned and len(_warned) < 1000:
                _warned.add(self.client)
                log.warning("PROXY header from %s, not a trusted proxy: ignored (see --trusted-proxy)", self.client)
        if len(pending) > used:
            super().data_received(pending[used:])

    def _read_frames(self, data: bytes) -> None:
        """Frames after the handshake: a whole, masked, unfragmented binary frame within the size limit (every request
        a client sends) is unmasked and handed on here, the very frame websockets would make of it; any other frame
        (a ping, a pong, a close, text, a fragment, a malformed one) goes to websockets' own parser once it is whole, so
        that its parser only ever starts at a frame's first byte. A frame too large, or anything after a close, goes to
        it at once, and so does all that follows: websockets fails or closes the connection as it always has."""
        buf = self.framing
        assert buf is not None
        buf += data
        protocol = self.protocol
        limit = protocol.max_message_size
        size, at = len(buf), 0
        while size - at >= 2:
            found = header(buf, at, size)
            if found is None:
                break
            head, (start, length) = buf[at], found
            end = start + 4 + length
            if not buf[at + 1] & 0x80 or (limit is not None and length > limit) or protocol.state is not State.OPEN:
                self._hand_over(at)
                return
            if end > size:
                break
            if head == 0x82 and protocol.current_size is None:
                payload = apply_mask(buf[start + 4:end], buf[start:start + 4])
                if self.inbox is not None and not self.inbox.closed:
                    self.inbox.put(payload)
                else:
                    fresh = self.inbox_wanted and self.inbox is None and not self.queued()
                    self.process_event(Frame(Opcode.BINARY, payload))
                    if fresh:  # this one wakes a reader waiting on websockets' queue; those after it, the inbox
                        self.inbox = Inbox(self)
            else:
                if self.inbox is not None and head not in _CONTROL:  # a message of websockets' queue: after these
                    self.inbox.close()
                super().data_received(bytes(buf[at:end]))
            at = end
        del buf[:at]

    def _hand_over(self, at: int) -> None:
        """From byte ``at`` of what is held on, websockets' parser reads everything (see :meth:`_read_frames`)."""
        assert self.framing is not None
        rest = bytes(self.framing[at:])
        self.framing = None
        if self.inbox is not None:
            self.inbox.close()
        super().data_received(rest)

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.stall is None:
            self.stall_mark = self.transport.get_write_buffer_size()
            self.stall = self.loop.call_later(STALL_SECONDS, self._stalled)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None

    def _stalled(self) -> None:
        """Still paused STALL_SECONDS on: dropped, unless the buffer shrank meanwhile (a slow reader, not a dead one)."""
        self.stall = None
        if not self.paused or self.transport.is_closing():
            return
        size = self.transport.get_write_buffer_size()
        if size < self.stall_mark:
            self.stall_mark = size
            self.stall = self.loop.call_later(STALL_SECONDS, self._stalled)
            return
        if self.on_stall is not None:
            self.on_stall()
        else:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None
        if self.inbox is not None:
            self.inbox.close()
        super().connection_lost(exc)

    def read_requests(self) -> None:
        """Hand this connection's requests to an :class:`Inbox` (``inbox``) from the first one after websockets'
        queue is found empty with the frames read here: its reader takes what that queue holds first."""
        self.inbox_wanted = True

    def queued(self) -> bool:
        """Whether websockets' queue holds a message (or a part of one); True as well for a websockets whose queue
        this class cannot see: then it reads them all."""
        frames = getattr(self.recv_messages, "frames", None)
        return frames is None or len(frames) > 0


_CONTROL = frozenset({0x89, 0x8A})
"""A whole ping's and pong's first byte: websockets answers them, and they are no message."""


class Inbox:
    """A connection's requests (whole binary messages) as :meth:`Socket._read_frames` reads them, for its session
    to take without websockets' queue and ``recv``. Opened once a request finds websockets' queue empty (that one
    still goes there: it wakes a reader waiting on it), so what websockets' queue holds came before anything
    here. Closed for good (:meth:`take` then answers None once the held ones are taken) when a frame that
    websockets alone reads comes (text, a fragment, a close, a frame too large): what the inbox holds came before
    anything websockets then queues. :func:`next_request` reads the two in that order. Reading pauses while more
    requests are held than websockets would queue, as its own queue does."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.held: collections.deque[bytes] = collections.deque()
        self.waiter: asyncio.Future[None] | None = None
        self.closed = False
        self.paused = False
        self.behind = True
        """Websockets' queue may still hold messages that came before this inbox's (until it is seen empty)."""
        queue = socket.recv_messages
        self.high: int | None = getattr(queue, "high", None)
        self.low: int = getattr(queue, "low", None) or 0

    def put(self, payload: bytes) -> None:
        self.held.append(payload)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if self.high is not None and len(self.held) > self.high and not self.paused:
            self.paused = True
            self.socket.transport.pause_reading()

    def close(self) -> None:
        self.closed = True
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        self._resume()

    def _resume(self) -> None:
        if self.paused:
            self.paused = False
            if not self.socket.transport.is_closing():
                self.socket.transport.resume_reading()

    async def take(self) -> bytes | None:
        """The next request, or None: closed, and every request it held taken."""
        held = self.held
        while not held:
            if self.closed:
                return None
            self.waiter = self.socket.loop.create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        request = held.popleft()
        if self.paused and len(held) <= self.low:
            self._resume()
        return request


def next_request(ws: Socket) -> Awaitable[str | bytes | None]:
    """A connection's next message, from its inbox or websockets' queue, in the order the client sent them
    (see :class:`Inbox`); None: the inbox closed while it was awaited (ask again). Raises ConnectionClosed as
    ``recv`` does. The caller awaits the inbox's (or websockets') own coroutine: no coroutine of its own a request."""
    inbox = ws.inbox
    if inbox is None:
        return ws.recv()
    if inbox.closed:
        return inbox.take() if inbox.held else ws.recv()
    if inbox.behind:  # what websockets' queue held when it opened came first (nothing joins it while it is open)
        if ws.queued():
            return ws.recv()
        inbox.behind = False
    return inbox.take()


_warned: set[str] = set()
"""Untrusted peers already logged for sending a PROXY header (once each: a misconfigured proxy sends it always)."""


def socket_class(trusted: forwarded.Trusted) -> type[Socket]:
    """The ``Socket`` class of one server, believing PROXY headers from ``trusted``."""
    return cast(type[Socket], type("Socket", (Socket,), {"trusted": trusted}))


_framed: tuple[bytes | None, bytes] = (None, b"")
"""The last frame given to :func:`wire`, and its websocket framing."""
_HEAD16 = struct.Struct("!BBH")
_HEAD64 = struct.Struct("!BBQ")
"""A websocket frame's first two bytes and its length in 16 or 64 bits (the payload's length is 126 or more)."""


def _direct(conn: Connection) -> asyncio.Transport | None:
    """The transport to write a new frame to at once, framed as :func:`wire` frames it, or None when it must be
    queued: something is queued or being sent before it (``queued``, the outbox's bytes, is 0 while it is empty),
    the socket is not open, websockets holds bytes of its own to write or a message in parts, the connection uses an
    extension, or the transport holds more than ``DIRECT_BUFFER``. Written out in one function, every attribute read
    once: a broadcast asks it of each of a thousand spectators."""
    ws = conn.ws
    protocol = ws.protocol
    if (conn.busy or conn.queued or ws.send_in_progress is not None or protocol.state is not _OPEN or protocol.writes
            or protocol.extensions or protocol.expect_continuation_frame):
        return None
    transport = ws.transport
    return transport if transport.get_write_buffer_size() < DIRECT_BUFFER else None


_OPEN = State.OPEN


def wire(frame: bytes) -> bytes:
    """``frame`` as a server writes it in a websocket binary frame (unmasked, no extension): framed once for every
    connection it is sent to in a row, as a room's broadcast sends one frame to all the watchers of a seat."""
    global _framed
    if _framed[0] is not frame:
        size = len(frame)  # RFC 6455 5.2: FIN and the binary opcode, then the length in 7, 7+16 or 7+64 bits
        head = (bytes((0x82, size)) if size < 126 else _HEAD16.pack(0x82, 126, size) if size < 1 << 16
                else _HEAD64.pack(0x82, 127, size))
        _framed = (frame, head + frame)
    return _framed[1]


class Connection(Peer):
    """A client's websocket, its frames written at once or queued (see the module's docstring)."""

    def __init__(self, ws: ServerConnection, on_drop: Callable[[Peer], None] | None = None) -> None:
        super().__init__(on_drop)
        self.ws = ws
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue(OUTBOX)
        self.queued = 0
        """Bytes in the outbox."""
        self.busy = False
        """The writer task is sending a queued frame: a new one must queue behind it, in order."""
        self.writer = asyncio.create_task(self._write())
        self.closer: asyncio.Task[None] | None = None
        if isinstance(ws, Socket):
            ws.on_stall = self._stalled

    def _stalled(self) -> None:
        if self.dead:
            return
        metrics.STALLED_DROPS.inc()
        self.drop(f"no progress reading for {STALL_SECONDS:g} s")

    def send(self, frame: bytes) -> None:
        """Queue a frame; drop a reader that lets too many frames or bytes pile up."""
        if self.dead:
            return
        transport = _direct(self)
        if transport is not None:  # written now: one framing for every watcher sent this frame
            transport.write(wire(frame))
            return
        if self._free():  # websockets frames it (an extension, say), written now with no task switch per frame
            try:
                broadcast([self.ws], frame, raise_exceptions=True)
                return
            except Exception:  # not written: queue it, and the writer meets the failure
                pass
        self._queue(frame)

    def _free(self) -> bool:
        """Nothing queued or being sent before a new frame, the socket open and its transport nearly drained."""
        ws = self.ws
        return (not self.busy and not self.queued and ws.send_in_progress is None and ws.protocol.state is _OPEN
                and ws.transport.get_write_buffer_size() < DIRECT_BUFFER)

    @classmethod
    def send_all(cls, peers: list[Peer], frame: bytes, after: bytes | None = None) -> None:
        """:meth:`send` to each of ``peers`` (connections), framed once: a broadcast's frame for a thousand
        spectators, say; with ``after``, both frames in one write to each socket, not two."""
        wired = wire(frame) if after is None else wire(frame) + wire(after)
        for conn in cast(list[Connection], peers):
            transport = None if conn.dead else _direct(conn)
            if transport is not None:
                transport.write(wired)
            else:
                conn.send(frame)
                if after is not None:
                    conn.send(after)

    def _queue(self, frame: bytes) -> None:
        """Put a frame in the outbox for the writer task, or drop the connection if the outbox is full."""
        if self.outbox.full() or self.queued + len(frame) > OUTBOX_BYTES:
            metrics.OUTBOX_DROPS.inc()
            self.drop("too slow reading")
            return
        self.outbox.put_nowait(frame)
        self.queued += len(frame)

    def drop(self, reason: str) -> None:
        """Mark the connection dead once, free its queue, stop its rooms from feeding it, close it."""
        if self.dead:
            return
        self.dead = True
        log.warning("connection dropped: %s (%d frames, %d bytes queued)", reason, self.outbox.qsize(), self.queued,
                    extra={"conn": self.id})
        self.writer.cancel()
        self.outbox = asyncio.Queue(1)
        self.queued = 0
        if self.on_drop is not None:
            self.on_drop(self)
        self.closer = asyncio.create_task(self._close(reason))

    async def _close(self, reason: str) -> None:
        """A close handshake to a peer that does not read never completes: abort after CLOSE_TIMEOUT."""
        try:
            await asyncio.wait_for(self.ws.close(1008, reason), CLOSE_TIMEOUT)
        except (TimeoutError, ConnectionClosed, OSError):
            self.ws.transport.abort()

    async def _write(self) -> None:
        try:
            while True:
                frame = await self.outbox.get()
                self.queued -= len(frame)
                self.busy = True
                await self.ws.send(frame)
                self.busy = False
        except (ConnectionClosed, asyncio.CancelledError):
            pass  # closed, or cancelled by close or drop: ended so, no exception is kept whose frame holds this

    async def close(self) -> None:
        """Stop the writer and let go of the call backs between this connection and its socket and session: a closed
        connection is then freed as soon as nothing uses it, not by a collection of the cycles they would make."""
        self.writer.cancel()
        self.on_drop = None
        if isinstance(self.ws, Socket):
            self.ws.on_stall = None
        if self.closer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.closer

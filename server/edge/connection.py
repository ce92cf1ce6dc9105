"""One client connection: frames written at once while its socket keeps up, else an ordered outbox drained by
its own writer task.

Broadcasts never wait, so a slow reader never stalls a room: a frame goes straight to the transport only when
nothing is queued before it and the transport holds little (``DIRECT_BUFFER``); otherwise it is queued. A reader that lets more
than OUTBOX frames or OUTBOX_BYTES bytes pile up is dropped once: it is marked dead,
unwatched from every room (no more frames are built for it), and its transport is
aborted if the close handshake has not finished within CLOSE_TIMEOUT.

``Socket`` is the websockets connection class the server makes (``serve(create_connection=...)``): it reads a
PROXY protocol header (server/edge/forwarded.py) before the
HTTP handshake, believing it only from a trusted proxy.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, cast

from websockets.asyncio.connection import broadcast
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from server.edge import forwarded
from server.ops import metrics
from server.rooms.peer import Peer

__all__ = ["CLOSE_TIMEOUT", "OUTBOX", "OUTBOX_BYTES", "Connection", "Socket", "socket_class"]

log = logging.getLogger(__name__)
OUTBOX = 512
"""Frames queued for one connection before it is dropped."""
OUTBOX_BYTES = 4 * 1024 * 1024
"""Bytes queued for one connection before it is dropped."""
DIRECT_BUFFER = 64 * 1024
"""Bytes a connection's transport may hold for a new frame still to be written at once rather than queued."""
CLOSE_TIMEOUT = 2.0
"""Seconds a dropped connection's close handshake may take before its transport is aborted."""


class Socket(ServerConnection):
    """The server's websockets connection, with the client's address
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

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.client = forwarded.normal(str(peer[0])) if peer else "?"

    def data_received(self, data: bytes) -> None:
        if self.header is None:
            super().data_received(data)
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


_warned: set[str] = set()
"""Untrusted peers already logged for sending a PROXY header (once each: a misconfigured proxy sends it always)."""


def socket_class(trusted: forwarded.Trusted) -> type[Socket]:
    """The ``Socket`` class of one server, believing PROXY headers from ``trusted``."""
    return cast(type[Socket], type("Socket", (Socket,), {"trusted": trusted}))


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

    def send(self, frame: bytes) -> None:
        """Queue a frame; drop a reader that lets too many frames or bytes pile up."""
        if self.dead:
            return
        if not self.busy and self.outbox.empty() and self._writable():
            try:
                broadcast([self.ws], frame, raise_exceptions=True)  # written now, no task switch per frame
                return
            except Exception:  # not written: queue it, and the writer meets the failure
                pass
        if self.outbox.full() or self.queued + len(frame) > OUTBOX_BYTES:
            metrics.OUTBOX_DROPS.inc()
            self.drop("too slow reading")
            return
        self.outbox.put_nowait(frame)
        self.queued += len(frame)

    def _writable(self) -> bool:
        """Open, not in the middle of another message, and the transport nearly drained."""
        ws = self.ws
        return (ws.protocol.state is State.OPEN and ws.send_in_progress is None
                and ws.transport.get_write_buffer_size() < DIRECT_BUFFER)

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
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        self.writer.cancel()
        if self.closer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self.closer

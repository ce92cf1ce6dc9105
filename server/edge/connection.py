"""One client connection: frames written at once while its socket keeps up, else an ordered outbox drained by
its own writer task.

Broadcasts never wait, so a slow reader never stalls a room: a frame goes straight to the transport only when
nothing is queued before it and the transport holds little (``DIRECT_BUFFER``); otherwise it is queued. A reader that lets more
than OUTBOX frames or OUTBOX_BYTES bytes pile up is dropped once: it is marked dead,
unwatched from every room (no more frames are built for it), and its transport is
aborted if the close handshake has not finished within CLOSE_TIMEOUT.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from websockets.asyncio.connection import broadcast
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from server.ops import metrics
from server.rooms.peer import Peer

__all__ = ["CLOSE_TIMEOUT", "OUTBOX", "OUTBOX_BYTES", "Connection"]

log = logging.getLogger(__name__)
OUTBOX = 512
"""Frames queued for one connection before it is dropped."""
OUTBOX_BYTES = 4 * 1024 * 1024
"""Bytes queued for one connection before it is dropped."""
DIRECT_BUFFER = 64 * 1024
"""Bytes a connection's transport may hold for a new frame still to be written at once rather than queued."""
CLOSE_TIMEOUT = 2.0
"""Seconds a dropped connection's close handshake may take before its transport is aborted."""


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

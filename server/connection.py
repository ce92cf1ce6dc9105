"""One client connection: an ordered outbox drained by its own writer task.

Broadcasts only enqueue, so a slow reader never stalls a room; a reader that falls
too far behind is disconnected instead of buffering without bound.
"""
from __future__ import annotations

import asyncio
import itertools
import logging

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

__all__ = ["Connection"]

log = logging.getLogger(__name__)
OUTBOX = 512
_ids = itertools.count(1)


class Connection:
    """A websocket plus the rooms it is in (room id -> seat, ``None`` for spectating)."""

    def __init__(self, ws: ServerConnection) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.name = ""
        self.player: str | None = None
        """The public player id from ``hello``'s key; None for a guest."""
        self.greeted = False
        self.rooms: dict[str, int | None] = {}
        self.outbox: asyncio.Queue[bytes] = asyncio.Queue(OUTBOX)
        self.writer = asyncio.create_task(self._write())
        self.closer: asyncio.Future[None] | None = None

    def send(self, frame: bytes) -> None:
        """Queue a frame; disconnect a reader that lets OUTBOX frames pile up."""
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("connection %s is not reading; closing it", self.id)
            self.writer.cancel()
            self.closer = asyncio.ensure_future(self.ws.close(1008, "too slow reading"))

    async def _write(self) -> None:
        try:
            while True:
                frame = await self.outbox.get()
                await self.ws.send(frame)
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        self.writer.cancel()

"""A loopback TCP proxy in front of a real redis-server that can lose one reply on its way back."""
from __future__ import annotations

import asyncio
import contextlib

__all__ = ["ReplyDropper"]


class ReplyDropper:
    """Forwards bytes both ways. Armed with a marker, it lets the next request holding the marker reach Redis
    (which runs it), swallows Redis's reply and cuts the client's connection: an ambiguous commit."""

    def __init__(self, redis_port: int) -> None:
        self.redis_port = redis_port
        self.marker: bytes | None = None
        self.dropped = 0
        self.down = False
        """While set, every new connection is cut at once: Redis looks unreachable."""
        self.then_down = False
        self.mute = False
        """While set, a new connection is taken and its first request read, then it is cut unanswered: Redis
        seems to be there for a moment (a command can be sent) and is not."""
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.clients: set[asyncio.StreamWriter] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await task

    def go_down(self) -> None:
        """Redis becomes unreachable: open connections are cut and new ones refused, until ``down`` is cleared."""
        self.down = True
        for writer in list(self.clients):
            writer.transport.abort()

    def arm(self, marker: bytes, *, then_down: bool = False) -> None:
        """Lose the reply of the next request holding ``marker``; with ``then_down``, go down right after."""
        self.marker = marker
        self.then_down = then_down

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        if self.mute:
            with contextlib.suppress(ConnectionError):
                await client_r.read(65536)
            client_w.transport.abort()
            return
        if self.down:
            client_w.transport.abort()
            return
        self.clients.add(client_w)  # before the wait below: going down meanwhile cuts it too
        redis_r, redis_w = await asyncio.open_connection("127.0.0.1", self.redis_port)
        if self.down or self.mute or client_w.transport.is_closing():
            self.clients.discard(client_w)
            client_w.transport.abort()
            redis_w.close()
            return
        swallow = asyncio.Event()
        up = asyncio.create_task(self._up(client_r, redis_w, swallow))
        down = asyncio.create_task(self._down(redis_r, client_w, swallow))
        self.tasks |= {up, down}
        try:
            await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (up, down):
                task.cancel()
                self.tasks.discard(task)
            self.clients.discard(client_w)
            client_w.transport.abort()
            redis_w.close()

    async def _up(self, client_r: asyncio.StreamReader, redis_w: asyncio.StreamWriter, swallow: asyncio.Event) -> None:
        while data := await client_r.read(65536):
            if self.marker is not None and self.marker in data:
                self.marker = None
                swallow.set()  # one command at a time per connection: the next reply is this one's
            redis_w.write(data)
            await redis_w.drain()

    async def _down(self, redis_r: asyncio.StreamReader, client_w: asyncio.StreamWriter, swallow: asyncio.Event) -> None:
        while data := await redis_r.read(65536):
            if swallow.is_set():
                self.dropped += 1
                if self.then_down:  # Redis is unreachable now: every connection cut, new ones refused
                    self.go_down()
                return  # the reply is lost and the connection cut
            client_w.write(data)
            await client_w.drain()

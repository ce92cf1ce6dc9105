"""A room's lock: what ``asyncio.Lock`` does for it, first come first served, with the lock handed from one holder
straight to the next. Taken twice or more for most decisions (both seats of a duel decide at once), where asyncio's
asks for the running loop each time it waits (in Python 3.11 a getpid system call) and walks its waiters each
time it is taken."""
from __future__ import annotations

import asyncio
import collections
from typing import Any

__all__ = ["RoomLock"]


class RoomLock:
    """A lock for the coroutines of one event loop. A waiter cancelled before its turn leaves the line; one
    cancelled as its turn came passes the lock on."""

    __slots__ = ("held", "loop", "waiters")

    def __init__(self) -> None:
        self.held = False
        self.waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self.loop: asyncio.AbstractEventLoop | None = None

    def locked(self) -> bool:
        return self.held

    def take(self) -> bool:
        """Take the lock if it is free (True); False: it is held, and :meth:`wait` waits for it. A caller on the
        hot path so makes no coroutine for a free lock."""
        if self.held:
            return False
        self.held = True
        return True

    async def __aenter__(self) -> None:
        await self.wait()

    async def wait(self) -> None:
        """Take the lock, waiting in line while it is held: it is this caller's on return."""
        if self.take():
            return
        loop = self.loop
        if loop is None:
            loop = self.loop = asyncio.get_running_loop()
        turn = loop.create_future()
        self.waiters.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed the lock as it was cancelled: the next one has it
                self.release()
            else:
                self.waiters.remove(turn)
            raise

    async def __aexit__(self, *exc: Any) -> None:
        self.release()

    def release(self) -> None:
        """Hand the lock to the first waiter still waiting, or free it."""
        waiters = self.waiters
        while waiters:
            turn = waiters.popleft()
            if not turn.done():
                turn.set_result(None)  # it holds the lock now: ``held`` stays set
                return
        self.held = False

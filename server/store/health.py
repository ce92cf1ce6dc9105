"""Whether Redis answers: watched once a second, so requests fail fast while it does not.

``/health`` says ``degraded`` while Redis is unreachable; a server started before Redis
waits for it with growing pauses, saying so in one log line per attempt.
"""
from __future__ import annotations

import asyncio
import logging

from server.store.store import Store

__all__ = ["INTERVAL", "Health", "wait_for_store"]

log = logging.getLogger(__name__)
INTERVAL = 1.0
"""Seconds between pings of Redis."""
BACKOFF = (0.25, 0.5, 1.0, 2.0, 5.0)
"""Pauses between attempts to reach Redis at start; the last one repeats."""


async def wait_for_store(store: Store) -> None:
    """Ping until Redis answers."""
    attempt = 0
    while True:
        try:
            await store.ping()
            if attempt:
                log.info("redis answers at %s", store.url)
            return
        except Exception as exc:
            pause = BACKOFF[min(attempt, len(BACKOFF) - 1)]
            attempt += 1
            log.warning("waiting for redis at %s (attempt %d, next in %.2g s): %s", store.url, attempt, pause, exc)
            await asyncio.sleep(pause)


class Health:
    """The store's reachability, refreshed by a background ping."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.up = True
        self.task: asyncio.Task[None] | None = None
        self.stopping = False

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        """End the watch and wait for it (a caller cancelled meanwhile is cancelled, not held)."""
        self.stopping = True
        if self.task is not None:
            self.task.cancel()
            await asyncio.wait({self.task})

    async def _watch(self) -> None:
        # Python 3.11's ``asyncio.wait_for`` loses a cancellation that comes as the ping's reply does (it returns the
        # reply): the ping is bounded by ``asyncio.timeout``, which does not, and ``stopping`` ends the loop anyway
        while not self.stopping:
            await asyncio.sleep(INTERVAL)
            try:
                async with asyncio.timeout(INTERVAL * 2):
                    await self.store.ping()
                up = True
            except Exception:
                up = False
            if up != self.up:
                if up:
                    # idle connections the outage broke look sound to the pool (a reset socket is not at EOF):
                    # drop them before requests are served again, so that none meets one
                    await self.store.drop_idle()
                    log.info("redis answers again")
                else:
                    log.error("redis at %s does not answer: requests that need it fail at once", self.store.url)
            self.up = up

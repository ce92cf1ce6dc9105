"""The store's health watch stops when asked, whenever the stop comes: a server's shutdown waits for it."""
from __future__ import annotations

import asyncio

import pytest

from server.store import health as health_module
from server.store.health import Health


class _StoppedDuringPing:
    """A store whose first ping has the watch stopped while that ping is in flight, its reply coming just after."""

    def __init__(self) -> None:
        self.health: Health | None = None
        self.stopper: asyncio.Task[None] | None = None

    async def ping(self) -> None:
        if self.stopper is None:
            assert self.health is not None
            self.stopper = asyncio.ensure_future(self.health.stop())
            await asyncio.sleep(0)  # stop() cancels the watch here, and the ping's reply follows at once


async def test_a_stop_that_comes_as_a_ping_is_answered_ends_the_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cancellation must not be lost with the ping's reply (as ``asyncio.wait_for`` loses it on Python 3.11):
    a watch that goes on pinging holds its server's shutdown for ever."""
    monkeypatch.setattr(health_module, "INTERVAL", 0.01)
    store = _StoppedDuringPing()
    health = store.health = Health(store)  # type: ignore[arg-type]
    health.start()
    assert health.task is not None
    try:
        for _ in range(500):
            if store.stopper is not None:
                break
            await asyncio.sleep(0.01)
        assert store.stopper is not None, "the watch never pinged"
        done, _ = await asyncio.wait({store.stopper}, timeout=5)
        assert store.stopper in done, "stop() still waits for the watch"
        assert health.task.done()
    finally:
        health.stopping = True
        health.task.cancel()
        await asyncio.wait({health.task}, timeout=5)


async def test_a_stop_between_pings_ends_the_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health_module, "INTERVAL", 0.01)

    class Answers:
        pings = 0

        async def ping(self) -> None:
            self.pings += 1

    store = Answers()
    health = Health(store)  # type: ignore[arg-type]
    health.start()
    await asyncio.sleep(0.1)
    await asyncio.wait_for(health.stop(), 5)
    assert store.pings > 0 and health.task is not None and health.task.done()

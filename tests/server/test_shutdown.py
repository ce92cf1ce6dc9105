"""A stopped server leaves no connection open to its Redis (a process that starts servers one after another, as the
tests do, gathered them, and its servers came to take ten seconds to stop), and its shutdown waits a bounded time
for its background tasks."""
from __future__ import annotations

import asyncio
import contextlib

import pytest
import redis

from client import Client
from server.cluster import channel
from tests.server.servers import serving


def connected(redis_url: str) -> int:
    """How many clients Redis has, this one included."""
    with redis.Redis.from_url(redis_url) as client:
        return len(client.client_list())


async def test_a_stopped_server_closes_its_connections_to_redis(redis_url: str) -> None:
    before = connected(redis_url)
    async with serving(redis_url) as url:
        async with await Client.connect(url, name="ann") as ann:
            seat = await ann.create("queens_challenge")
            assert not isinstance(seat, str)
            await ann.decide(seat, ann.views[seat.room]["legal"][0])  # a commit, on its link
        assert connected(redis_url) > before
    assert connected(redis_url) == before


async def test_stopping_background_tasks_waits_a_bounded_time(monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """A task its cancellation does not stop (one waiting on a connection that never answers, say) is left behind
    after ``STOP_WAIT`` and named in the log: the node's shutdown goes on. The others are stopped and waited for."""
    monkeypatch.setattr(channel, "STOP_WAIT", 0.2)
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            with contextlib.suppress(asyncio.CancelledError):
                await release.wait()

    async def obedient() -> None:
        await asyncio.sleep(60)

    tasks = [asyncio.create_task(stubborn(), name="stubborn"), asyncio.create_task(obedient(), name="obedient")]
    await asyncio.sleep(0)
    try:
        await asyncio.wait_for(channel.cancel(tasks), 5)
        assert tasks[1].cancelled() and not tasks[0].done()
        assert "stubborn did not stop" in caplog.text
    finally:
        release.set()
        await asyncio.wait(tasks, timeout=5)


async def test_a_follower_whose_read_loses_its_cancellation_still_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pub/sub read that swallows the cancellation (returns None, as redis-py's does on its timeout) does not keep
    the follower reading: the next turn of its loop finds the task cancelled and ends it."""
    swallowed: list[bool] = []

    class Losing:
        async def get_message(self, timeout: float | None = None) -> None:
            try:
                await asyncio.sleep(timeout or 0.05)
            except asyncio.CancelledError:
                if swallowed:
                    raise  # only the first is lost: a test that fails still ends its follower
                swallowed.append(True)  # lost here, as the read's timeout would return

        async def aclose(self) -> None:
            return None

    async def subscribe(*_: object) -> tuple[Losing, None, str]:
        return Losing(), None, "subscribe"

    async def confirmed(*_: object) -> None:
        return None

    async def nothing() -> None:
        return None

    monkeypatch.setattr(channel.channels, "subscribe", subscribe)
    monkeypatch.setattr(channel, "_confirmed", confirmed)
    follower = asyncio.create_task(channel.follow(None, "c", lambda _: None, subscribed=nothing,  # type: ignore[arg-type]
                                                  broken=lambda: None, pause=0.05, every=0.05))
    await asyncio.sleep(0.1)
    follower.cancel()
    done, _ = await asyncio.wait({follower}, timeout=2)
    if not done:
        follower.cancel()
        await asyncio.wait({follower}, timeout=5)
    assert follower in done and follower.cancelled() and swallowed

"""Following a pub/sub channel: each message is handed on as published, and no message is formatted for a log on the
way (redis-py's own handler of RESP3 pushes built ``str`` of every message for a debug log, even with that log off:
a node's directory publishes all its rooms every second, and every relayed frame is such a message)."""
from __future__ import annotations

import asyncio
import contextlib
import logging

import pytest
import redis.asyncio as aioredis

from server.cluster import channel


async def test_a_followed_channel_hands_on_each_message_and_formats_none(redis_url: str,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    redis = aioredis.Redis.from_url(redis_url)
    got: asyncio.Queue[bytes] = asyncio.Queue()
    subscribed = asyncio.Event()

    async def ready() -> None:
        subscribed.set()

    caplog.set_level(logging.DEBUG, logger="push_response")
    follower = asyncio.create_task(channel.follow(redis, "test-pubsub", got.put_nowait, subscribed=ready,
                                                  broken=lambda: None, pause=0.05, every=0.05))
    try:
        await asyncio.wait_for(subscribed.wait(), 5)
        sent = [b"\x00" * 10_000, b"second"]
        for data in sent:
            await redis.publish("test-pubsub", data)
        assert [await asyncio.wait_for(got.get(), 5) for _ in sent] == sent
        assert not [r for r in caplog.records if r.name == "push_response"]
    finally:
        follower.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(follower, 5)
        await redis.aclose()

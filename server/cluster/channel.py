"""Following a Redis pub/sub channel for as long as a node runs, subscribing again when the subscription breaks."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis

__all__ = ["cancel", "follow"]

log = logging.getLogger(__name__)
CONFIRM = 5.0
"""Seconds Redis has to confirm a subscription."""


async def follow(redis: aioredis.Redis, channel: str, receive: Callable[[bytes], None], *,
                 subscribed: Callable[[], Awaitable[None]], broken: Callable[[], None], pause: float,
                 every: float | None = None, tick: Callable[[], Awaitable[None]] | None = None) -> None:
    """Hand each message's data on ``channel`` to ``receive``, until cancelled: ``subscribed`` once the
    subscription stands (again), ``tick`` every ``every`` seconds; a broken subscription is logged, ``broken``
    told (messages may have been lost), and made again after ``pause`` seconds."""
    loop = asyncio.get_running_loop()
    failing = False
    while True:
        pubsub = redis.pubsub()
        try:
            await pubsub.subscribe(channel)
            await _confirmed(pubsub, channel)  # the command may be sent on a connection about to be cut
            await subscribed()
            if failing:
                log.info("subscribed to %s again", channel)
            failing = False
            due = 0.0
            while True:
                if tick is not None and loop.time() >= due:
                    await tick()
                    due = loop.time() + (every or 0.0)
                message = await pubsub.get_message(timeout=every)
                if message is not None and message["type"] == "message":
                    receive(message["data"])
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not failing:  # once per outage, not once per attempt
                log.warning("the subscription to %s broke (%s); subscribing again", channel, exc)
            failing = True
            broken()
            await asyncio.sleep(pause)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]


async def _confirmed(pubsub: aioredis.client.PubSub, channel: str) -> None:
    """Wait (a bounded time) for Redis to confirm the subscription: until then it does not stand."""
    async with asyncio.timeout(CONFIRM):
        while True:
            message = await pubsub.get_message(timeout=CONFIRM)
            if message is not None and message["type"] == "subscribe":
                return


async def cancel(tasks: list[asyncio.Task[None]]) -> None:
    """Stop a node's background tasks and wait until they have."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task

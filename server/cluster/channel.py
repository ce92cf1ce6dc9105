"""Following a Redis pub/sub channel for as long as a node runs, subscribing again when the subscription breaks
(sharded pub/sub on a Redis Cluster, server/store/pubsub.py)."""
from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub

from server.store import pubsub as channels

__all__ = ["cancel", "follow"]

log = logging.getLogger(__name__)
CONFIRM = 5.0
"""Seconds Redis has to confirm a subscription."""


class Unsubscribed(Exception):
    """Redis ended the subscription (on a cluster, the channel's slot moved to another primary)."""


async def follow(redis: aioredis.Redis, channel: str, receive: Callable[[bytes], None], *,
                 subscribed: Callable[[], Awaitable[None]], broken: Callable[[], None], pause: float,
                 every: float | None = None, tick: Callable[[], Awaitable[None]] | None = None) -> None:
    """Hand each message's data on ``channel`` to ``receive``, until cancelled: ``subscribed`` once the
    subscription stands (again), ``tick`` every ``every`` seconds; a broken subscription is logged, ``broken``
    told (messages may have been lost), and made again after ``pause`` seconds."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    failing = False
    while True:
        _still_wanted(task)
        pubsub: PubSub | None = None
        client: aioredis.Redis | None = None
        try:
            pubsub, client, kind = await channels.subscribe(redis, channel)
            await _confirmed(pubsub, kind)  # the command may be sent on a connection about to be cut
            await subscribed()
            if failing:
                log.info("subscribed to %s again", channel)
            failing = False
            due = 0.0
            while True:
                _still_wanted(task)
                if tick is not None and loop.time() >= due:
                    await tick()
                    due = loop.time() + (every or 0.0)
                message = await pubsub.get_message(timeout=every)
                if message is None:
                    continue
                if message["type"] == channels.KINDS[kind]:
                    receive(message["data"])
                elif message["type"] in ("unsubscribe", "sunsubscribe"):
                    raise Unsubscribed(f"{channel} unsubscribed by the server")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not failing:  # once per outage, not once per attempt
                log.warning("the subscription to %s broke (%s); subscribing again", channel, exc)
            failing = True
            broken()
            await asyncio.sleep(pause)
            with contextlib.suppress(Exception):
                await channels.refresh(redis)
        finally:
            with contextlib.suppress(Exception):
                if pubsub is not None:
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                if client is not None:
                    await client.aclose()


def _still_wanted(task: asyncio.Task[Any]) -> None:
    """Raise CancelledError if ``task`` was cancelled and went on: redis-py's pub/sub read can lose a cancellation
    (seen on Python 3.11: the task's count of cancellations asked stays above 0 while each read returns None at its
    timeout), and the follower would read on for good, holding its node's shutdown and its event loop's close."""
    if task.cancelling():
        raise asyncio.CancelledError


async def _confirmed(pubsub: PubSub, kind: str) -> None:
    """Wait (a bounded time) for Redis to confirm the subscription: until then it does not stand."""
    async with asyncio.timeout(CONFIRM):
        while True:
            message = await pubsub.get_message(timeout=CONFIRM)
            if message is not None and message["type"] == kind:
                return


STOP_WAIT = 5.0
"""Seconds :func:`cancel` waits for the tasks it cancelled: one still waiting on a connection its cancellation did not
reach is left behind (logged), not waited for without end, so that the node's shutdown goes on."""


async def cancel(tasks: list[asyncio.Task[None]]) -> None:
    """Stop a node's background tasks and wait until they have (at most :data:`STOP_WAIT` seconds)."""
    for task in tasks:
        task.cancel()
    if not tasks:
        return
    _, pending = await asyncio.wait(tasks, timeout=STOP_WAIT)
    for task in pending:
        log.warning("%s did not stop within %g s of being cancelled; left behind", task.get_name(), STOP_WAIT)
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: a task that failed as it stopped is not reported again when collected

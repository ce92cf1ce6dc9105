"""A second cardroom server on the same Redis, as after a restart: only what Redis holds survives."""
from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis

from client import Client
from client.connection import Seat
from server.edge.app import run
from tests.server.helpers import play_to_end

QUICK = {"hp": 1}
"""Creature Wars options that end a match at the first damage."""


async def lapse_leases(redis_url: str) -> None:
    """Every room lease gone, as when the node holding them stopped renewing them (server/store/lease.py)."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        async for key in r.scan_iter(match="cardroom:room:*:lease"):
            await r.delete(key)
    finally:
        await r.aclose()


@contextlib.asynccontextmanager
async def serving(redis_url: str, **settings: Any) -> AsyncIterator[str]:
    """A cardroom server in this event loop on a free loopback port, on ``redis_url``; its ws:// URL.
    A second one on the same Redis is the server after a restart: only what Redis holds survives, and the
    rooms' leases of the one before have lapsed (it is taken for stopped), so the new one takes them over."""
    await lapse_leases(redis_url)
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[tuple[str, int]] = loop.create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=redis_url, ready=ready, stop=stop, **settings))
    host, port = await asyncio.wait_for(ready, 10)
    try:
        yield f"ws://{host}:{port}"
    finally:
        stop.set()
        await stopped(task)


async def stopped(task: asyncio.Task[Any], seconds: float = 10) -> None:
    """Wait for a server's ``run`` told to stop, and raise what it raised; a server that does not stop within
    ``seconds`` is cancelled and fails the test. (``asyncio.wait_for`` would wait on for a task that ignores its
    cancellation, without bound.)"""
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if not done:
        task.cancel()
        await asyncio.wait({task}, timeout=5)
        raise AssertionError(f"the server did not stop within {seconds:g} s of being told to")
    task.result()



async def finished_match(url: str, *, record: bool = False, seed: int = 5) -> tuple[Client, Seat, Client, Seat]:
    """Two players who have just played a quick Creature Wars match to its end."""
    a = await Client.connect(url, name="ann", record_frames=record)
    b = await Client.connect(url, name="bob", record_frames=record)
    sa = await a.create("creature_wars", QUICK, seed=seed)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    await play_to_end([(a, sa), (b, sb)], seed=random.Random(seed).randrange(1000))
    await b.wait_view(sb.room, lambda v: v["outcome"] is not None)
    return a, sa, b, sb

"""A second cardroom server on the same Redis, as after a restart: only what Redis holds survives."""
from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator

from client import Client
from client.connection import Seat
from server.app import run
from tests.server.helpers import play_to_end

QUICK = {"hp": 1}
"""Creature Wars options that end a match at the first damage."""


@contextlib.asynccontextmanager
async def restarted(redis_url: str) -> AsyncIterator[str]:
    """A fresh server process state (rooms reloaded from Redis) on a free port; its ws:// URL."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[tuple[str, int]] = loop.create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=redis_url, ready=ready, stop=stop))
    host, port = await asyncio.wait_for(ready, 10)
    try:
        yield f"ws://{host}:{port}"
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


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

"""Helpers for tests with several server nodes (real processes) on one Redis, with short leases."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from client import Client, ClientError
from client.connection import ConnectionLost, Seat
from server.store.redis_process import free_port
from tests.server.helpers import play_turn

LEASE_MS = 1000
T = TypeVar("T")

Start = Callable[[str], "asyncio.Future[tuple[subprocess.Popen[bytes], str]]"]


@asynccontextmanager
async def nodes(redis_url: str, repo_root: Path, args: tuple[str, ...] = ()) -> AsyncIterator[Start]:
    """Start server nodes (``--node-id``, and ``args``) on ``redis_url``; each one started is killed at the end."""
    procs: list[subprocess.Popen[bytes]] = []

    async def start(name: str) -> tuple[subprocess.Popen[bytes], str]:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--redis-url", redis_url,
             "--node-id", name, *args], cwd=repo_root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            env={"CARDROOM_LEASE_MS": str(LEASE_MS), **os.environ})
        procs.append(proc)
        url = f"ws://127.0.0.1:{port}"
        for _ in range(200):
            try:
                await (await Client.connect(url)).close()
                return proc, url
            except OSError:
                await asyncio.sleep(0.05)
        raise AssertionError(f"node {name} did not start")

    try:
        yield lambda name: asyncio.ensure_future(start(name))
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
            proc.wait()


async def on_node(url: str, act: Callable[[Client], Awaitable[T]], *, record_frames: bool = False) -> tuple[Client, T]:
    """A client of the node at ``url`` and what ``act`` got it, retrying while the room is between nodes (the
    node answers ``unavailable``, or drops a connection it relayed to the room's dead owner)."""
    for _ in range(100):
        client = await Client.connect(url, record_frames=record_frames)
        try:
            return client, await act(client)
        except (ClientError, ConnectionLost) as exc:
            await client.close()
            if isinstance(exc, ClientError) and exc.code != "unavailable":
                raise
            await asyncio.sleep(0.1)
    raise AssertionError("the room was never taken over")


async def resume_on(url: str, seat: Seat, *, record_frames: bool = False) -> tuple[Client, Seat]:
    """Resume ``seat`` on the node at ``url`` (see :func:`on_node`)."""
    return await on_node(url, lambda client: client.resume(seat.room, seat.token), record_frames=record_frames)


async def match_on(url: str, seed: int, turns: int, rng: random.Random) -> tuple[Client, Seat, Client, Seat]:
    """Two players on the node at ``url``, ``turns`` turns into a Creature Wars match."""
    a, b = await Client.connect(url), await Client.connect(url)
    sa = await a.create("creature_wars", seed=seed)
    assert isinstance(sa, Seat)
    sb = await b.join(sa.room)
    for _ in range(turns):
        await play_turn([(a, sa), (b, sb)], rng)
    return a, sa, b, sb

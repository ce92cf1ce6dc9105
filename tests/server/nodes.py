"""Helpers for tests with several server nodes (real processes) on one Redis, with short leases."""
from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, TypeVar

from client import Client, ClientError
from client.connection import ConnectionLost, Seat
from tests.server.helpers import play_turn

LEASE_MS = 1000
LOG_LINES = 60
"""Lines of each node's log a failing test shows."""
T = TypeVar("T")

Start = Callable[[str], "asyncio.Future[tuple[subprocess.Popen[bytes], str]]"]


@asynccontextmanager
async def nodes(redis_url: str, repo_root: Path, args: tuple[str, ...] = ()) -> AsyncIterator[Start]:
    """Start server nodes (``--node-id``, and ``args``) on ``redis_url``; each one started is killed at the end. Each
    node's log goes to a file of its own, whose last lines a failing test shows (rooms adopted, leases lost)."""
    procs: list[subprocess.Popen[bytes]] = []
    logs: list[tuple[str, IO[bytes]]] = []

    async def start(name: str) -> tuple[subprocess.Popen[bytes], str]:
        log = tempfile.TemporaryFile()
        logs.append((name, log))
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", "0", "--redis-url", redis_url,
             "--node-id", name, *args], cwd=repo_root, stdout=subprocess.PIPE, stderr=log,
            env={"CARDROOM_LEASE_MS": str(LEASE_MS), **os.environ})
        procs.append(proc)
        return proc, await serving_url(proc, f"node {name}")

    try:
        yield lambda name: asyncio.ensure_future(start(name))
    except BaseException:
        for name, log in logs:
            log.seek(0)
            lines = log.read().decode(errors="replace").splitlines()[-LOG_LINES:]
            print(f"node {name}, the last {len(lines)} lines of its log:", *lines, sep="\n  ", file=sys.stderr)
        raise
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
            proc.wait()
        for _, log in logs:
            log.close()


async def serving_url(proc: subprocess.Popen[bytes], what: str, timeout: float = 30) -> str:
    """The URL a server process (``serve --port 0``, its stdout a pipe) says it serves on, once it listens; the rest
    of its output is read and dropped. The port is the one it bound: a port picked free for it beforehand could be
    taken by another test's server while it starts, and connecting there would find the wrong server."""
    stdout = proc.stdout
    assert stdout is not None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            line = await asyncio.wait_for(loop.run_in_executor(None, stdout.readline), deadline - loop.time())
        except TimeoutError:
            raise AssertionError(f"{what} did not start within {timeout:g} s") from None
        if not line:
            raise AssertionError(f"{what} exited with {proc.wait()} before serving")
        found = re.search(rb"serving on (ws://\S+:\d+)", line)
        if found:
            threading.Thread(target=stdout.read, daemon=True).start()  # until it exits: a full pipe would stall it
            return found.group(1).decode()


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

"""A server killed with SIGKILL mid-match and started again loses nothing: both players resume."""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from client import Client
from tests.server.helpers import play_to_end, play_turn
from tests.server.nodes import serving_url

Spawn = Callable[[], "asyncio.Future[tuple[subprocess.Popen[bytes], str]]"]


async def _start(redis_url: str, root: Path) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", "0", "--redis-url", redis_url, "--node-id", "restarted"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    try:
        return proc, await serving_url(proc, "the server")
    except BaseException:
        proc.kill()
        proc.wait()
        raise


@pytest.fixture
async def spawn(redis_url: str, repo_root: Path) -> AsyncIterator[Spawn]:
    """Start a server process on ``redis_url``, each on a port of its own but as the same node (a server restarted
    takes its rooms back at once, as one restarted on its port does); each one started is killed at the end."""
    procs: list[subprocess.Popen[bytes]] = []

    def start() -> asyncio.Future[tuple[subprocess.Popen[bytes], str]]:
        async def go() -> tuple[subprocess.Popen[bytes], str]:
            proc, url = await _start(redis_url, repo_root)
            procs.append(proc)
            return proc, url
        return asyncio.ensure_future(go())

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


async def test_sigkill_mid_match_then_resume(spawn: Spawn) -> None:
    server, url = await spawn()
    a = await Client.connect(url)
    b = await Client.connect(url)
    sa = await a.create("creature_wars", seed=99)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    rng = random.Random(3)
    for _ in range(4):  # each turn ends with both views up to date: the same turns whatever the pushes' timing
        await play_turn([(a, sa), (b, sb)], rng)
    # one seat locks in while the other has not, so a sealed choice is pending when the server dies
    assert a.views[sa.room]["locked"] == [False, False] and a.views[sa.room]["legal"]
    await a.decide(sa, a.views[sa.room]["legal"][0])
    acked = a.versions[sa.room]
    hand_a = a.views[sa.room]["hands"][0]["cards"]
    hand_b = (await b.wait_view(sb.room, lambda v: v["version"] == acked))["hands"][1]["cards"]
    os.kill(server.pid, signal.SIGKILL)
    server.wait()
    await a.close()
    await b.close()

    _, url = await spawn()
    a2 = await Client.connect(url)
    b2 = await Client.connect(url)
    try:
        ra = await a2.resume(sa.room, sa.token)
        rb = await b2.resume(sb.room, sb.token)
        assert (ra.seat, rb.seat) == (0, 1)
        view_a = await a2.wait_view(sa.room, lambda v: True)
        view_b = await b2.wait_view(sb.room, lambda v: True)
        assert a2.versions[sa.room] == b2.versions[sb.room] == acked
        assert view_a["hands"][0]["cards"] == hand_a and view_b["hands"][1]["cards"] == hand_b
        assert view_a["locked"] == [True, False] and view_a["legal"] == []
        rooms = await a2.list_rooms()
        assert [r["room"] for r in rooms] == [sa.room] and rooms[0]["taken"] == 2
        await play_to_end([(a2, ra), (b2, rb)], seed=5)
        assert a2.over[sa.room]["outcome"] == view_of(a2, sa.room)["outcome"]
    finally:
        await a2.close()
        await b2.close()


def view_of(client: Client, room: str) -> dict[str, object]:
    return client.views[room]


async def test_a_question_pending_at_a_crash_still_times_out_after_restart(
        spawn: Spawn, redis_url: str) -> None:
    """The clock of a witch's question is re-armed when the server reloads the room."""
    from server.store.store import Store

    options = {
        "deck": ["Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Dragon"],
        "hands": [["Lvl.2 Pick a Witch", "Lvl.1 Giant"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]],
        "first_drawer": 0,
        "answer_seconds": 2,
    }
    server, url = await spawn()
    a = await Client.connect(url)
    b = await Client.connect(url)
    sa = await a.create("creature_wars", options, seed=5)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    await a.decide(sa, {"kind": "play", "slot": 0})
    await b.decide(sb, {"kind": "play", "slot": 0})
    asked = await a.wait_view(sa.room, lambda v: "question" in v)
    os.kill(server.pid, signal.SIGKILL)
    server.wait()
    await a.close()
    await b.close()

    _, url = await spawn()
    again = await Client.connect(url)
    store = Store(redis_url)
    try:
        await again.resume(sa.room, sa.token)
        resumed = await again.wait_view(sa.room, lambda v: True)
        assert resumed["question"] == asked["question"]
        after = await again.wait_view(sa.room, lambda v: v["version"] == asked["version"] + 1, timeout=15)
        assert "question" not in after
        log = await store.log(sa.room)
        assert log[-1]["d"] == {"kind": "timeout"} and log[-1]["server"] is True
    finally:
        await store.close()
        await again.close()

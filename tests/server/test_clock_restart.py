"""A server killed mid-clock resumes each clock with the time that was left, not a fresh one, not less."""
from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from client import Client
from tests.server.players import pushed
from tests.server.test_clock import timed_room
from tests.server.test_restart import Spawn, spawn

__all__ = ["spawn"]


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
async def test_a_restart_mid_clock_resumes_the_time_that_was_left(
        spawn: Spawn) -> None:
    server, url = await spawn()
    a = await Client.connect(url)
    b = await Client.connect(url)
    sa, _ = await timed_room(a, b, {"move": 30})
    first = await pushed(b, "view", room=sa.room)
    seen = time.monotonic()
    told = first["clock"]["seats"][0]["left"]
    await asyncio.sleep(2)  # the clock runs while the server is up ...
    os.kill(server.pid, signal.SIGKILL)
    server.wait()
    died = time.monotonic()
    await a.close()
    await b.close()
    await asyncio.sleep(5)  # ... and not while it is down
    starting = time.monotonic()
    _, url = await spawn()
    again = await Client.connect(url)
    try:
        await again.resume(sa.room, sa.token)
        resumed = await pushed(again, "view", room=sa.room)
        back = time.monotonic()
        left = resumed["clock"]["seats"][0]["left"]
        at_death = told - (died - seen)
        # within a second of what was left at the kill, less what ran since the restart
        assert at_death - (back - starting) - 1.0 <= left <= at_death + 1.0, (told, at_death, left)
        assert resumed["version"] == 0 and resumed["clock"]["seats"][0]["strikes"] == 0
    finally:
        await again.close()

"""A server process freezes what it loaded before serving out of the garbage collections, collects its young
objects less often than CPython's defaults, makes their survivors and what each stored decision leaves behind old at
once, and collects the old in full now and then (server/ops/collector.py)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from client import Client, ClientError
from client.connection import Seat
from server.edge import app
from server.ops import collector
from tests.server.servers import serving


def test_tune_freezes_what_is_loaded_and_sets_the_thresholds() -> None:
    script = ("import gc, json; from server.edge import app; before = gc.get_freeze_count(); "
              "app.collector.tune(); print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold()]))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    before, frozen, thresholds = json.loads(out.stdout.strip().splitlines()[-1])
    assert before == 0 and frozen > 10_000  # the server's modules and what they hold at import
    assert tuple(thresholds) == collector.THRESHOLDS and collector.THRESHOLDS[0] > 700


def test_cardroom_serve_tunes_the_collector_before_it_serves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[str] = []
    monkeypatch.setattr(app.collector, "tune", lambda: calls.append("tune"))
    monkeypatch.setattr(app, "_run_loop", lambda main: (main.close(), calls.append("serve")))
    app.serve_forever(host="127.0.0.1", port=0, redis_url="redis://127.0.0.1:1", data_dir=str(tmp_path))
    assert calls == ["tune", "serve"]


def _in_a_process(script: str) -> list[int]:
    """Run ``script`` (after ``import gc, json, weakref``; it prints one JSON list last) in a process of its own:
    tuning the collector changes it for good."""
    out = subprocess.run([sys.executable, "-c", "import gc, json, weakref\n" + script], capture_output=True, text=True,
                         timeout=60, check=True)
    found: list[int] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def test_what_outlives_a_young_collection_is_old_at_once() -> None:
    """No middle generation walks it again: the young collection's survivors are frozen as it ends."""
    kept, middle, oldest = _in_a_process(
        "from server.ops import collector\n"
        "collector.tune()\n"
        "before = gc.get_freeze_count()\n"
        "held = [[n] for n in range(5000)]\n"
        "gc.collect(0)\n"
        "print(json.dumps([gc.get_freeze_count() - before, len(gc.get_objects(1)), len(gc.get_objects(2))]))")
    assert kept >= 5000 and middle == 0 and oldest == 0


def test_what_a_decision_leaves_behind_is_old_at_once_and_no_young_collection_walks_it() -> None:
    kept, young, count, walked = _in_a_process(
        "from server.ops import collector\n"
        "collector.tune()\n"
        "before = gc.get_freeze_count()\n"
        "held = [[n] for n in range(5000)]\n"
        "collector.settled()\n"
        "walked = []\n"
        "gc.callbacks.append(lambda phase, info: walked.append(len(gc.get_objects(0))) if phase == 'start' else None)\n"
        "kept, young, count = gc.get_freeze_count() - before, len(gc.get_objects(0)), gc.get_count()[0]\n"
        "gc.collect(0)\n"
        "print(json.dumps([kept, young, count, walked[0]]))")
    assert kept >= 5000 and young < 100 and count < 100 and walked < 100


def test_settling_leaves_a_process_not_tuned_as_it_was() -> None:
    """A test's server runs in the test's process: nothing of it is frozen there."""
    frozen = _in_a_process(
        "from server.ops import collector\n"
        "held = [[n] for n in range(100)]\n"
        "collector.settled()\n"
        "print(json.dumps([gc.get_freeze_count()]))")
    assert frozen == [0]


async def test_a_stored_decision_settles_and_a_refused_one_does_not(monkeypatch: pytest.MonkeyPatch,
                                                                     server_url: str) -> None:
    settled: list[bool] = []
    monkeypatch.setattr(collector, "settled", lambda: settled.append(True))
    host = await Client.connect(server_url)
    guest = await Client.connect(server_url)
    try:
        seat = await host.create("creature_wars", seed=3)
        assert isinstance(seat, Seat)
        await guest.join(seat.room)
        view = host.views[seat.room]
        with pytest.raises(ClientError):
            await host.decide(seat, {"kind": "play", "slot": 99})
        assert settled == []
        await host.decide(seat, view["legal"][0])
        assert settled == [True]
    finally:
        await host.close()
        await guest.close()


def test_a_cycle_that_died_old_is_freed_by_the_full_collection_once_the_old_have_grown() -> None:
    """Freed by reference counts a frozen object is; a cycle is not, until a full collection, which comes once the
    old objects have grown by GROWTH and FULL_EVERY has passed since the last."""
    early, unchanged, freed, fulls = _in_a_process(
        "import time\n"
        "from server.ops import collector\n"
        "old = collector.tune()\n"
        "class Node:\n"
        "    pass\n"
        "a, b = Node(), Node()\n"
        "a.other, b.other = b, a\n"
        "gone = weakref.ref(a)\n"
        "gc.collect(0)\n"
        "del a, b\n"
        "grown = [[n] for n in range(old.left)]\n"
        "gc.collect(0)\n"
        "early = old.check(time.monotonic())\n"
        "unchanged = gone() is not None\n"
        "freed = old.check(time.monotonic() + collector.FULL_EVERY) and gone() is None\n"
        "print(json.dumps([early, unchanged, freed, old.full]))")
    assert (early, unchanged, freed, fulls) == (False, True, True, 1)


def test_no_full_collection_while_the_old_have_not_grown() -> None:
    made, fulls = _in_a_process(
        "import time\n"
        "from server.ops import collector\n"
        "old = collector.tune()\n"
        "print(json.dumps([old.check(time.monotonic() + collector.FULL_EVERY), old.full]))")
    assert (made, fulls) == (False, 0)


async def test_watch_does_nothing_in_a_process_not_tuned() -> None:
    """A test's server runs in the test's process, whose collector is CPython's own: watch returns at once."""
    assert collector._old is None
    await asyncio.wait_for(collector.watch(asyncio.Event(), every=0.01), 5)


async def test_a_server_watches_its_old_objects_while_it_serves(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    watching: list[bool] = []

    async def watch(stop: asyncio.Event) -> None:
        watching.append(stop.is_set())
        await stop.wait()
        watching.append(stop.is_set())

    monkeypatch.setattr(app.collector, "watch", watch)
    async with serving(redis_url):
        assert watching == [False]
    assert watching == [False, True]

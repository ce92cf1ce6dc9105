"""The garbage collector set for a server process: a node holds many long-lived objects (rooms, states, views)
and makes many short-lived ones per decision, and CPython's defaults collected the young objects every 700
allocations and walked the whole heap now and then: a fifth of the server's CPU and pauses of 100 ms and more
under ``bench.load``. Everything loaded before serving (modules, the witch catalogue, the compiled engine) is
frozen out of the collections, and the young generation is collected less often.

Two generations, not three: what outlives a young collection is old at once (frozen), so no middle collection
walks it again. What a stored decision leaves behind (the room's new state, its views, its events in the history) is
old at once as well (:func:`settled`): each young collection walked every room's latest decisions, some 40 objects
a decision that would mostly outlive it, at a few hundred nanoseconds each (the objects are spread over the heap),
5 to 7 % of a server's time and pauses of up to 30 ms under ``bench.load``. Freezing resets the young count, so
young collections come only from other work (connections made and dropped, rooms loaded).

Nearly all of a node's garbage is freed by reference counts (frozen objects too); the collector is there for
cycles, and a cycle is nearly always garbage by the next young collection or lives on with its room or connection
(a decision makes next to none: 8,000 unreachable objects after 48,000 decisions of ``bench.load``). The old objects
are collected in full, by :func:`watch`, once there are a quarter more of them than the last full collection left
(CPython's rule for its oldest generation), and at most every :data:`FULL_EVERY` seconds (as CPython's thresholds
made it, under load): the cycles that died old are freed then."""
from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Any

__all__ = ["EVERY", "FULL_EVERY", "GROWTH", "THRESHOLDS", "Old", "settled", "tune", "watch"]

log = logging.getLogger("cardroom.collector")

THRESHOLDS = (10_000, 20, 100)
"""``gc.set_threshold``: net container allocations before a young collection (CPython's middle and oldest
generations stay empty: what survives a young collection is frozen, see :class:`Old`)."""
GROWTH = 0.25
"""A full collection once the old objects are this share more than the last full collection left."""
FULL_EVERY = 300.0
"""Seconds at least between full collections (one walks every object the process holds: 300 ms for 350,000)."""
EVERY = 30.0
"""Seconds between :func:`watch`'s looks at the old objects' count once a full collection may be due (the count
walks them: a few milliseconds)."""


class Old:
    """The old generation: the survivors of each young collection frozen as it ends (a gc callback; freezing is
    O(1)), and collected in full by :meth:`check` once grown by :data:`GROWTH` (not from the callback: a
    collection cannot start while one runs)."""

    def __init__(self) -> None:
        self.left = gc.get_freeze_count()
        """Old objects after the last full collection (or when tuned)."""
        self.at = time.monotonic()
        """When the last full collection was made (or the process tuned)."""
        self.full = 0
        """Full collections made."""

    def age(self, phase: str, info: dict[str, Any]) -> None:
        """The gc callback: after any collection, its survivors are old."""
        if phase == "stop":
            gc.freeze()

    def check(self, now: float) -> bool:
        """Collect the old objects in full if they have grown by :data:`GROWTH` and the last full collection is
        :data:`FULL_EVERY` seconds old at ``now`` (``time.monotonic()``); True if it did."""
        if now - self.at < FULL_EVERY or gc.get_freeze_count() <= self.left * (1 + GROWTH):
            return False
        self.at = now
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.left = gc.get_freeze_count()
        self.full += 1
        log.info("full collection: %d unreachable, %d objects kept, %.1f ms", found, self.left,
                  (time.perf_counter() - started) * 1e3)
        return True


_old: Old | None = None


def tune() -> Old:
    """Freeze what the process holds now, set :data:`THRESHOLDS` and make survivors of young collections old: call
    once, when the process has loaded its code and before it serves (its loop then runs :func:`watch`)."""
    global _old
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    if _old is None:
        _old = Old()
        gc.callbacks.append(_old.age)
    return _old


def settled() -> None:
    """A decision is stored and told: what it made and still holds is old at once (frozen; O(1)), and the young
    count starts again. Nothing in a process that was not :func:`tune`-d (a test's server in the test's process,
    whose collector is CPython's own)."""
    if _old is not None:
        gc.freeze()


async def watch(stop: asyncio.Event, every: float = EVERY) -> None:
    """Collect the old objects in full when they have grown (:meth:`Old.check`) until ``stop``; nothing in a
    process that was not :func:`tune`-d (a test's server in the test's process)."""
    while _old is not None and not stop.is_set():
        _old.check(time.monotonic())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)

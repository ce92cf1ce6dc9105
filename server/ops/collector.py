"""The garbage collector set for a server process: a node holds many long-lived objects (rooms, states, views)
and makes many short-lived ones per decision, and CPython's defaults collected the young objects every 700
allocations and walked the whole heap now and then: a fifth of the server's CPU and pauses of 100 ms and more
under ``bench.load``. Everything loaded before serving (modules, the witch catalogue, the compiled engine) is
frozen out of the collections, and the young generation is collected less often."""
from __future__ import annotations

import gc

__all__ = ["THRESHOLDS", "tune"]

THRESHOLDS = (10_000, 20, 100)
"""``gc.set_threshold``: net container allocations before a young collection, young collections before a middle
one, middle ones before a full one (which CPython also holds back until the heap has grown by a quarter)."""


def tune() -> None:
    """Freeze what the process holds now and set :data:`THRESHOLDS`: call once, when the process has loaded its
    code and before it serves."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)

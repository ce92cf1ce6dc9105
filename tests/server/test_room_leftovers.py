"""What a room keeps once a decision's frames are sent: only what the next decision builds on. The deltas and the
events as each seat was told them are encoded by then; kept, every room a node serves would hold them, and the
garbage collector walk them (server/ops/collector.py)."""
from __future__ import annotations

import random

from bench.room import Keeps, Watcher
from tests.server.helpers import decide_at_random, watched_room


async def test_a_room_keeps_no_delta_and_no_told_event_after_its_frames() -> None:
    watchers = [Watcher(keep=True), Watcher(keep=True)]
    room = watched_room(3, list(watchers), Keeps())
    rng = random.Random(3)
    for n in range(40):
        if not await decide_at_random(room, list(watchers), rng, n):
            break
        assert room.patches == {}, "a delta kept after its frames were sent"
        assert all(event.told is None for event in room.history.events), "an event kept as it was told"
    if room.timer is not None:
        room.timer.cancel()
    sent = [frame for watcher in watchers for frame in (watcher.frames or [])]
    assert len(room.history.events) > 40 and sum(b'\xa5delta' in frame for frame in sent) >= 40  # deltas were made

"""What a room keeps once a decision's frames are sent: only what the next decision builds on. The deltas and the
events as each seat was told them are encoded by then; kept, every room a node serves would hold them, and the
garbage collector walk them (server/ops/collector.py)."""
from __future__ import annotations

import random

from bench.room import Keeps, Watcher
from engine import registry
from server.rooms.room import Room
from server.rooms.tokens import hash_token
from server.store.store import RoomRecord


async def test_a_room_keeps_no_delta_and_no_told_event_after_its_frames() -> None:
    game = registry.get("creature_wars")
    assert game is not None
    state = game.setup({}, 3)
    record = RoomRecord(room="kept", game=game.name, options={}, seed=3, commitment="", created=0.0,
                        version=game.version(state), state=game.dump(state),
                        seats=(hash_token("seat 0"), hash_token("seat 1")))
    room = Room(record, game, state, Keeps())  # type: ignore[arg-type]  # a store that keeps nothing
    watchers = [Watcher(keep=True), Watcher(keep=True)]
    for seat, watcher in enumerate(watchers):
        room.watch(watcher, seat)
        room.send_entry(watcher, seat, 0)
    rng = random.Random(3)
    for n in range(40):
        if game.outcome(room.state) is not None:
            break
        seat, decision = rng.choice([(s, d) for s in (0, 1) for d in game.legal(room.state, s)])
        await room.decide(watchers[seat], f"seat {seat}", room.version, dict(decision), n)
        assert room.patches == {}, "a delta kept after its frames were sent"
        assert all(event.told is None for event in room.history.events), "an event kept as it was told"
    if room.timer is not None:
        room.timer.cancel()
    sent = [frame for watcher in watchers for frame in (watcher.frames or [])]
    assert len(room.history.events) > 40 and sum(b'\xa5delta' in frame for frame in sent) >= 40  # deltas were made

"""The room bench: its rooms play real matches, and what its watchers were sent rebuilds each seat's view."""
from __future__ import annotations

from bench.room import check, format_report, run


def test_the_room_bench_plays_matches_whose_frames_rebuild_every_view() -> None:
    report = run(matches=3, seed=4, parts=True, keep=True)
    assert report.decisions > 3 * 8 and report.frames > report.decisions
    assert all(room.game.outcome(room.state) is not None for room, _ in report.rooms)
    check(report)  # every seat's deltas, applied in turn, give the engine's view of the final state
    assert set(report.parts) == {"engine apply", "engine view", "deltas", "encoding"}
    assert "µs/decision" in format_report(report)

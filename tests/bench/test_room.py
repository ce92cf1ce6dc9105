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


def test_rooms_taking_turns_play_every_match_to_its_end() -> None:
    """``--rooms``: the matches are dealt a few at a time and take turns; each is played out and rebuilds its views."""
    report = run(matches=5, seed=4, keep=True, at_once=3)
    assert len(report.rooms) == 5 and len({room.id for room, _ in report.rooms}) == 5
    assert all(room.game.outcome(room.state) is not None for room, _ in report.rooms)
    check(report)
    assert report.together == 3 and run(matches=2, seed=4).together == 1
    assert "3 room(s) at a time" in format_report(report) and "collector" in format_report(report)

"""The clock's arithmetic, with the time given explicitly: move time, bank, increment, strikes, restarts."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import pytest

from engine import registry
from engine.rules_game import RulesGame
from server.rooms.clock import GRACE, Clock, Limits

CW = registry.GAMES["creature_wars"]


def started(limits: Limits, now: float = 1000.0) -> tuple[Clock, object]:
    state = CW.setup({}, 3)
    clock = Clock.fresh(limits, 2, now)
    clock.sync(CW, state, True, now)
    return clock, state


def test_move_time_then_bank_then_time_out() -> None:
    clock, _ = started(Limits(10, 5, 0))
    clock.drain(1008.0)
    assert [s.left for s in clock.seats] == [2.0, 2.0] and clock.seats[0].bank == 5.0
    clock.drain(1012.0)
    assert clock.seats[0].left == 0.0 and clock.seats[0].bank == 3.0
    assert clock.due(1012.0, {}) is None
    clock.drain(1015.0)
    assert clock.due(1015.0, {}) == (0, "timeout")


def test_the_third_time_out_in_a_row_is_a_forfeit_and_a_decision_clears_the_strikes() -> None:
    clock, _ = started(Limits(1, 0, 0))
    clock.decided(1, "timeout", by_server=True)
    clock.decided(1, "timeout", by_server=True)
    clock.drain(1002.0)
    assert clock.due(1002.0, {}) == (0, "timeout")  # seat 0 has no strikes yet
    clock.decided(0, "play", by_server=False)
    assert clock.seats[0].strikes == 0
    clock.seats[0].left = None
    assert clock.due(1002.0, {}) == (1, "forfeit")


def test_the_increment_goes_to_the_bank_after_the_players_own_decision_only() -> None:
    clock, _ = started(Limits(10, 5, 3))
    clock.decided(0, "play", by_server=False)
    clock.decided(1, "timeout", by_server=True)
    assert (clock.seats[0].bank, clock.seats[1].bank) == (8.0, 5.0)


def test_a_seat_still_deciding_keeps_its_clock_and_a_new_decision_starts_afresh() -> None:
    clock, state = started(Limits(10, 0, 0))
    clock.drain(1004.0)
    after, _ = CW.apply(state, 1, CW.legal(state, 1)[0])  # seat 1 locks in: seat 0 still decides the same duel
    clock.sync(CW, after, True, 1004.0)
    assert clock.seats[0].left == 6.0 and clock.seats[1].left is None
    resolved, _ = CW.apply(after, 0, CW.legal(after, 0)[0])
    clock.sync(CW, resolved, True, 1005.0)
    assert [s.left for s in clock.seats] == [10.0, 10.0]


def test_an_away_seat_forfeits_after_the_grace() -> None:
    clock, _ = started(Limits(300, 0, 0))
    away = {1: 1000.0}
    assert clock.wake(1000.0, away) == pytest.approx(GRACE)
    clock.drain(1000.0 + GRACE)
    assert clock.due(1000.0 + GRACE, away) == (1, "forfeit")


def test_a_restart_charges_only_up_to_the_last_liveness_time() -> None:
    clock, _ = started(Limits(30, 0, 0))
    clock.drain(1010.0)
    stored = clock.data()
    # the server stored at 1010, was last alive at 1012, and came back at 1100
    again = Clock.load(Limits(30, 0, 0), 2, stored, alive=1012.0, now=1100.0)
    assert [s.left for s in again.seats] == [18.0, 18.0] and again.stamp == 1100.0
    # a liveness time older than the stored clock charges nothing
    again = Clock.load(Limits(30, 0, 0), 2, stored, alive=1005.0, now=1100.0)
    assert [s.left for s in again.seats] == [20.0, 20.0]


@dataclass(frozen=True)
class Asking:
    """A stand-in game state: seat 0 is asked question after question, all opened at version 0."""

    version: int
    limit: int = 5
    opened: int = 0
    outcome: None = None


def _unused(*_: Any) -> Any:
    raise AssertionError("the clock reads only legal, opened, timer, outcome and version")


ASKING = RulesGame(
    name="asking", title="Asking", players=2, parse_options=_unused, setup_fn=_unused,
    legal_fn=lambda state, seat: [{"kind": "choose", "option": 0}] if seat == 0 else [],
    apply_fn=_unused, view_fn=_unused, dump_fn=_unused, load_fn=_unused,
    timer_fn=lambda state: (0, state.limit), sealed=True,
)
"""Just what the clock reads of a game: each question is timed by the game itself."""


def test_each_question_the_game_times_gets_its_own_limit_capped_by_the_move_time() -> None:
    game = ASKING
    clock = Clock.fresh(Limits(3, 60, 0), 2, 1000.0)
    clock.sync(game, Asking(0), True, 1000.0)
    assert clock.seats[0].left == 3.0 and clock.seats[0].capped and clock.seats[1].left is None
    clock.drain(1002.0)
    clock.sync(game, Asking(0), True, 1002.0)  # the same question: the clock runs on
    assert clock.seats[0].left == 1.0
    clock.drain(1010.0)
    assert clock.seats[0].bank == 60.0 and clock.due(1010.0, {}) == (0, "timeout")  # no bank for a capped question
    clock.sync(game, Asking(1, limit=2), True, 1010.0)  # the next question, though opened at the same version
    assert clock.seats[0].left == 2.0


def test_what_the_clock_shows_and_when_it_wakes_are_what_draining_it_would_leave() -> None:
    """``wire`` and ``wake`` read the clocks as :meth:`Clock.drain` to that time would leave them, without draining
    (or copying) the room's clock: compared with a drained copy over random clocks and times."""
    import random

    from server.rooms.clock import SeatClock, cents

    rng = random.Random(5)
    for _ in range(500):
        seats = [SeatClock(rng.choice([0.0, 3.0, 40.0]), rng.choice([None, 0.0, 2.5, 9.0]), 1, rng.random() < 0.3,
                           rng.uniform(900, 1000), rng.randrange(3)) for _ in range(2)]
        clock = Clock(Limits(10, 30, 0), seats, 1000.0)
        now = 1000.0 + rng.choice([-1.0, 0.0, 1.5, 4.0, 20.0, 80.0])
        away = {n: rng.uniform(900, 1010) for n in range(2) if rng.random() < 0.4}
        before = [s.data() for s in clock.seats]
        shown, wakes = clock.wire(now), clock.wake(now, away)
        assert [s.data() for s in clock.seats] == before and clock.stamp == 1000.0, "the clock itself is unchanged"
        drained = clock.copy()
        drained.drain(now)
        assert shown["seats"] == [{"left": None if s.left is None else cents(s.left), "bank": cents(s.bank),
                                   "strikes": s.strikes, "capped": s.capped} for s in drained.seats]
        waits = [w for n, s in enumerate(drained.seats) if s.left is not None
                 for w in [s.remaining()] + ([max(away[n], s.started) + GRACE - now] if n in away else [])]
        assert wakes == (max(0.0, min(waits)) if waits else None)


def test_the_clocks_are_shown_to_the_hundredth_as_round_would_show_them() -> None:
    """``cents`` stands for ``round(x, 2)`` on the views' clock figures: to the hundredth, and off by a hundredth at
    most where a figure lies on a half (where ``round`` goes by the decimal value the float holds)."""
    import random

    from server.rooms.clock import cents

    rng = random.Random(7)
    figures = [0.0, 0.005, 0.125, 1.0, 29.995, 60.0, 7200.0] + [rng.uniform(0, 7200) for _ in range(5000)]
    for x in figures:
        shown = cents(x)
        assert shown == round(shown, 2) and abs(shown - round(x, 2)) <= 0.01 + 1e-9, x
    assert [cents(x) for x in (0.004, 0.006, 12.344, 12.346, 30.0)] == [0.0, 0.01, 12.34, 12.35, 30.0]


async def test_a_decision_keeps_the_rooms_timer_while_its_deadline_only_moves_later() -> None:
    """Each decision pushes a timed room's deadline later: the timer set for the first one is kept (it fires early,
    finds nothing due and is set again) rather than cancelled and made anew; a deadline that comes sooner is set at
    once."""
    from bench.room import Keeps, Watcher
    from server.rooms.room import Room
    from server.rooms.tokens import hash_token
    from server.store.store import RoomRecord

    game = registry.get("creature_wars")
    assert game is not None
    state = game.setup({}, 5)
    record = RoomRecord(room="timed", game=game.name, options={}, seed=5, commitment="", created=0.0,
                        version=game.version(state), state=game.dump(state), limits=Limits(30, 60, 0).data(),
                        seats=(hash_token("seat 0"), hash_token("seat 1")))
    room = Room(record, game, state, Keeps())  # type: ignore[arg-type]  # a store that keeps nothing
    watchers = [Watcher(), Watcher()]
    for seat, watcher in enumerate(watchers):
        room.watch(watcher, seat)
    room.arm()
    first = room.timer
    assert first is not None
    for seat in (0, 1, 0):
        decision = game.legal(room.state, seat)[0]
        await room.decide(watchers[seat], f"seat {seat}", room.version, dict(decision), seat)
        assert room.timer is first, "kept: the deadline only moved later"
    assert first.when() <= asyncio.get_running_loop().time() + 30 + 60 + 1
    room.arm(0.5)  # a deadline sooner than the timer's (a time-out retried after a failure, say): set at once
    assert room.timer is not first and room.timer is not None
    assert room.timer.when() <= asyncio.get_running_loop().time() + 1 < first.when()
    room.timer.cancel()

"""Match clocks: a move time per decision, a bank per player, an increment, and what happens when they run out.

A seat's clock runs while the game awaits a decision of it (``legal`` is not empty), the
sealed plays included. Time is charged to the move time first, then to the bank; when both
are spent the server applies ``timeout`` for the seat, and on the third time-out in a row
``forfeit``. A seat nobody is connected to for :data:`GRACE` seconds while its clock runs
forfeits too. A decision the game itself times (a witch's question; in Fairy Meat a decision
one player takes alone) gets the smaller of the two move times and does not draw on the bank.

The clock is stored with every commit (``stamp`` is the wall time its figures were taken at),
and a running server writes a liveness time every :data:`BEAT` seconds: after a restart a
clock is charged only up to the last liveness time, so it resumes with the time that was left
when the server died.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any, Mapping

from engine.interface import Game
from engine.rules_game import RulesGame
from protocol import ErrorCode, ProtocolError
from server.store.store import Store

__all__ = ["BEAT", "GRACE", "STRIKES", "Clock", "Limits", "SeatClock", "cents", "heartbeat", "limits_for"]

log = logging.getLogger(__name__)

GRACE = 60.0
"""Seconds a seat may stay with no connection while its clock runs before it forfeits."""
STRIKES = 3
"""Time-outs in a row that lose the match by forfeit."""
BEAT = 0.5
"""Seconds between liveness writes."""
_MAX = {"move": 3600, "bank": 7200, "increment": 600}
_EPSILON = 1e-3


@dataclass(frozen=True, slots=True)
class Limits:
    """A room's clock setting, in whole seconds; all zero is an untimed room."""

    move: int = 0
    bank: int = 0
    increment: int = 0

    @property
    def timed(self) -> bool:
        return bool(self.move or self.bank)

    def data(self) -> dict[str, int]:
        return {"move": self.move, "bank": self.bank, "increment": self.increment}

    @classmethod
    def from_data(cls, data: Mapping[str, Any] | None) -> Limits:
        """The stored setting; rooms stored before clocks existed are untimed."""
        return cls(**{k: int(data[k]) for k in _MAX if k in data}) if data else cls()


DEFAULTS: dict[str, Limits] = {
    "creature_wars": Limits(30, 60, 0),
    "fairy_meat": Limits(30, 60, 0),
}
"""Each two-player game's clock when ``create_room`` names none; the solitaires are untimed."""


def limits_for(game: Game, raw: Any) -> Limits:
    """The clock ``create_room`` asked for (``None``: the game's default), or ``bad_field`` naming the fault."""
    if raw is None:
        return DEFAULTS.get(game.name, Limits())
    if not isinstance(raw, Mapping):
        raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: field 'clock' must be a map")
    unknown = sorted(str(k) for k in raw if k not in _MAX)
    if unknown:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: 'clock' takes 'move', 'bank' and 'increment', not {unknown}")
    values: dict[str, int] = {}
    for name, top in _MAX.items():
        value = raw.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: 'clock.{name}' must be an int from 0 to {top} (seconds)")
        values[name] = value
    limits = Limits(**values)
    if limits.increment and not limits.timed:
        raise ProtocolError(ErrorCode.BAD_FIELD, "create_room: 'clock.increment' needs a 'move' or 'bank' time")
    if limits.timed and game.seats({}) == 1:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: {game.title} is a solitaire and takes no clock")
    return limits


@dataclass(init=False, slots=True)
class SeatClock:
    """One seat's clock: ``left`` is None while it does not run. (A written ``__init__``: dataclasses' own is
    interpreted code even in the compiled build, and a decision copies every seat's clock.)"""

    bank: float
    left: float | None = None
    since: int = -1
    """The version at which the timed decision opened (``Game.opened``)."""
    capped: bool = False
    """The game limits this decision itself: the bank is not drawn on."""
    started: float = 0.0
    """Wall time the running clock started."""
    strikes: int = 0
    """Time-outs in a row."""
    at: int = -1
    """The version at which the running clock started: a game-timed decision restarts with every new one."""

    def __init__(self, bank: float, left: float | None = None, since: int = -1, capped: bool = False,
                 started: float = 0.0, strikes: int = 0, at: int = -1) -> None:
        self.bank = bank
        self.left = left
        self.since = since
        self.capped = capped
        self.started = started
        self.strikes = strikes
        self.at = at

    def remaining(self) -> float:
        """Seconds until this decision times out (the clock must be running)."""
        assert self.left is not None
        return self.left + (0.0 if self.capped else self.bank)

    def data(self) -> list[Any]:
        return [self.bank, self.left, self.since, self.capped, self.started, self.strikes, self.at]


@dataclass(init=False, slots=True)
class Clock:
    """Every seat's clock in a room, with the wall time its figures are correct at (a written ``__init__``, as
    :class:`SeatClock`'s)."""

    limits: Limits
    seats: list[SeatClock]
    stamp: float

    def __init__(self, limits: Limits, seats: list[SeatClock], stamp: float) -> None:
        self.limits = limits
        self.seats = seats
        self.stamp = stamp

    @classmethod
    def fresh(cls, limits: Limits, seats: int, now: float) -> Clock:
        return cls(limits, [SeatClock(float(limits.bank)) for _ in range(seats)], now)

    @classmethod
    def load(cls, limits: Limits, seats: int, data: Mapping[str, Any] | None, alive: float | None, now: float) -> Clock:
        """A stored clock, charged for the time the old server ran after storing it but not for the downtime."""
        if not data:
            return cls.fresh(limits, seats, now)
        clock = cls(limits, [SeatClock(*row) for row in data["seats"]], float(data["stamp"]))
        if alive is not None and alive > clock.stamp:
            clock.drain(min(alive, now))
        clock.stamp = now
        return clock

    def data(self) -> dict[str, Any]:
        """The clock as stored with a commit."""
        return {"stamp": self.stamp, "seats": [s.data() for s in self.seats]}

    def copy(self) -> Clock:
        return Clock(self.limits, [SeatClock(s.bank, s.left, s.since, s.capped, s.started, s.strikes, s.at)
                                   for s in self.seats], self.stamp)

    def drain(self, now: float) -> None:
        """Charge the time since ``stamp`` to every running clock: the move time first, then the bank."""
        for seat in self.seats:
            if seat.left is not None:
                seat.left, seat.bank = self._ahead(seat, now)
        self.stamp = max(self.stamp, now)

    def decided(self, seat: int, kind: str, by_server: bool) -> None:
        """A decision of ``seat`` was applied: a time-out is a strike; the player's own clears them and earns the increment."""
        clock = self.seats[seat]
        if by_server and kind == "timeout":
            clock.strikes += 1
        elif not by_server:
            clock.strikes = 0
            if self.limits.timed:
                clock.bank += self.limits.increment

    def sync(self, game: RulesGame, state: Any, filled: bool, now: float) -> None:
        """Start a clock for each decision newly awaited, keep those still awaited, stop the rest.

        Call after :meth:`drain` up to ``now``. A running clock is never shortened mid-decision.
        """
        over = game.outcome(state) is not None
        timed = None if over else game.timer(state)
        version = game.version(state)
        for n, clock in enumerate(self.seats):
            if over or not filled or not game.legal(state, n):
                clock.left, clock.since, clock.capped = None, -1, False
                continue
            opened = game.opened(state, n)
            named = timed is not None and timed[0] == n
            # a game-timed decision only its seat can take: a new version there is a new question
            requestioned = named and clock.capped and clock.at != version
            if clock.since == opened and (clock.left is not None or not named) and not requestioned:
                continue
            clock.since, clock.started, clock.at = opened, now, version
            if timed is not None and named:
                limit = timed[1]
                clock.left, clock.capped = float(min(self.limits.move, limit) if self.limits.move else limit), True
            elif self.limits.timed:
                clock.left, clock.capped = float(self.limits.move), False
            else:
                clock.left, clock.capped = None, False

    def due(self, now: float, away: Mapping[int, float]) -> tuple[int, str] | None:
        """The seat the server must decide for now, and how (``timeout`` or ``forfeit``); call after :meth:`drain`.

        ``away`` holds the seats no connection watches, each with the wall time it was left."""
        for n, clock in enumerate(self.seats):
            if clock.left is None:
                continue
            if n in away and now - max(away[n], clock.started) >= GRACE - _EPSILON:
                return n, "forfeit"
            if clock.remaining() <= _EPSILON:
                return n, "forfeit" if clock.strikes + 1 >= STRIKES else "timeout"
        return None

    def _ahead(self, seat: SeatClock, now: float) -> tuple[float | None, float]:
        """The seat's move time left and bank once the time since ``stamp`` is charged to it (the move time first,
        then the bank), the clock unchanged: what :meth:`drain` sets, and what views and timers read without a
        copy."""
        left, bank = seat.left, seat.bank
        if left is None:
            return None, bank
        spent = max(0.0, now - self.stamp)
        use = min(left, spent)
        if spent > use and not seat.capped:
            bank = max(0.0, bank - (spent - use))
        return left - use, bank

    def wake(self, now: float, away: Mapping[int, float]) -> float | None:
        """Seconds from ``now`` until :meth:`due` has something to do; None while no clock runs."""
        waits = []
        for n, clock in enumerate(self.seats):
            left, bank = self._ahead(clock, now)
            if left is None:
                continue
            waits.append(left + (0.0 if clock.capped else bank))
            if n in away:
                waits.append(max(away[n], clock.started) + GRACE - now)
        return max(0.0, min(waits)) if waits else None

    def wire(self, now: float) -> dict[str, Any]:
        """The clock as views carry it: per seat the move time left (null when not running), bank and strikes."""
        seats = []
        for clock in self.seats:
            left, bank = self._ahead(clock, now)
            seats.append({"left": None if left is None else cents(left), "bank": cents(bank),
                          "strikes": clock.strikes, "capped": clock.capped})
        return {"seats": seats, "limits": self.limits.data()}


def cents(seconds: float) -> float:
    """A clock's figure (never negative) to the hundredth of a second, as views show it: compiled, where the builtin
    ``round`` was a lookup and a generic call, four a frame, each costing as much as a small frame's packing."""
    return math.floor(seconds * 100.0 + 0.5) / 100


async def heartbeat(store: Store, stop: asyncio.Event) -> None:
    """Write the liveness time every :data:`BEAT` seconds until ``stop`` is set; a Redis fault only skips a beat."""
    while not stop.is_set():
        try:
            await store.beat(time.time())
        except Exception as exc:  # redis-py and socket errors alike: the next beat tries again
            log.warning("liveness write failed: %s", exc)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), BEAT)

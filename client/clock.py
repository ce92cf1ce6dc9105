"""The match clocks: what a view's ``clock`` says, counted down locally between views, and the bar that shows it.

The server is the only judge of time; the client counts down from the last ``clock`` it
was sent so both players and spectators see the seconds go, and corrects itself with
every view. A running seat spends its move time first, then its bank.
"""
from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

__all__ = ["ClockBar", "Clocks", "SeatClock", "clock_setting", "clock_short", "clock_text", "clocks_of", "fmt_seconds",
           "monotonic"]

LOW = 10.0
"""Seconds left under which a running clock is shown as urgent."""


def monotonic() -> float:
    """The clock every countdown on screen counts by (``time.monotonic``): read through this module, so that a
    screen's picture can be taken with time standing still."""
    return time.monotonic()


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's clock as sent: seconds left on the running move clock (None: not running) and its bank."""

    left: float | None
    bank: float

    def at(self, elapsed: float) -> tuple[float | None, float]:
        """(move time, bank) after ``elapsed`` seconds: the move time runs out first, then the bank."""
        if self.left is None:
            return None, self.bank
        if elapsed <= self.left:
            return self.left - elapsed, self.bank
        return 0.0, max(0.0, self.bank - (elapsed - self.left))


@dataclass(frozen=True, slots=True)
class Clocks:
    """Every seat's clock of a room, the clock setting (``limits``), and ``time.monotonic()`` when it arrived."""

    seats: tuple[SeatClock, ...]
    limits: Mapping[str, Any] = field(default_factory=dict)
    at: float = 0.0

    def timed(self) -> bool:
        """Whether the room has a clock at all (a setting of all zeros is untimed)."""
        return any(float(self.limits.get(k) or 0) > 0 for k in ("move", "bank", "increment")) or any(
            s.left is not None for s in self.seats)

    def now(self, now: float | None = None) -> list[tuple[float | None, float]]:
        """Each seat's (move time, bank) at ``now`` (default: the monotonic clock)."""
        elapsed = max(0.0, (monotonic() if now is None else now) - self.at)
        return [seat.at(elapsed) for seat in self.seats]


def _seat_clock(data: Any) -> SeatClock | None:
    if not isinstance(data, Mapping):
        return None
    left = data.get("left")
    return SeatClock(None if left is None else float(left), float(data.get("bank") or 0))


def clocks_of(clock: Mapping[Any, Any] | None, at: float | None = None) -> Clocks | None:
    """The clocks a view message carried (``clock``: a list under ``seats`` or one entry per seat number), or None."""
    if not clock:
        return None
    limits = clock.get("limits")
    limits = dict(limits) if isinstance(limits, Mapping) else {}
    raw = clock.get("seats")
    entries: list[Any]
    if isinstance(raw, Sequence) and not isinstance(raw, str):
        entries = list(raw)
    else:
        numbered = {int(k): v for k, v in clock.items() if str(k).isdigit()}
        entries = [numbered[n] for n in sorted(numbered)]
    seats = tuple(s for s in (_seat_clock(e) for e in entries) if s is not None)
    if not seats:
        return None
    return Clocks(seats, limits, monotonic() if at is None else at)


def fmt_seconds(seconds: float) -> str:
    """``m:ss``, rounded up (a clock showing 0:00 has run out)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_setting(limits: Mapping[str, Any] | None) -> str:
    """A room's clock setting in short: ``30s + 1:00 bank`` (``+5s`` increment), "" for an untimed room."""
    if not limits:
        return ""
    move, bank, increment = (int(limits.get(k) or 0) for k in ("move", "bank", "increment"))
    text = " + ".join(part for part in (f"{move}s" if move else "", f"{fmt_seconds(bank)} bank" if bank else "") if part)
    return f"{text} +{increment}s" if increment else text


def clock_short(limits: Mapping[str, Any] | None) -> str:
    """A room's clock setting for a narrow column: ``30s+1:00`` (move, bank; ``+5s`` increment), "" if untimed."""
    if not limits:
        return ""
    move, bank, increment = (int(limits.get(k) or 0) for k in ("move", "bank", "increment"))
    text = "+".join(part for part in (f"{move}s" if move else "", fmt_seconds(bank) if bank else "") if part)
    return f"{text}+{increment}s" if increment else text


def clock_text(clocks: Clocks, names: Sequence[str], now: float | None = None) -> Text:
    """One line: each seat's name, its running move time (▶) and its bank; urgent under ten seconds."""
    line = Text("⏱ ")
    for n, (left, bank) in enumerate(clocks.now(now)):
        if n:
            line.append("  ·  ", style="dim")
        name = names[n] if n < len(names) else f"Player {n + 1}"
        if left is None:
            line.append(name, style="dim")
            line.append(f" bank {fmt_seconds(bank)}", style="dim")
            continue
        line.append(f"▶ {name} ", style="bold")
        urgent = left + bank < LOW
        line.append(fmt_seconds(left), style="bold red" if urgent else "bold")
        line.append(f" + bank {fmt_seconds(bank)}", style="red" if urgent else "")
    return line


class ClockBar(Static):
    """The room's clocks on one line, ticking twice a second; hidden for untimed rooms. While the connection is
    down (``frozen``) they stand still where they were and say so: only the server keeps time."""

    DEFAULT_CSS = """
    ClockBar { height: 1; padding: 0 1; display: none; }
    ClockBar.-timed { display: block; }
    """

    clocks: reactive[Clocks | None] = reactive(None)
    names: reactive[tuple[str, ...]] = reactive(())
    frozen: reactive[float | None] = reactive(None)
    """``time.monotonic()`` when the connection went down (the clocks are shown as they stood then), or None."""

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        if self.frozen is None and self.clocks is not None and any(left is not None for left, _ in self.clocks.now()):
            self.refresh()

    def watch_clocks(self, clocks: Clocks | None) -> None:
        self.set_class(clocks is not None and clocks.timed(), "-timed")

    def render(self) -> Text:
        if self.clocks is None:
            return Text("")
        line = clock_text(self.clocks, self.names, self.frozen)
        if self.frozen is None:
            return line
        return Text.assemble(("reconnecting: stopped ", "bold yellow"), line)

"""A finished match rebuilt from its record with the pure engine: every state, who decided what, where duels fall.

The record is the ``export`` reply (``cardroom export``): ``setup(options, seed)``, then each
decision applied in order, as ``cardroom verify`` does. Step 0 is the deal; step n the state
after the n-th decision. What a seat may see of a step goes through ``game.view(state, seat)``
and the events redacted for that seat, never the state itself.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import registry
from engine.errors import EngineError
from engine.interface import Game, redact_all
from engine.record import HINTS, MARKS, Step, full_events, replayed

__all__ = ["HINTS", "MARKS", "Replay", "ReplayError", "Step"]


class ReplayError(Exception):
    """The record cannot be replayed: unknown game, no seed yet, or a decision the rules refuse."""


class Replay:
    """Every step of a finished match, rebuilt from its record."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        game = registry.get(str(record.get("game")))
        if game is None:
            raise ReplayError(f"unknown game {record.get('game')!r}")
        if record.get("seed") is None:
            raise ReplayError(f"the seed of this daily room is told after its day ends ({record.get('reveal_after')})")
        self.game: Game = game
        self.record = record
        self.room = str(record.get("room", ""))
        self.options: Mapping[str, Any] = record.get("options") or {}
        self.seats = game.seats(self.options)
        names = [str(n or "") for n in record.get("names") or ()]
        self.names: tuple[str, ...] = tuple(names + [""] * (self.seats - len(names)))
        self.outcome: Mapping[str, Any] | None = record.get("outcome")
        try:
            self.steps: tuple[Step, ...] = replayed(game, self.options, int(record["seed"]), record.get("decisions") or ())
        except EngineError as exc:
            raise ReplayError(exc.message) from None

    @property
    def last(self) -> int:
        """The number of the last step (the number of decisions)."""
        return len(self.steps) - 1

    def name(self, seat: int) -> str:
        """A seat's player name from the record, "Player n" when it has none."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or f"Player {seat + 1}"

    def view(self, n: int, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) was shown at step ``n``."""
        return self.game.view(self.steps[n].state, seat)

    def events(self, n: int, seat: int | None) -> list[dict[str, Any]]:
        """The events of step ``n`` as ``seat`` was told them; ``seat`` None: the full view, the public copy and each
        seat's own copy where it says more (marked ``to``: that seat)."""
        events = self.steps[n].events
        if seat is not None:
            return redact_all(list(events), seat)
        return full_events(events, self.seats)

    def next_mark(self, n: int, step: int) -> int | None:
        """The next step after ``n`` (``step`` +1) or before it (-1) that resolved a duel or an attack."""
        k = n + step
        while 0 <= k <= self.last:
            if self.steps[k].mark:
                return k
            k += step
        return None

    def marks(self) -> Sequence[int]:
        return [s.number for s in self.steps if s.mark]

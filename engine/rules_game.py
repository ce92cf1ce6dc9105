"""The one adapter from a game package's pure functions to :class:`engine.interface.Game`.

Every game's state carries ``version`` and ``outcome``; a game with sealed simultaneous
decisions also carries ``opened`` (the version its pending decisions opened at).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from engine.errors import MatchOver, NotYourTurn, TooLate
from engine.interface import Decision, Event, Outcome, OutcomeReason, Seat

__all__ = ["ENDINGS", "RulesGame"]

ENDINGS: Final[dict[str, OutcomeReason]] = {
    "resign": OutcomeReason.RESIGNED,
    "forfeit": OutcomeReason.FORFEIT,
    "abort": OutcomeReason.ABORTED,
}
"""Decision kinds every game takes, each ending the match for a reason of its own.

``resign`` a player may send; ``forfeit`` (a seat's clock ran out too often, or it stayed away)
and ``abort`` (both seats agreed, before anything was resolved) only the server applies."""


def _untimed(state: Any) -> tuple[Seat, int] | None:
    return None


def _nothing_blocked(state: Any, seat: Seat) -> list[str | None]:
    return []


def _untouched(state: Any) -> bool:
    return bool(state.version == 0)


@dataclass(frozen=True, slots=True)
class RulesGame:
    """A game assembled from its rules, state and view functions."""

    name: str
    title: str
    players: int
    parse_options: Callable[[Mapping[str, Any]], Any]
    """Validates room options; the result's ``scenario`` says whether they fix the deal."""
    setup_fn: Callable[[Mapping[str, Any], int], Any]
    legal_fn: Callable[[Any, Seat], Sequence[Decision]]
    apply_fn: Callable[[Any, Seat, Decision], tuple[Any, Sequence[Event]]]
    view_fn: Callable[[Any, Seat | None], dict[str, Any]]
    dump_fn: Callable[[Any], dict[str, Any]]
    load_fn: Callable[[Mapping[str, Any]], Any]
    timer_fn: Callable[[Any], tuple[Seat, int] | None] = _untimed
    blocked_fn: Callable[[Any, Seat], list[str | None]] = _nothing_blocked
    """Per card of a seat's own hand, why it may not be played now (a game whose plays are not hand cards: none)."""
    sealed: bool = False
    """True when seats decide simultaneously: staleness is then judged from ``state.opened``."""
    abortable_fn: Callable[[Any], bool] = _untouched
    """True while nothing has been resolved, so the players may still agree to abort (default: no decision yet)."""

    def seats(self, options: Mapping[str, Any]) -> int:
        return self.players

    def scenario(self, options: Mapping[str, Any]) -> bool:
        return bool(self.parse_options(options).scenario)

    def setup(self, options: Mapping[str, Any], seed: int) -> Any:
        return self.setup_fn(options, seed)

    def version(self, state: Any) -> int:
        version: int = state.version
        return version

    def opened(self, state: Any, seat: Seat) -> int:
        opened: int = state.opened if self.sealed else state.version
        return opened

    def legal(self, state: Any, seat: Seat) -> Sequence[Decision]:
        return self.legal_fn(state, seat)

    def apply(self, state: Any, seat: Seat, decision: Decision) -> tuple[Any, Sequence[Event]]:
        # (a dict first: an isinstance check against the Mapping ABC is slow)
        reason = ENDINGS.get(str(decision.get("kind"))) if isinstance(decision, (dict, Mapping)) else None
        if reason is not None:
            return self._end(state, seat, reason)
        return self.apply_fn(state, seat, decision)

    def abortable(self, state: Any) -> bool:
        return state.outcome is None and self.abortable_fn(state)

    def _end(self, state: Any, seat: Seat, reason: OutcomeReason) -> tuple[Any, Sequence[Event]]:
        """Resign, forfeit or abort: the match ends at once, whoever's turn it is."""
        if state.outcome is not None:
            raise MatchOver("the match is over")
        if not 0 <= seat < self.players:
            raise NotYourTurn(f"seat {seat} does not exist in {self.title} (seats 0 to {self.players - 1})")
        if reason is OutcomeReason.ABORTED and not self.abortable_fn(state):
            raise TooLate("too late to abort: the first duel (or attack) has been resolved")
        winner = None if reason is OutcomeReason.ABORTED or self.players != 2 else 1 - seat
        text = {
            OutcomeReason.RESIGNED: f"Seat {seat} resigns.",
            OutcomeReason.FORFEIT: f"Seat {seat} forfeits: its clock ran out too often, or it stayed away too long.",
            OutcomeReason.ABORTED: "Both players agreed to abort the match: no result.",
        }[reason]
        if winner is not None:
            text += f" Seat {winner} wins."
        outcome = Outcome(winner, reason, (), text)
        changes: dict[str, Any] = {"version": state.version + 1, "outcome": outcome}
        phase = getattr(state, "phase", None)
        if isinstance(phase, enum.Enum) and "OVER" in type(phase).__members__:
            changes["phase"] = type(phase)["OVER"]
        ended = replace(state, **changes)
        return ended, [Event("over", {"text": text, "winner": winner, "reason": reason.value, "seat": seat})]

    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        return self.view_fn(state, seat)

    def timer(self, state: Any) -> tuple[Seat, int] | None:
        return self.timer_fn(state)

    def blocked(self, state: Any, seat: Seat) -> list[str | None]:
        return self.blocked_fn(state, seat)

    def outcome(self, state: Any) -> Outcome | None:
        outcome: Outcome | None = state.outcome
        return outcome

    def dump(self, state: Any) -> dict[str, Any]:
        return self.dump_fn(state)

    def load(self, data: Mapping[str, Any]) -> Any:
        return self.load_fn(data)

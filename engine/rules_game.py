"""The one adapter from a game package's pure functions to :class:`engine.interface.Game`.

Every game's state carries ``version`` and ``outcome``; a game with sealed simultaneous
decisions also carries ``opened`` (the version its pending decisions opened at).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from engine.interface import Decision, Event, Outcome, Seat

__all__ = ["RulesGame"]


def _untimed(state: Any) -> tuple[Seat, int] | None:
    return None


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
    sealed: bool = False
    """True when seats decide simultaneously: staleness is then judged from ``state.opened``."""

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
        return self.apply_fn(state, seat, decision)

    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        return self.view_fn(state, seat)

    def timer(self, state: Any) -> tuple[Seat, int] | None:
        return self.timer_fn(state)

    def outcome(self, state: Any) -> Outcome | None:
        outcome: Outcome | None = state.outcome
        return outcome

    def dump(self, state: Any) -> dict[str, Any]:
        return self.dump_fn(state)

    def load(self, data: Mapping[str, Any]) -> Any:
        return self.load_fn(data)

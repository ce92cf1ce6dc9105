"""Queen's Challenge as an :class:`engine.interface.Game`."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.interface import Decision, Event, Outcome, Seat
from engine.queens_challenge import rules
from engine.queens_challenge import state as st
from engine.queens_challenge.view import view as _view

__all__ = ["GAME", "QueensChallenge"]


class QueensChallenge:
    """One magician against the Queen's Challenge deck: power piles, spells, attacks and gifts."""

    name = "queens_challenge"
    title = "Queen's Challenge"

    def seats(self, options: Mapping[str, Any]) -> int:
        return 1

    def scenario(self, options: Mapping[str, Any]) -> bool:
        """Every option fixes part of the deal, so any option makes a scenario (not a ranked game)."""
        return st.Options.parse(options).scenario

    def setup(self, options: Mapping[str, Any], seed: int) -> st.State:
        return rules.setup(options, seed)

    def version(self, state: st.State) -> int:
        return state.version

    def opened(self, state: st.State, seat: Seat) -> int:
        """One player: every decision point opens at the current version."""
        return state.version

    def legal(self, state: st.State, seat: Seat) -> Sequence[Decision]:
        return rules.legal(state, seat)

    def apply(self, state: st.State, seat: Seat, decision: Decision) -> tuple[st.State, Sequence[Event]]:
        return rules.apply(state, seat, decision)

    def view(self, state: st.State, seat: Seat | None) -> dict[str, Any]:
        return _view(state, seat)

    def timer(self, state: st.State) -> tuple[Seat, int] | None:
        """No decision is timed: one player thinks as long as they like."""
        return None

    def outcome(self, state: st.State) -> Outcome | None:
        return state.outcome

    def dump(self, state: st.State) -> dict[str, Any]:
        return st.dump(state)

    def load(self, data: Mapping[str, Any]) -> st.State:
        return st.load(data)


GAME = QueensChallenge()

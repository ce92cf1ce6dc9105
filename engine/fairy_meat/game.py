"""Fairy Meat as an :class:`engine.interface.Game`."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.fairy_meat import rules
from engine.fairy_meat import state as st
from engine.fairy_meat.view import view as _view
from engine.interface import Decision, Event, Outcome, Seat

__all__ = ["GAME", "FairyMeat"]


class FairyMeat:
    """A two-fairy duel with the Fairy Meat alternative combat system: sealed Trumps and Numbered cards."""

    name = "fairy_meat"
    title = "Fairy Meat"

    def seats(self, options: Mapping[str, Any]) -> int:
        return 2

    def scenario(self, options: Mapping[str, Any]) -> bool:
        return st.Options.parse(options).scenario

    def setup(self, options: Mapping[str, Any], seed: int) -> st.State:
        return rules.setup(options, seed)

    def version(self, state: st.State) -> int:
        return state.version

    def opened(self, state: st.State, seat: Seat) -> int:
        """A sealed step stays open at the version it began, while the other seat locks in."""
        return state.opened

    def legal(self, state: st.State, seat: Seat) -> Sequence[Decision]:
        return rules.legal(state, seat)

    def apply(self, state: st.State, seat: Seat, decision: Decision) -> tuple[st.State, Sequence[Event]]:
        return rules.apply(state, seat, decision)

    def view(self, state: st.State, seat: Seat | None) -> dict[str, Any]:
        return _view(state, seat)

    def timer(self, state: st.State) -> tuple[Seat, int] | None:
        return rules.timer(state)

    def outcome(self, state: st.State) -> Outcome | None:
        return state.outcome

    def dump(self, state: st.State) -> dict[str, Any]:
        return st.dump(state)

    def load(self, data: Mapping[str, Any]) -> st.State:
        return st.load(data)


GAME = FairyMeat()

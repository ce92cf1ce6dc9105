"""Fairy Tableau as an :class:`engine.interface.Game`."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.fairy_tableau import rules
from engine.fairy_tableau import state as st
from engine.fairy_tableau.view import view as _view
from engine.interface import Decision, Event, Outcome, Seat

__all__ = ["GAME", "FairyTableau"]


class FairyTableau:
    """One player, seven face-up cards: Spades for mana, Diamonds as spells, fairies against the Clubs."""

    name = "fairy_tableau"
    title = "Fairy Tableau"

    def seats(self, options: Mapping[str, Any]) -> int:
        return 1

    def scenario(self, options: Mapping[str, Any]) -> bool:
        return st.Options.parse(options).scenario

    def setup(self, options: Mapping[str, Any], seed: int) -> st.State:
        return rules.setup(options, seed)

    def version(self, state: st.State) -> int:
        return state.version

    def opened(self, state: st.State, seat: Seat) -> int:
        return state.version

    def legal(self, state: st.State, seat: Seat) -> Sequence[Decision]:
        return rules.legal(state, seat)

    def apply(self, state: st.State, seat: Seat, decision: Decision) -> tuple[st.State, Sequence[Event]]:
        return rules.apply(state, seat, decision)

    def view(self, state: st.State, seat: Seat | None) -> dict[str, Any]:
        return _view(state, seat)

    def timer(self, state: st.State) -> tuple[Seat, int] | None:
        """Nothing in Fairy Tableau is timed."""
        return None

    def outcome(self, state: st.State) -> Outcome | None:
        return state.outcome

    def dump(self, state: st.State) -> dict[str, Any]:
        return st.dump(state)

    def load(self, data: Mapping[str, Any]) -> st.State:
        return st.load(data)


GAME = FairyTableau()

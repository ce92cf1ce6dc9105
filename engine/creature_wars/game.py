"""Creature Wars as an :class:`engine.interface.Game`."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.creature_wars import rules
from engine.creature_wars import state as st
from engine.creature_wars.view import view as _view
from engine.interface import Decision, Event, Outcome, Seat

__all__ = ["CreatureWars", "GAME"]


class CreatureWars:
    """Two empires, sealed simultaneous plays, the deck shared."""

    name = "creature_wars"
    title = "Creature Wars"

    def seats(self, options: Mapping[str, Any]) -> int:
        return 2

    def scenario(self, options: Mapping[str, Any]) -> bool:
        return st.Options.parse(options).scenario

    def setup(self, options: Mapping[str, Any], seed: int) -> st.State:
        return rules.setup(options, seed)

    def version(self, state: st.State) -> int:
        return state.version

    def opened(self, state: st.State, seat: Seat) -> int:
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


GAME = CreatureWars()

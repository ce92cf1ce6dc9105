"""Helpers that drive Fairy Tableau through its public interface from exact scenario decks."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.fairy_tableau import GAME
from engine.fairy_tableau.state import State
from engine.interface import Event

__all__ = ["codes", "do", "faces", "kinds", "start", "texts"]


def start(tableau: Sequence[str], draw: Sequence[str] = (), seed: int = 7, **options: Any) -> State:
    """A scenario: ``tableau`` (up to 7 cards, slot 0 first) then the draw pile, top first."""
    state: State = GAME.setup({"deck": [*tableau, *draw], **options}, seed)
    return state


def do(state: State, kind: str, slot: int, **keys: int) -> tuple[State, list[Event]]:
    """Apply one decision through the interface."""
    new, events = GAME.apply(state, 0, {"kind": kind, "slot": slot, **keys})
    return new, list(events)


def codes(state: State) -> list[str | None]:
    """The tableau's card codes by slot, as the player's view shows them (``None``: empty)."""
    return [None if c is None else c["code"] for c in GAME.view(state, 0)["tableau"]]


def faces(cards: Sequence[dict[str, Any]]) -> list[str]:
    return [c["face"] for c in cards]


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def texts(events: Sequence[Event]) -> list[str]:
    return [str(e.public["text"]) for e in events]

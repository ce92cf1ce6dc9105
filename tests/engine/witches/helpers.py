"""Helpers for witch tests: exact positions, a witch duel, answers, and reading hands and HP."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import Event, redact, redact_all
from tests.engine.scenario import duel, events_of, fillers, hand, play, slot, start

__all__ = [
    "GAME", "answer", "duel", "events_of", "fillers", "hand", "hp", "play", "redact", "redact_all", "seen_by",
    "slot", "start", "witch_duel",
]


def witch_duel(witch: str, enemy: str, *, hands: Sequence[Sequence[str]] = ((), ()), deck: Sequence[str] | None = None,
               hp: int = 30, first: int = 0, seed: int = 7) -> tuple[State, list[Event]]:
    """Seat 0 holds ``witch`` (e.g. ``"Lvl.2 Greedy Witch"``) and plays it; seat 1 plays ``enemy``.

    ``hands`` adds other cards to each hand (after the played card). The deck defaults to
    typeless fillers; turn 1's draws (seat ``first`` first) happen before the duel.
    """
    state = start([[witch, *hands[0]], [enemy, *hands[1]]], deck, first, hp, seed)
    shown0 = hand(state, 0)[0]
    shown1 = hand(state, 1)[0]
    return duel(state, shown0, shown1)


def answer(state: State, seat: int, option: int) -> tuple[State, list[Event]]:
    """``seat`` answers the pending question with ``option``."""
    new, events = GAME.apply(state, seat, {"kind": "choose", "option": option})
    return new, list(events)


def hp(state: State) -> list[int]:
    hp_values: list[int] = GAME.view(state, None)["hp"]
    return hp_values


def seen_by(events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
    """What ``seat`` is told of ``events`` (None: a spectator)."""
    return redact_all(events, seat)

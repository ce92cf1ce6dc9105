"""Helpers that drive Creature Wars through its public interface from exact scenario positions."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import Event, redact

__all__ = ["FILLERS", "drawn", "duel", "events_of", "fillers", "hand", "play", "slot", "start"]

FILLERS = ("Lvl.1 Serpent", "Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Dragon", "Lvl.1 Giant")
"""Typeless creatures of several tribes: they never give a type bonus and rarely rally."""


def fillers(n: int) -> list[str]:
    """``n`` filler cards for a deck, cycling through several tribes."""
    return [FILLERS[i % len(FILLERS)] for i in range(n)]


def start(hands: Sequence[Sequence[str]], deck: Sequence[str] | None = None, first: int = 0, hp: int = 30,
          seed: int = 7) -> State:
    """A scenario: exact hands and deck (top first); turn 1's draws have happened."""
    options: dict[str, Any] = {
        "deck": list(fillers(12) if deck is None else deck),
        "hands": [list(hands[0]), list(hands[1])],
        "first_drawer": first,
        "hp": hp,
    }
    state: State = GAME.setup(options, seed)
    return state


def hand(state: State, seat: int) -> list[str]:
    """The notation of every card in ``seat``'s hand, as that seat's own view shows it."""
    return [card["text"] for card in GAME.view(state, seat)["hands"][seat]["cards"]]


def slot(state: State, seat: int, text: str) -> int:
    """The hand position of the first card shown exactly as ``text``."""
    texts = hand(state, seat)
    assert text in texts, f"{text!r} is not in seat {seat}'s hand {texts}"
    return texts.index(text)


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """``seat`` plays the card shown as ``text``."""
    new, events = GAME.apply(state, seat, {"kind": "play", "slot": slot(state, seat, text)})
    return new, list(events)


def duel(state: State, card0: str | None, card1: str | None) -> tuple[State, list[Event]]:
    """Both seats play (``None``: that seat has passed already); returns the state and all events."""
    events: list[Event] = []
    for seat, text in ((0, card0), (1, card1)):
        if text is not None:
            state, new = play(state, seat, text)
            events.extend(new)
    return state, events


def events_of(events: Sequence[Event], kind: str) -> list[Event]:
    """The events of one kind."""
    return [e for e in events if e.kind == kind]


def drawn(events: Sequence[Event]) -> list[tuple[int, str]]:
    """(seat, card) for every draw, as each drawer was told."""
    out = []
    for event in events_of(events, "draw"):
        seat = event.public["seat"]
        out.append((seat, redact(event, seat)["card"]))
    return out

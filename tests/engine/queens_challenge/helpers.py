"""Helpers that drive Queen's Challenge through its public interface from exact scenario positions."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.interface import Event, redact
from engine.queens_challenge import GAME
from engine.queens_challenge.state import State

__all__ = ["act", "attack", "end_turn", "events_of", "gather", "gift", "hand", "mine", "start", "table", "told"]


def start(challenge: Sequence[str], magic: Sequence[str] = (), hand: Sequence[str] | None = None,
          piles: Mapping[str, Sequence[str]] | None = None, summoned: Mapping[str, str] | None = None,
          seed: int = 7) -> State:
    """A scenario: exact decks (top first); the first challenge card is already in play and turn 1 has drawn."""
    options: dict[str, Any] = {"challenge": list(challenge[1:]), "in_play": list(challenge[:1]), "magic": list(magic)}
    if hand is not None:
        options["hand"] = list(hand)
    if piles is not None:
        options["piles"] = {k: list(v) for k, v in piles.items()}
    if summoned is not None:
        options["summoned"] = dict(summoned)
    state: State = GAME.setup(options, seed)
    return state


def act(state: State, decision: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """Apply one decision of the player (seat 0)."""
    new, events = GAME.apply(state, 0, decision)
    return new, list(events)


def gather(state: State, *cards: str) -> State:
    """Gather each card in turn."""
    for card in cards:
        state, _ = act(state, {"kind": "gather", "card": card})
    return state


def attack(state: State, spells: Sequence[str] = (), with_pile: bool = False) -> tuple[State, list[Event]]:
    return act(state, {"kind": "attack", "spells": list(spells), "with_pile": with_pile})


def gift(state: State, suit: str) -> tuple[State, list[Event]]:
    return act(state, {"kind": "gift", "suit": suit})


def end_turn(state: State) -> tuple[State, list[Event]]:
    return act(state, {"kind": "end_turn"})


def mine(state: State) -> dict[str, Any]:
    """The player's view."""
    return GAME.view(state, 0)


def table(state: State) -> dict[str, Any]:
    """A spectator's view."""
    return GAME.view(state, None)


def hand(state: State) -> list[str]:
    """The codes of the player's hand, as the player's view shows them."""
    return [c["code"] for c in mine(state)["hand"]["cards"]]


def events_of(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def told(events: Sequence[Event], seat: int | None) -> list[dict[str, Any]]:
    """Every event as ``seat`` is told it."""
    return [redact(e, seat) for e in events]

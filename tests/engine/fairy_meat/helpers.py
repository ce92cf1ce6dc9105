"""Helpers that drive Fairy Meat through its public interface from exact scenario decks."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.fairy_meat import GAME
from engine.fairy_meat.state import State
from engine.interface import Event, redact_all

__all__ = [
    "CLAWS", "act", "both", "decide", "events_of", "fairy", "fight", "kinds", "order_cards", "start", "texts", "told",
    "view",
]

CLAWS: dict[str, Any] = {"weapon": "claws"}


def start(deck: Sequence[str], fairies: Sequence[Mapping[str, Any]] | None = None, seed: int = 7,
          **options: Any) -> State:
    """A scenario: the Fairy Deck in this order (top first); fairies default to Claws, Live 3, Kill 3."""
    given = [dict(CLAWS), dict(CLAWS)] if fairies is None else [{**CLAWS, **f} for f in fairies]
    state: State = GAME.setup({"deck": list(deck), "fairies": given, **options}, seed)
    return state


def decide(state: State, seat: int, decision: Mapping[str, Any]) -> tuple[State, list[Event]]:
    new, events = GAME.apply(state, seat, dict(decision))
    return new, list(events)


def both(state: State, first: Mapping[str, Any], second: Mapping[str, Any],
         order: tuple[int, int] = (0, 1)) -> tuple[State, list[Event]]:
    """Both seats lock in a sealed choice (``first`` is seat 0's, ``second`` seat 1's); the events of both steps."""
    choices = {0: first, 1: second}
    state, events = decide(state, order[0], choices[order[0]])
    state, more = decide(state, order[1], choices[order[1]])
    return state, events + more


def act(state: State, seat: int, action: str, **keys: Any) -> tuple[State, list[Event]]:
    return decide(state, seat, {"kind": "action", "action": action, **keys})


def view(state: State, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = GAME.view(state, seat)
    return out


def fairy(state: State, seat: int) -> dict[str, Any]:
    out: dict[str, Any] = view(state, None)["fairies"][seat]
    return out


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def events_of(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def texts(events: Sequence[Event], seat: int | None = None) -> list[str]:
    """The events' texts as ``seat`` (``None``: a spectator) is told them."""
    return [str(e["text"]) for e in redact_all(events, seat)]


def told(events: Sequence[Event], seat: int | None = None) -> str:
    return "\n".join(texts(events, seat))


def order_cards(first: int) -> list[str]:
    """Order cards that make ``first`` act first (K♥ against 2♣)."""
    return ["KH", "2C"] if first == 0 else ["2C", "KH"]


def fight(attacker_hand: Sequence[str], defender_hand: Sequence[str], rest: Sequence[str] = (),
          fairies: Sequence[Mapping[str, Any]] | None = None, first: int = 0, action: str = "wrestle_or_attack",
          **options: Any) -> State:
    """A scenario at its first combat: ``first`` acts first and attacks (or wrestles); the hands are exactly these."""
    deck = [*order_cards(first), *attacker_hand, *defender_hand, *rest]
    state = start(deck, fairies, **options)
    state, _ = act(state, first, "attack" if action == "wrestle_or_attack" else action)
    mine = [c["code"] for c in view(state, first)["hand"]]
    theirs = [c["code"] for c in view(state, 1 - first)["hand"]]
    assert sorted(mine) == sorted(attacker_hand) and sorted(theirs) == sorted(defender_hand), (mine, theirs)
    return state

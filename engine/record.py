"""A finished match's steps in words, shared by every replay (the terminal's, and the server's for the browser).

A step is the state after one decision of the record; what it is called (``label``), whether it
resolved a duel or an attack (``MARKS``), and its events as the full view tells them.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError
from engine.interface import Event, Game, Seat, redact

__all__ = ["HINTS", "MARKS", "Step", "full_events", "label", "replayed"]

MARKS: dict[str, frozenset[str]] = {
    "creature_wars": frozenset({"reveal"}),
    "fairy_meat": frozenset({"result"}),
}
"""Event kinds that mark a step worth jumping to: a Creature Wars duel revealed, a Fairy Meat attack's result."""

HINTS = frozenset({"label", "loses"})
"""Display hints of a ``legal`` entry, not part of the decision itself."""


@dataclass(frozen=True, slots=True)
class Step:
    """One state of the match: the deal (``number`` 0, no decision) or the state after decision ``number``."""

    number: int
    state: Any
    seat: int | None = None
    """Who made the decision that led here."""
    decision: Mapping[str, Any] | None = None
    label: str = ""
    """The decision in words (the rules' label for it, or the played card)."""
    events: tuple[Event, ...] = ()
    mark: bool = False
    """A duel or an attack was resolved by this decision."""


def replayed(game: Game, options: Mapping[str, Any], seed: int, decisions: Iterable[Mapping[str, Any]]) -> tuple[Step, ...]:
    """Every step of a match rebuilt from its seed and its record's decisions (``seat``, ``d``); an
    :class:`EngineError` names the decision the rules refuse."""
    marks = MARKS.get(game.name, frozenset())
    state = game.setup(options, seed)
    steps = [Step(0, state)]
    for n, entry in enumerate(decisions, 1):
        seat, decision = int(entry["seat"]), dict(entry["d"])
        said = label(game, state, seat, decision)
        try:
            state, events = game.apply(state, seat, decision)
        except EngineError as exc:
            raise type(exc)(f"decision {n} is refused by the rules: {exc.message}") from None
        steps.append(Step(n, state, seat, decision, said, tuple(events), any(e.kind in marks for e in events)))
    return tuple(steps)


def label(game: Game, state: Any, seat: Seat, decision: Mapping[str, Any]) -> str:
    """The decision ``seat`` made in ``state`` in words: the label ``legal`` gave it, a played card's text, else its
    fields."""
    wanted = {k: v for k, v in decision.items() if k not in HINTS}
    for entry in game.legal(state, seat):
        if {k: v for k, v in entry.items() if k not in HINTS} == wanted and entry.get("label"):
            return str(entry["label"])
    if wanted.get("kind") == "play" and isinstance(wanted.get("slot"), int):
        cards = (game.view(state, seat).get("hands") or [{}] * (seat + 1))[seat].get("cards") or []
        slot = int(wanted["slot"])
        if 0 <= slot < len(cards):
            return f"plays {cards[slot].get('text', '?')}"
    if wanted.get("kind") == "timeout":
        return "ran out of time (the rules' default)"
    return json.dumps(wanted, ensure_ascii=False)


def full_events(events: Sequence[Event], seats: int) -> list[dict[str, Any]]:
    """A step's events for the full view: the public copy, and each seat's own copy where it says more (marked
    ``to``: that seat)."""
    out = []
    for event in events:
        copies: list[tuple[int | None, dict[str, Any]]] = [
            (s, redact(event, s)) for s in range(seats) if not event.private or s in event.secret]
        if not event.private:
            copies.insert(0, (None, redact(event, None)))
        seen: list[Any] = []
        for to, copy in copies:
            if copy.get("text") not in seen:
                seen.append(copy.get("text"))
                out.append(copy if to is None else {**copy, "to": to})
    return out

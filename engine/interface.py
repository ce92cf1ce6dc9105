"""The interface every game implements, and the values it trades in.

A game is a handful of pure functions over an immutable state (boardgame.io's
shape): the server never looks inside a state except through these.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence

__all__ = ["Decision", "Event", "Game", "Outcome", "OutcomeReason", "Seat", "redact", "redact_all"]

Seat = int
Decision = Mapping[str, Any]
"""A decision is a small map, e.g. ``{"kind": "play", "slot": 2}``; each game documents its kinds."""


@dataclass(init=False, slots=True)
class Event:
    """Something that happened, told to each recipient only as far as it may know.

    ``public`` is what everyone (spectators too) is told; ``secret[seat]`` is merged on
    top of it for that seat alone, e.g. the card a seat drew. A ``private`` event is told
    only to the seats in ``secret`` (a rally in a hidden hand is nobody else's business).
    A value: never changed once made (not frozen, for speed: a written ``__init__``, as dataclasses' own is
    interpreted code even in the compiled build).
    """

    kind: str
    public: Mapping[str, Any]
    secret: Mapping[Seat, Mapping[str, Any]] = field(default_factory=dict)
    private: bool = False
    told: dict[str, Any] | None = field(default=None, init=False, compare=False, repr=False)
    """What every recipient is told of an event with no secret: made once, by :func:`redact`, for them all."""

    def __init__(self, kind: str, public: Mapping[str, Any], secret: Mapping[Seat, Mapping[str, Any]] | None = None,
                 private: bool = False) -> None:
        self.kind = kind
        self.public = public
        self.secret = {} if secret is None else secret
        self.private = private
        self.told = None


def redact(event: Event, seat: Seat | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (``None``: a spectator). An event with no secret is told alike to every
    recipient, as one map shared by their frames: callers must not change it."""
    if not event.secret:
        told = event.told
        if told is None:
            told = event.told = {"kind": event.kind, **event.public}
        return told
    out = {"kind": event.kind, **event.public}
    if seat is not None and seat in event.secret:
        out.update(event.secret[seat])
    return out


def redact_all(events: Sequence[Event], seat: Seat | None) -> list[dict[str, Any]]:
    """Every event ``seat`` may be told of, each as it may see it."""
    return [redact(e, seat) for e in events if not e.private or (seat is not None and seat in e.secret)]


class OutcomeReason(enum.StrEnum):
    """Why a match ended."""

    KNOCKOUT = "knockout"
    MAYHEM = "mayhem"
    WON = "won"
    LOST = "lost"
    RESIGNED = "resigned"
    FORFEIT = "forfeit"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a match ended: ``winner`` is a seat, or ``None`` for a draw or a solitaire."""

    winner: Seat | None
    reason: OutcomeReason
    scores: tuple[int, ...] = ()
    detail: str = ""

    def data(self) -> dict[str, Any]:
        """The outcome as plain data: in views, ``match_over`` and stored states alike."""
        return {"winner": self.winner, "reason": self.reason.value, "scores": list(self.scores), "detail": self.detail}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Outcome:
        """The inverse of :meth:`data`."""
        return cls(data["winner"], OutcomeReason(data["reason"]), tuple(data["scores"]), data["detail"])


class Game(Protocol):
    """A game's rules. Every method is pure: same inputs, same outputs, no I/O."""

    @property
    def name(self) -> str:
        """The wire name (``creature_wars``)."""

    @property
    def title(self) -> str:
        """The name players read (``Creature Wars``)."""

    def seats(self, options: Mapping[str, Any]) -> int:
        """How many players the game with these options seats."""

    def scenario(self, options: Mapping[str, Any]) -> bool:
        """True when the options fix the deal (a fixed deck, hands, stats): a scenario, not a ranked game."""

    def setup(self, options: Mapping[str, Any], seed: int) -> Any:
        """The starting state; raises :class:`engine.errors.BadOptions`."""

    def version(self, state: Any) -> int:
        """Increases by one with every applied decision."""

    def opened(self, state: Any, seat: Seat) -> int:
        """The version at which ``seat``'s pending decision point opened.

        A decision made against any version from this one on is current: a sealed
        choice by one seat does not make the other seat's choice stale.
        """

    def legal(self, state: Any, seat: Seat) -> Sequence[Decision]:
        """The decisions ``seat`` may take now (empty: nothing is awaited of it)."""

    def apply(self, state: Any, seat: Seat, decision: Decision) -> tuple[Any, Sequence[Event]]:
        """Apply a decision; raises :class:`engine.errors.EngineError` subclasses."""

    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` (or a spectator, ``None``) may see: the only door out of a state."""

    def outcome(self, state: Any) -> Outcome | None:
        """``None`` while the match goes on."""

    def abortable(self, state: Any) -> bool:
        """True while the match may still be aborted by agreement: nothing has been resolved yet."""

    def timer(self, state: Any) -> tuple[Seat, int] | None:
        """A seat whose decision is timed, and the limit in seconds: when it runs out the server
        applies ``{"kind": "timeout"}`` for that seat, and the game takes its default."""

    def blocked(self, state: Any, seat: Seat) -> list[str | None]:
        """While a play from ``seat``'s hand is awaited: per card of that hand, None if ``legal`` offers it, else
        why not, in words; empty otherwise. Only the seat's own hand is told of, so only that seat is sent it. The
        answer may be kept with the state and shared, as ``legal``'s: callers must not change it."""

    def dump(self, state: Any) -> dict[str, Any]:
        """The state as plain data (maps, lists, ints, strings) for storage."""

    def load(self, data: Mapping[str, Any]) -> Any:
        """The inverse of :meth:`dump`."""

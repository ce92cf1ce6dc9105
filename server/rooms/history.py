"""What happened in a room, for late arrivals: its recent events and, once over, the result.

The recent events live in memory. A room reloaded from Redis (after a restart, or a
finished room loaded on demand) rebuilds them once, on first need, by replaying its
stored decision log with the pure engine; if the log cannot be replayed to the room's
version, ``recent`` starts empty.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from engine.interface import Event, Seat, redact_all

__all__ = ["RECENT", "History"]

RECENT = 50
"""How many of a room's last events the view after create_room/join/resume/spectate carries in ``recent``."""
_KEPT = 2 * RECENT
"""Events kept: room to drop those a recipient may not be told of and still have ``RECENT`` left."""


class History:
    """A room's last events, as the engine made them (redacted per recipient on the way out)."""

    def __init__(self, complete: bool) -> None:
        self.events: deque[Event] = deque(maxlen=_KEPT)
        self.complete = complete
        """False until the events of a reloaded room have been rebuilt from its log."""

    def extend(self, events: Iterable[Event]) -> None:
        self.events.extend(events)

    def recent(self, seat: Seat | None) -> list[dict[str, Any]]:
        """The last ``RECENT`` events ``seat`` (``None``: a spectator) may be told of, oldest first."""
        return redact_all(list(self.events), seat)[-RECENT:]

    def done(self) -> bool:
        return self.complete

    def restore(self, events: Iterable[Event]) -> None:
        """The events of a reloaded room, rebuilt from its log (server/rooms/room.py): the history is complete."""
        self.events = deque(events, maxlen=_KEPT)
        self.complete = True

"""What happened in a room, for late arrivals: its recent events and, once over, the result.

The recent events live in memory. A room reloaded from Redis (after a restart, or a
finished room loaded on demand) rebuilds them once, on first need, by replaying its
stored decision log with the pure engine; if the log cannot be replayed to the room's
version, ``recent`` starts empty.
"""
from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.interface import Event, Seat, redact_all
from protocol import encode

if TYPE_CHECKING:
    from server.room import Room

__all__ = ["RECENT", "History", "over_frame"]

log = logging.getLogger(__name__)
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

    async def rebuild(self, room: Room) -> None:
        """Replay the room's stored log with the engine to recover its last events; once per room."""
        if self.done():
            return
        async with room.lock:
            if self.done():
                return
            self.complete = True
            target = room.version
            try:
                records = await room.store.log(room.id)
                state = room.game.setup(room.options, room.seed)
                events: deque[Event] = deque(maxlen=_KEPT)
                for record in records:
                    state, new = room.game.apply(state, record["seat"], record["d"])
                    events.extend(new)
                if room.game.version(state) != target:
                    raise ValueError(f"log replays to version {room.game.version(state)}, not {target}")
            except Exception as exc:  # any record the engine cannot replay: recent starts empty
                log.warning("room %s: recent events not rebuilt: %s", room.id, exc)
                return
            self.events = events


def over_frame(room: Room) -> bytes | None:
    """The ``match_over`` message of a finished room (``None`` while it goes on)."""
    outcome = room.game.outcome(room.state)
    if outcome is None:
        return None
    return encode({
        "t": "match_over", "room": room.id, "outcome": outcome.data(), "seed": room.seed, "commitment": room.commitment,
    })

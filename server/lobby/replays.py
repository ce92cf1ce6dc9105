"""Who may replay a finished match: the ``replays`` room setting and the check an ``export`` passes.

A room made with ``replays: "players"`` gives its record (the full-information replay: the
seed, every decision) only to those who held a seat in it: a connection whose ``hello`` key
is the seat holder's player id (kept in the record), or that sends a seat token of the room
while its live keys are kept (``LIVE_TTL``). Everyone else gets ``replay_private``. With
``everyone`` (the default) anybody may export it once the match is over.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from protocol import ErrorCode, ProtocolError
from server.lobby.lobby import Lobby

__all__ = ["EVERYONE", "PLAYERS", "SETTINGS", "allow", "setting"]

EVERYONE = "everyone"
PLAYERS = "players"
SETTINGS = (EVERYONE, PLAYERS)
"""``replays``: anyone may export the finished match, or only its players."""


def setting(value: Any) -> str:
    """A valid ``replays`` room setting (default ``everyone``), else ``bad_field``."""
    if value is None:
        return EVERYONE
    if value not in SETTINGS:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: field 'replays' must be one of {', '.join(SETTINGS)}")
    return str(value)


async def allow(lobby: Lobby, room_id: str, stored: Mapping[str, Any], player: str | None, token: str | None) -> None:
    """Refuse (``replay_private``) a finished match's record to anyone who held no seat in a players-only room."""
    if stored.get("replays", EVERYONE) != PLAYERS:
        return
    seats = int(stored["seats"])
    if player and player in (stored.get(f"player:{n}", "") for n in range(seats)):
        return
    if token:
        try:
            room = await lobby.find(room_id)
            room.seat_of(token)
        except ProtocolError:
            pass
        else:
            return
    raise ProtocolError(ErrorCode.REPLAY_PRIVATE, f"the replay of room {room_id} is for its players only: say hello "
                                                  "with the key you played it with, or send a seat 'token' of the room")

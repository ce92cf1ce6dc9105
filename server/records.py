"""Match records: everything needed to check a finished match with the pure engine (``cardroom verify``).

Read from the record written when the match ended (``cardroom:match:{id}``, kept 30 days);
a match still running has none, and is refused, since the record reveals the seed.
"""
from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError
from server.lobby import Lobby

__all__ = ["match_record"]


async def match_record(lobby: Lobby, room_id: str) -> dict[str, Any]:
    """A finished match's record, in the form ``cardroom verify`` checks."""
    stored = await lobby.store.match(room_id)
    if stored is None:
        room = await lobby.find(room_id)  # unknown_room / room_closed when there is none
        raise ProtocolError(ErrorCode.MATCH_RUNNING, f"the match in room {room.id} is still running; "
                                                     "its record (and seed) is given once it is over")
    seats = int(stored["seats"])
    return {
        "room": room_id,
        "game": stored["game"],
        "options": stored["options"],
        "seed": int(stored["seed"]),
        "commitment": stored["commitment"],
        "created": float(stored["created"]),
        "ended": float(stored["ended"]),
        "names": [stored.get(f"name:{n}", "") for n in range(seats)],
        "decisions": stored["log"],
        "outcome": stored["outcome"],
    }

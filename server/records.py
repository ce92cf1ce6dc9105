"""Match records: everything needed to check a finished match with the pure engine (``cardroom verify``)."""
from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError
from server.room import Room

__all__ = ["match_record"]


async def match_record(room: Room) -> dict[str, Any]:
    """A finished room's record; refused while the match runs, since it reveals the seed."""
    outcome = room.game.outcome(room.state)
    if outcome is None:
        raise ProtocolError(ErrorCode.MATCH_RUNNING, f"the match in room {room.id} is still running; "
                                                     "its record (and seed) is given once it is over")
    return {
        "room": room.id,
        "game": room.game.name,
        "options": room.options,
        "seed": room.seed,
        "commitment": room.commitment,
        "created": room.created,
        "names": list(room.names),
        "decisions": await room.store.log(room.id),
        "outcome": outcome.data(),
    }

"""Match records: everything needed to check a finished match with the pure engine (``cardroom verify``).

Read from the record written when the match ended (``cardroom:match:{id}``, kept 30 days);
a match still running has none, and is refused, since the record reveals the seed; a daily room's
record withholds its seed (``seed`` null, ``reveal_after``) until its day has ended.
"""
from __future__ import annotations

from typing import Any

from protocol import ErrorCode, ProtocolError
from server.lobby import replays
from server.lobby.lobby import Lobby
from server.rooms import seeding
from server.rooms.reveal import reveal_fields

__all__ = ["match_record"]


async def match_record(lobby: Lobby, room_id: str, player: str | None = None, token: str | None = None) -> dict[str, Any]:
    """A finished match's record, in the form ``cardroom verify`` checks; a players-only room's (server/lobby/replays.py)
    only for the ``player`` id or seat ``token`` of one who held a seat in it."""
    stored = await lobby.store.match(room_id)
    if stored is None:
        room = await lobby.find(room_id)  # unknown_room / room_closed when there is none
        raise ProtocolError(ErrorCode.MATCH_RUNNING, f"the match in room {room.id} is still running; "
                                                     "its record (and seed) is given once it is over")
    await replays.allow(lobby, room_id, stored, player, token)
    seats = int(stored["seats"])
    salted = "server_seed" in stored  # the salted scheme (server/rooms/seeding.py); rooms stored before have the seed alone
    nonces = [stored.get(f"nonce:{n}", "") for n in range(seats)] if stored.get("seeding") == seeding.PLAYERS else []
    return {
        "room": room_id,
        "game": stored["game"],
        "options": stored["options"],
        **reveal_fields(int(stored["seed"]), stored.get("daily", ""), stored["commitment"],
                        int(stored["server_seed"]) if salted else None, stored.get("salt", ""), nonces,
                        stored.get("seeding", "")),
        "created": float(stored["created"]),
        "ended": float(stored["ended"]),
        "names": [stored.get(f"name:{n}", "") for n in range(seats)],
        "decisions": stored["log"],
        "outcome": stored["outcome"],
        "replays": stored.get("replays", replays.EVERYONE),
    }

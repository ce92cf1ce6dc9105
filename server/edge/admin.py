"""Operator requests (``admin``): list rooms, show a room's whole state, close a room, kick a seat.

They travel over the public protocol only with the admin secret (``CARDROOM_ADMIN_SECRET`` in the
server's environment), compared in constant time; without a configured secret admin is disabled.
The secret is never logged.
"""
from __future__ import annotations

import hmac
import logging
import os
from typing import Any

from protocol import ErrorCode, ProtocolError
from server.lobby import expiry, listing
from server.lobby.lobby import Lobby
from server.ops import metrics
from server.rooms.room import Room

__all__ = ["OPS", "SECRET_VARIABLE", "handle"]

log = logging.getLogger(__name__)
SECRET_VARIABLE = "CARDROOM_ADMIN_SECRET"
OPS = ("rooms", "show", "close", "kick")


def _authorised(secret: str) -> None:
    expected = os.environ.get(SECRET_VARIABLE, "")
    if not expected:
        raise ProtocolError(ErrorCode.FORBIDDEN, f"admin is disabled on this server (no {SECRET_VARIABLE} is set)")
    if not hmac.compare_digest(secret.encode(), expected.encode()):
        log.warning("admin request refused: wrong secret")
        raise ProtocolError(ErrorCode.FORBIDDEN, "admin: wrong secret")


async def handle(lobby: Lobby, m: dict[str, Any]) -> dict[str, Any]:
    """Serve one authorised operator request; its result."""
    _authorised(m["secret"])
    op = m["op"]
    if op not in OPS:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"admin: unknown op {op!r}; ops: {', '.join(OPS)}")
    if op == "rooms":  # this node's, then those other nodes publish (server/cluster/directory.py)
        others = lobby.directory.others.entries.items() if lobby.directory is not None else ()
        return {"rooms": [{**room.summary(), "node": lobby.leases.node} for room in lobby.rooms.values()]
                + [{**entry, "node": node} for room_id, (node, entry) in others if room_id not in lobby.rooms]}
    if "room" not in m:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"admin {op}: field 'room' is required")
    room = await lobby.find(m["room"])
    log.info("admin %s", op, extra={"room": room.id, "seat": m.get("seat")})
    if op == "show":
        return show(room)
    if op == "close":
        await close(lobby, room)
        return {"room": room.id, "closed": True}
    return {"room": room.id, "kicked": kick(room, m)}


def show(room: Room) -> dict[str, Any]:
    """Everything about a room, hidden cards included: for the operator only."""
    return {
        "summary": room.summary(),
        "state": room.game.dump(room.state),
        "watchers": [{"connection": conn.id, "seat": seat} for conn, seat in room.watchers.items()],
        "clock": room.clock.data(),
    }


async def close(lobby: Lobby, room: Room) -> None:
    """A waiting room is deleted like a cancelled one; a running match ends with no result (its record kept);
    either way everyone watching is told ``room_closed`` (reason ``closed``) and the room leaves the lobby."""
    async with room.lock:
        if listing.waiting(room):
            await expiry.close(lobby, room, "closed")
            return
        if not room.over:
            await room.halt()
        expiry.tell_closed(lobby, room, "closed")


def kick(room: Room, m: dict[str, Any]) -> int:
    """Drop every connection holding the seat (it stays theirs: they may resume); how many were dropped."""
    seat = m.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(room.seats):
        raise ProtocolError(ErrorCode.NO_SUCH_SEAT, f"admin kick: room {room.id} has seats 0 to {len(room.seats) - 1}")
    holders = [conn for conn, held in room.watchers.items() if held == seat]
    for conn in holders:
        conn.drop("kicked by the operator")
    metrics.KICKS.inc(len(holders))
    return len(holders)

"""Retried requests: a ``create_room`` or ``join`` sent again with the same ``request`` key, after its reply
was lost, gets the room and seat the first one made instead of a second room or seat.

A request key is scoped to the player (by key) who sent it, or, for a guest, to its connection. The
store remembers what a keyed request made for ``REQUEST_TTL`` seconds, written in the same atomic step
as the room or the seat. A seat's token is stored hashed only, so a retry that finds its seat is given a
new token for it (the old one, which never reached the client, stops working).
"""
from __future__ import annotations

import secrets

from protocol import ErrorCode, ProtocolError
from server.rooms.peer import Peer
from server.rooms.room import Room
from server.rooms.tokens import hash_token

__all__ = ["held_seat", "key", "reissue"]


def key(kind: str, scope: str, request: str | None) -> str:
    """The store key of a request (``""`` when the request has no key)."""
    return f"{kind}:{scope}:{request}" if request else ""


def held_seat(room: Room, conn: Peer, player: str, seat: int | None = None) -> int | None:
    """The seat (``seat``, or any) that this player, or for a guest this connection, holds in ``room``."""
    seats = range(len(room.seats)) if seat is None else [seat]
    for n in seats:
        if not 0 <= n < len(room.seats) or room.seats[n] is None:
            continue
        if player and room.owners[n] == player:
            return n
        if not player and room.watchers.get(conn, -1) == n:
            return n
    return None


async def reissue(room: Room, seat: int) -> str:
    """A new token for ``seat``, stored (hashed) in place of the old one before it is given."""
    async with room.lock:
        old = room.seats[seat]
        token = secrets.token_urlsafe(24)
        digest = hash_token(token)
        if old is None or not await room.store.reissue(room.id, seat, old, digest):
            room.suspect = True
            raise ProtocolError(ErrorCode.UNAVAILABLE, f"seat {seat} of room {room.id} changed meanwhile; try again")
        room.seats[seat] = digest
    return token

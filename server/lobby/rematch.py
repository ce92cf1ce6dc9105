"""Rematch: once a match has ended and every seat asked for it, a new room with the seats swapped.

The offers live in memory: a server restart forgets them (each seat sends ``rematch`` again).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import ErrorCode, ProtocolError, encode
from server.rooms.peer import Peer

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby
    from server.rooms.room import Room

__all__ = ["rematch", "swapped"]


def swapped(seat: int, seats: int) -> int:
    """The seat a player takes in the rematch: the order reversed (seat 0 <-> seat 1)."""
    return seats - 1 - seat


async def rematch(lobby: Lobby, room: Room, conn: Peer, token: str, re: int, nonce: str = "") -> None:
    """Record a seat's request (and its ``nonce`` for the new deal); the last one creates the new room and
    hands out its seats, each with the nonce its player sent."""
    seat = room.seat_of(token)
    if not room.over:
        raise ProtocolError(ErrorCode.MATCH_RUNNING, f"the match in room {room.id} is still running; rematch once it has ended")
    async with room.lock:
        if room.rematched is not None:
            new, tokens = room.rematched
            _deliver(room, new, [(conn, seat)], tokens, conn, re)
            return
        room.rematch_offers.add(seat)
        room.rematch_nonces[seat] = nonce
        if len(room.rematch_offers) < len(room.seats):
            offered = {"t": "rematch_offered", "room": room.id, "seat": seat}
            conn.send(encode({**offered, "re": re}))
            frame = encode({**offered, "re": None})
            for watcher in room.watchers:
                if watcher is not conn:
                    watcher.send(frame)
            return
        new = await lobby.create(room.game.name, room.options, None, spectator_chat=room.spectator_chat, replays=room.replays,
                                 clock=room.clock.limits.data(), hosted=True)
        count = len(room.seats)
        tokens = {}
        for old in range(count):
            tokens[old] = await new.claim(swapped(old, count), room.names[old], room.owners[old],
                                          room.rematch_nonces.get(old, ""))
        room.rematched = new, tokens
    holders = [(c, s) for c, s in room.watchers.items() if s is not None]
    if conn not in room.watchers:
        holders.append((conn, seat))
    _deliver(room, new, holders, tokens, conn, re)


def _deliver(room: Room, new: Room, holders: list[tuple[Peer, int]], tokens: dict[int, tuple[int, str]],
             conn: Peer, re: int) -> None:
    """Each holder of an old seat gets its new seat's token, then watches the new room and gets its view."""
    for holder, old in holders:
        new_seat, new_token = tokens[old]
        holder.send(encode({
            "t": "rematch_ready", "room": room.id, "new_room": new.id, "seat": new_seat, "token": new_token,
            "re": re if holder is conn else None,
        }))
        new.watch(holder, new_seat)
        new.send_view(holder, new_seat, [], None, new.history.recent(new_seat), whole=True)

"""Rematch: once a match has ended and every seat asked for it, a new room with the seats swapped.

The offers are stored with the room (``rematch:{seat}``, with the seat's nonce), and so is the new room once
made (``rematched``): any node serving the finished room next (its node died, or another node loaded it)
completes the rematch, and two nodes completing it at once agree on one new room.

A seat's place in the new room is given by the node that serves the new room: a node asked for it that does not
(the new room is leased by another) raises :class:`Elsewhere`, and the request is relayed to that node, which
checks the seat's token against the finished room as it does any rematch.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from protocol import ErrorCode, ProtocolError, encode
from server.errors import ServerError
from server.lobby import retries
from server.rooms.peer import Peer

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby
    from server.rooms.room import Room

__all__ = ["Elsewhere", "rematch", "swapped"]


class Elsewhere(ServerError):
    """The rematch's new room is served by another node: only that node may seat a player in it."""

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self.room = room


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
        if room.rematched is not None and room.rematched[0].moved:  # its tokens may have been reissued elsewhere
            room.rematched = None
        if room.rematched is not None:
            new, tokens = room.rematched
            _deliver(lobby, room, new, [(conn, seat)], tokens, conn, re)
            return
        made = room.rematch_room
        if not made:
            room.rematch_nonces, made = await room.offer("rematch", seat, nonce)
        if not made and len(room.rematch_nonces) < len(room.seats):
            offered = {"t": "rematch_offered", "room": room.id, "seat": seat}
            conn.send(encode({**offered, "re": re}))
            frame = encode({**offered, "re": None})
            for watcher in room.watchers:
                if watcher is not conn:
                    watcher.send(frame)
            return
        if made:  # completed by another node, or by this node's run before: this seat takes its place there
            room.rematch_room = made
            new = await _served_here(lobby, made)
            new_seat = swapped(seat, len(room.seats))
            tokens = {seat: (new_seat, await _take(new, new_seat, room, seat))}
            _deliver(lobby, room, new, [(conn, seat)], tokens, conn, re)
            return
        new = await lobby.create(room.game.name, room.options, None, spectator_chat=room.spectator_chat, replays=room.replays,
                                 clock=room.clock.limits.data(), hosted=True)
        made = await room.store.rematched(room.id, new.id)
        room.rematch_room = made
        if made != new.id:  # another node made it first: ours, never seated, is abandoned like any such room
            new = await _served_here(lobby, made)
            new_seat = swapped(seat, len(room.seats))
            tokens = {seat: (new_seat, await _take(new, new_seat, room, seat))}
            _deliver(lobby, room, new, [(conn, seat)], tokens, conn, re)
            return
        count = len(room.seats)
        tokens = {}
        for old in range(count):
            tokens[old] = await new.claim(swapped(old, count), room.names[old], room.owners[old],
                                          room.rematch_nonces.get(old, ""))
        room.rematched = new, tokens
    holders = [(c, s) for c, s in room.watchers.items() if s is not None]
    if conn not in room.watchers:
        holders.append((conn, seat))
    _deliver(lobby, room, new, holders, tokens, conn, re)


async def _served_here(lobby: Lobby, room_id: str) -> Room:
    """The rematch's new room, served here (or loaded here: nobody holds its lease); :class:`Elsewhere` when another
    node holds its lease."""
    held = lobby.rooms.get(room_id)
    if held is None or held.moved:
        holder = (await lobby.leases.holders([room_id]))[0]
        if holder is not None and holder != lobby.leases.node:
            raise Elsewhere(room_id)
    return await lobby.find(room_id)


async def _take(new: Room, new_seat: int, room: Room, old: int) -> str:
    """A token for ``new_seat`` of a rematch made elsewhere: the seat claimed for the holder of seat ``old`` of the
    finished ``room`` if its maker stopped before it was, else given a new token (the one made went to the maker's
    connections)."""
    if new.seats[new_seat] is None:
        _, token = await new.claim(new_seat, room.names[old], room.owners[old], room.rematch_nonces.get(old, ""))
        return token
    return await retries.reissue(new, new_seat)


def _deliver(lobby: Lobby, room: Room, new: Room, holders: list[tuple[Peer, int]], tokens: dict[int, tuple[int, str]],
             conn: Peer, re: int) -> None:
    """Each holder of an old seat gets its new seat's token (and the node serving the new room), then watches the
    new room and gets its view."""
    for holder, old in holders:
        new_seat, new_token = tokens[old]
        holder.send(encode({
            "t": "rematch_ready", "room": room.id, "new_room": new.id, "seat": new_seat, "token": new_token,
            "node": lobby.leases.node, "re": re if holder is conn else None,
        }))
        new.watch(holder, new_seat)
        new.send_view(holder, new_seat, [], None, new.history.recent(new_seat), whole=True)

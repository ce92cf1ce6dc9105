"""Rooms that come and go: cancelling a waiting room, expiring one nobody joins, retiring finished ones.

A cancelled or expired room's hash is replaced by a tombstone ``{closed: reason}`` kept
``LIVE_TTL``, so later requests for it get ``room_closed`` rather than ``unknown_room``.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from protocol import ErrorCode, ProtocolError, encode
from server.lobby.listing import listed, waiting
from server.rooms.peer import Peer
from server.store import keys
from server.store.store import LIVE_TTL

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby
    from server.rooms.room import Room

__all__ = ["ABANDONED_AFTER", "SWEEP_EVERY", "WAITING_TTL", "Sweeper", "abandoned", "cancel", "close", "tell_closed",
           "unplayed"]

log = logging.getLogger(__name__)

WAITING_TTL = 600.0
"""Seconds after its creation that a room still waiting for players expires."""
ABANDONED_AFTER = 60.0
"""Seconds every seated player of a room still waiting for players may stay away before the room is closed."""
SWEEP_EVERY = 15.0
"""Seconds between two sweeps of the rooms."""

# Replace a room that is not over by its tombstone and drop its log and chat, in one step (then it leaves the
# open set: a room left there by a stop in between is dropped from it by the next adoption pass).
_CLOSE = """
if redis.call('HGET', KEYS[1], 'over') == '1' then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('HSET', KEYS[1], 'closed', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""


async def close(lobby: Lobby, room: Room, reason: str, by: Peer | None = None, re: int | None = None) -> None:
    """Delete a waiting room (the caller holds its lock) and tell everyone watching it why."""
    script = lobby.store.redis.register_script(_CLOSE)
    if not await script(keys=[keys.room(room.id), keys.log(room.id), keys.chat(room.id)], args=[reason, str(LIVE_TTL)]):
        raise ProtocolError(ErrorCode.CANNOT_CANCEL, f"room {room.id} has a finished match; it cannot be closed")
    await lobby.store.closing(room.id)
    tell_closed(lobby, room, reason, by, re)


def tell_closed(lobby: Lobby, room: Room, reason: str, by: Peer | None = None, re: int | None = None) -> None:
    """Take a room out of the lobby and tell everyone watching it why (``room_closed``)."""
    lobby.rooms.pop(room.id, None)
    room.closed = reason
    room.disarm()
    message = {"t": "room_closed", "room": room.id, "reason": reason}
    frame = encode({**message, "re": None})
    if by is not None:
        by.send(encode({**message, "re": re}))
    for conn in list(room.watchers):
        if conn is not by:
            conn.send(frame)
        room.unwatch(conn)
    log.info("room %s closed: %s", room.id, reason)


async def unplayed(lobby: Lobby, room_id: str) -> None:
    """A room whose other seat the computer could not take: cancelled (its watchers told) while it waits for players;
    left alone once someone else sat in it, or once it is gone."""
    room = lobby.rooms.get(room_id)
    if room is None:
        return
    async with room.lock:
        if waiting(room) and not room.closed:
            await close(lobby, room, "cancelled")


async def cancel(lobby: Lobby, room: Room, conn: Peer, token: str, re: int) -> None:
    """``cancel``: the holder of a seat in a room still waiting for players deletes it."""
    async with room.lock:
        try:
            room.seat_of(token)
        except ProtocolError:
            message = f"that token holds no seat in room {room.id}; only a seated player may cancel it"
            raise ProtocolError(ErrorCode.CANNOT_CANCEL, message) from None
        if not waiting(room):
            status = "over" if room.over else "playing"
            message = f"room {room.id} is {status}, not waiting for players; only a waiting room can be cancelled"
            raise ProtocolError(ErrorCode.CANNOT_CANCEL, message)
        await close(lobby, room, "cancelled", conn, re)


def abandoned(room: Room, now: float) -> bool:
    """A room waiting for players whose seated players have all been away (no connection) ``ABANDONED_AFTER``
    seconds: whoever joins would only wait for a forfeit. So is a room made for players seated next
    (``hosted``) where none sits that long after its making: its node stopped between the two steps."""
    taken = [seat for seat, held in enumerate(room.seats) if held]
    if not taken:
        return room.hosted and now - room.created >= ABANDONED_AFTER
    return all(now - room.away.get(seat, now) >= ABANDONED_AFTER for seat in taken)


class Sweeper:
    """The background sweep: expires waiting rooms, archives matches ended outside a decision, writes what finished
    matches left to write elsewhere, retires finished rooms."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def run(self, stop: asyncio.Event) -> None:
        """Sweep every ``SWEEP_EVERY`` seconds until ``stop`` is set."""
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), SWEEP_EVERY)
            if stop.is_set():
                return
            try:
                await self.sweep()
            except Exception:
                log.exception("room sweep failed; trying again at the next one")

    async def sweep(self) -> None:
        now = time.time()
        for room in list(self.lobby.rooms.values()):
            if room.over:
                if room.ended is None or room.out:  # archived, scored and settled now, or what remains of it
                    await room.end_at_deal() if room.ended is None else await room.flush()
                elif not listed(room, now) and not room.watchers:
                    self.lobby.rooms.pop(room.id, None)
            elif waiting(room) and (now - room.created >= WAITING_TTL or abandoned(room, now)):
                reason = "expired" if now - room.created >= WAITING_TTL else "abandoned"
                async with room.lock:
                    if waiting(room) and room.id in self.lobby.rooms:
                        await close(self.lobby, room, reason)

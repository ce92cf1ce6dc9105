"""Table talk: short plain-text lines per room, rate limited per connection, the last few kept in Redis.

Layout: ``cardroom:room:{id}:chat`` (in the room's slot, server/store/keys.py), a list of msgpack lines capped at
``KEEP`` (it takes the room's time to live once the match has ended).
"""
from __future__ import annotations

import time
import unicodedata
from collections import deque
from typing import TYPE_CHECKING, Any

import msgpack

from protocol import ErrorCode, ProtocolError, encode
from server.store import keys

if TYPE_CHECKING:
    from server.rooms.peer import Peer
    from server.rooms.room import Room
    from server.store.store import Store

__all__ = ["KEEP", "LENGTH", "LINES", "SETTINGS", "WINDOW", "Limiter", "clean", "none_yet", "past", "post", "setting"]

LENGTH = 200
"""Longest line, in characters (the codec refuses longer ones with ``bad_field``)."""
LINES, WINDOW = 5, 10.0
"""At most LINES lines per WINDOW seconds per connection; more get ``rate_limited``."""
KEEP = 20
"""Lines of a room kept in Redis and sent to whoever joins, resumes or spectates it."""
SETTINGS = ("all", "spectators")
"""``spectator_chat``: everyone reads spectators' lines, or only spectators do."""

# Append a line, keep the last KEEP, and follow the room's time to live once it has one.
_POST = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
local ttl = redis.call('TTL', KEYS[2])
if ttl > 0 then redis.call('EXPIRE', KEYS[1], ttl) end
return 1
"""
_SPACES = {"\t", "\n", "\r", "\u2028", "\u2029"}


def setting(value: Any) -> str:
    """A valid ``spectator_chat`` room setting (default ``all``), else ``bad_field``."""
    if value is None:
        return "all"
    if value not in SETTINGS:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"create_room: field 'spectator_chat' must be one of {', '.join(SETTINGS)}")
    return str(value)


def clean(text: str) -> str:
    """Plain text: line breaks and tabs become spaces, other control and format characters go."""
    kept = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in _SPACES:
            kept.append(" ")
        elif unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(ch)
    return "".join(kept).strip()


class Limiter:
    """A sliding window of the times a connection's last lines were accepted."""

    def __init__(self) -> None:
        self.sent: deque[float] = deque(maxlen=LINES)

    def allow(self) -> bool:
        now = time.monotonic()
        if len(self.sent) == LINES and now - self.sent[0] < WINDOW:
            return False
        self.sent.append(now)
        return True


_key = keys.chat


def _readers(room: Room, seat: int | None) -> list[Peer]:
    """Who may read a line from ``seat``: everyone, unless a spectator speaks in a ``spectators`` room."""
    private = seat is None and room.spectator_chat == "spectators"
    return [conn for conn, watching in room.watchers.items() if not private or watching is None]


async def post(store: Store, room: Room, conn: Peer, text: str, limiter: Limiter, re: int) -> None:
    """Store a line (after the checks) and send it to every connection allowed to read it."""
    if conn not in room.watchers:
        raise ProtocolError(ErrorCode.UNKNOWN_ROOM, f"chat: you are not in room {room.id}; join, resume or spectate it first")
    line = clean(text)
    if not line:
        raise ProtocolError(ErrorCode.BAD_FIELD, "chat: field 'text' has nothing to show once control characters are removed")
    if len(line) > LENGTH:
        raise ProtocolError(ErrorCode.BAD_FIELD, f"chat: field 'text' is longer than {LENGTH}")
    if not limiter.allow():
        raise ProtocolError(ErrorCode.RATE_LIMITED, f"chat: at most {LINES} lines per {WINDOW:.0f} seconds; line dropped")
    seat = room.watchers[conn]
    message = {"t": "chat", "room": room.id, "name": conn.name, "seat": seat, "text": line, "ts": time.time()}
    script = store.redis.register_script(_POST)
    async with room.lock:  # lines reach everyone in the order they were stored
        await script(keys=[_key(room.id), keys.room(room.id)], args=[msgpack.packb(message), str(KEEP)])
        if room.chat is not None:
            room.chat.append(message)
        frame = encode({**message, "re": None})
        for reader in _readers(room, seat):
            reader.send(encode({**message, "re": re}) if reader is conn else frame)


def none_yet(room: Room) -> None:
    """``room`` was just made (its chat key emptied as it was, server/store/store.py): it has no lines, kept as
    read, so that nobody entering it reads them from Redis."""
    room.chat = deque(maxlen=KEEP)


async def past(store: Store, room: Room, seat: int | None) -> list[bytes]:
    """The room's last lines that ``seat`` (``None``: a spectator) may read, oldest first, marked ``past``.
    Read from Redis once per room in memory, then kept with it (lines are posted through the room's node)."""
    if room.chat is None:
        async with room.lock:  # no line is posted between the read and keeping it
            if room.chat is None:
                raw = await store.redis.lrange(_key(room.id), 0, -1)
                room.chat = deque((msgpack.unpackb(item, raw=False) for item in raw), maxlen=KEEP)
    frames = []
    for message in room.chat:
        if message["seat"] is None and room.spectator_chat == "spectators" and seat is not None:
            continue
        frames.append(encode({**message, "re": None, "past": True}))
    return frames

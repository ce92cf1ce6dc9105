"""Reading websocket frames beside websockets' own parser, as the server (server/edge/connection.py) and the client
library (client/connection.py) do for the plain binary frames that carry every message: where a frame's payload
starts and how long it is, and whether websockets' parser stands between two frames, so that a frame it should read
(a ping, a close, anything unusual) can be handed to it whole."""
from __future__ import annotations

from typing import Any

__all__ = ["at_frame_start", "header"]


def header(buf: bytearray, at: int, size: int) -> tuple[int, int] | None:
    """The frame whose first byte is ``buf[at]`` (``size`` bytes held, two of them at least): where the rest of it
    starts after its length (its mask, if masked, else its payload) and its payload's length (RFC 6455 5.2: in 7,
    7+16 or 7+64 bits); None while its length is not all held."""
    length = buf[at + 1] & 0x7F
    start = at + 2
    if length == 126:
        if size - start < 2:
            return None
        return start + 2, buf[start] << 8 | buf[start + 1]
    if length == 127:
        if size - start < 8:
            return None
        return start + 8, int.from_bytes(buf[start:start + 8], "big")
    return start, length


def at_frame_start(protocol: Any) -> bool:
    """Whether websockets' parser waits for a frame's first byte: nothing held, its generator waiting in the reader's
    ``at_eof`` (between frames) rather than in ``Frame.parse`` (a frame's first bytes read, its length or mask not).
    False as well for a websockets whose protocol lacks what is read here: it then parses every frame itself."""
    if not all(hasattr(protocol, name) for name in ("parser", "reader", "current_size", "max_message_size")):
        return False
    waiting = protocol.parser
    while getattr(waiting, "gi_yieldfrom", None) is not None:  # the generators it waits in, innermost last
        waiting = waiting.gi_yieldfrom
    return not protocol.reader.buffer and getattr(waiting, "__name__", "") == "at_eof"

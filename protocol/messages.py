"""Every message type and its fields, as data: the codec validates against this table."""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CLIENT_MESSAGES", "MAX_FRAME", "PROTOCOL_VERSION", "SERVER_MESSAGES", "Field"]

PROTOCOL_VERSION = 1
MAX_FRAME = 64 * 1024
"""Largest frame a client may send; larger ones are answered with ``frame_too_large``."""


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message: its wire type, whether it must be present, and a length bound."""

    name: str
    kind: type
    required: bool = True
    max_len: int = 0


_ROOM = Field("room", str, max_len=64)
_TOKEN = Field("token", str, max_len=128)
_NONCE = Field("nonce", str, required=False, max_len=64)
"""A seat's contribution to the deal (docs/protocol.md, "Seeds: nobody alone picks the deal")."""
_EVENT = Field("event", str, max_len=32)

CLIENT_MESSAGES: dict[str, tuple[Field, ...]] = {
    "hello": (Field("v", int), Field("name", str, required=False, max_len=40), Field("key", str, required=False, max_len=128),
              Field("deltas", bool, required=False)),
    "list_rooms": (
        Field("game", str, required=False, max_len=40),
        Field("status", str, required=False, max_len=16),
        Field("cursor", str, required=False, max_len=64),
        Field("limit", int, required=False),
    ),
    "create_room": (
        Field("game", str, max_len=40),
        Field("options", dict, required=False),
        Field("seed", int, required=False),
        Field("ranked", bool, required=False),
        Field("sit", bool, required=False),
        Field("daily", bool, required=False),
        Field("spectator_chat", str, required=False, max_len=16),
        Field("clock", dict, required=False),
        Field("request", str, required=False, max_len=64),
        _NONCE,
        Field("replays", str, required=False, max_len=16),
        Field("computer", str, required=False, max_len=16),
    ),
    "scores": (Field("game", str, max_len=40), Field("daily", bool, required=False), Field("limit", int, required=False)),
    "join": (_ROOM, Field("seat", int, required=False), Field("request", str, required=False, max_len=64), _NONCE),
    "resume": (_ROOM, _TOKEN),
    "spectate": (_ROOM,),
    "leave": (_ROOM,),
    "view": (_ROOM,),
    "decide": (_ROOM, _TOKEN, Field("version", int), Field("decision", dict)),
    "export": (_ROOM, Field("token", str, required=False, max_len=128)),
    "replay": (_ROOM, Field("token", str, required=False, max_len=128), Field("start", int, required=False),
               Field("limit", int, required=False)),
    "ratings": (Field("game", str, max_len=40), Field("limit", int, required=False)),
    "history": (Field("player", str, required=False, max_len=32), Field("limit", int, required=False)),
    "admin": (Field("op", str, max_len=16), Field("secret", str, max_len=256), Field("room", str, required=False, max_len=64),
              Field("seat", int, required=False)),
    "cancel": (_ROOM, _TOKEN),
    "chat": (_ROOM, Field("text", str, max_len=200)),
    "rematch": (_ROOM, _TOKEN, _NONCE),
    "my_rooms": (),
    "resign": (_ROOM, _TOKEN),
    "abort": (_ROOM, _TOKEN),
    "queue": (Field("game", str, max_len=40), Field("rated", bool, required=False), Field("clock", dict, required=False),
              Field("computer_after", int, required=False), Field("computer", str, required=False, max_len=16), _NONCE),
    "unqueue": (Field("game", str, max_len=40),),
    "create_event": (Field("game", str, max_len=40), Field("title", str, required=False, max_len=60),
                     Field("options", dict, required=False), Field("clock", dict, required=False),
                     Field("rounds", int, required=False), Field("start", int, required=False),
                     Field("lasts", int, required=False), Field("invite", list, required=False),
                     Field("rated", bool, required=False)),
    "list_events": (Field("game", str, required=False, max_len=40), Field("status", str, required=False, max_len=16),
                    Field("limit", int, required=False)),
    "follow_event": (_EVENT,),
    "register": (_EVENT, _NONCE),
    "unregister": (_EVENT,),
    "drop": (_EVENT,),
    "start_event": (_EVENT,),
    "play_event": (_EVENT,),
}
"""Client → server. Every client message also carries ``t`` (its type) and ``id`` (an int the reply echoes as ``re``)."""

SERVER_MESSAGES: frozenset[str] = frozenset(
    {"welcome", "rooms", "scores", "room_created", "seat_granted", "spectating", "left", "view", "match_over", "error",
     "match", "replay", "admin", "ratings", "history"}
    | {"room_closed", "chat", "rematch_offered", "rematch_ready"}
    | {"presence", "watchers", "abort_offered", "seat_moved"}
    | {"queued", "unqueued", "paired"}
    | {"event", "events"}
)
"""Server → client message types."""

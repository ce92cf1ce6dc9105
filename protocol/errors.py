"""The protocol's one exception root and every error code a client can receive."""
from __future__ import annotations

import enum

__all__ = ["ErrorCode", "ProtocolError"]


class ErrorCode(enum.StrEnum):
    """Stable error codes carried by ``error`` messages (docs/protocol.md lists when each is sent)."""

    BAD_FRAME = "bad_frame"
    FRAME_TOO_LARGE = "frame_too_large"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FIELD = "bad_field"
    PROTOCOL_VERSION = "protocol_version"
    HELLO_FIRST = "hello_first"
    RATE_LIMITED = "rate_limited"
    UNKNOWN_GAME = "unknown_game"
    BAD_OPTIONS = "bad_options"
    UNKNOWN_ROOM = "unknown_room"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    ROOM_FULL = "room_full"
    BAD_TOKEN = "bad_token"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_DECISION = "illegal_decision"
    STALE_VERSION = "stale_version"
    MATCH_OVER = "match_over"
    MATCH_RUNNING = "match_running"
    NAME_TAKEN = "name_taken"
    BAD_NAME = "bad_name"
    TOO_LATE = "too_late"
    UNAVAILABLE = "unavailable"
    OUTCOME_UNKNOWN = "outcome_unknown"
    SERVER_FULL = "server_full"
    TOO_MANY_ROOMS = "too_many_rooms"
    INTERNAL = "internal"
    FORBIDDEN = "forbidden"
    KEY_REQUIRED = "key_required"
    CANNOT_CANCEL = "cannot_cancel"
    ROOM_CLOSED = "room_closed"
    REPLAY_PRIVATE = "replay_private"
    DAY_NOT_OVER = "day_not_over"
    DAILY_PLAYED = "daily_played"
    UNKNOWN_EVENT = "unknown_event"
    EVENT_CLOSED = "event_closed"
    NOT_INVITED = "not_invited"
    EVENT_PLAYED = "event_played"
    RECORD_UNREPLAYABLE = "record_unreplayable"


class ProtocolError(Exception):
    """A request that cannot be served; becomes an ``error`` message with ``code``."""

    def __init__(self, code: ErrorCode, message: str, re: int | None = None) -> None:
        super().__init__(f"{code.value}: {message}")
        self.code = code
        self.message = message
        self.re = re

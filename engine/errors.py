"""The engine's one exception root and its stable error codes."""
from __future__ import annotations

import enum

__all__ = ["BadOptions", "EngineError", "ErrorCode", "IllegalDecision", "MatchOver", "NotYourTurn", "TooLate"]


class ErrorCode(enum.StrEnum):
    """Stable codes; the server forwards them to clients unchanged."""

    BAD_OPTIONS = "bad_options"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_DECISION = "illegal_decision"
    MATCH_OVER = "match_over"
    TOO_LATE = "too_late"


class EngineError(Exception):
    """Root of every error the rules raise; ``code`` is stable, the message is for people."""

    code: ErrorCode = ErrorCode.ILLEGAL_DECISION

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadOptions(EngineError):
    """Room options a game cannot set up with."""

    code = ErrorCode.BAD_OPTIONS


class NotYourTurn(EngineError):
    """The seat has no decision to take now."""

    code = ErrorCode.NOT_YOUR_TURN


class IllegalDecision(EngineError):
    """The decision is malformed or not among the legal ones."""

    code = ErrorCode.ILLEGAL_DECISION


class MatchOver(EngineError):
    """The match has ended; nothing more is accepted."""

    code = ErrorCode.MATCH_OVER


class TooLate(EngineError):
    """The match has gone past the point where this is allowed (e.g. an abort after the first duel)."""

    code = ErrorCode.TOO_LATE

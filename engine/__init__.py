"""Game rules: pure, deterministic, no I/O.

Every game is a :class:`engine.interface.Game`; :mod:`engine.registry` names them.
"""
from __future__ import annotations

from engine.errors import BadOptions, EngineError, ErrorCode, IllegalDecision, NotYourTurn
from engine.interface import Event, Game, Outcome

__all__ = [
    "BadOptions",
    "EngineError",
    "ErrorCode",
    "Event",
    "Game",
    "IllegalDecision",
    "NotYourTurn",
    "Outcome",
]

"""Game rules: pure, deterministic, no I/O.

Every game is a :class:`engine.interface.Game`; :mod:`engine.registry` names them. The core may run compiled
(mypyc) when a build matching the sources is there: see :mod:`engine._compiled`.
"""
from __future__ import annotations

from engine import _compiled  # noqa: F401  (first: the compiled build's importer, when it may be used)
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

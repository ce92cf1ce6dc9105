"""Queen's Challenge: a one-player game against a challenge deck, with a deck of magic."""
from __future__ import annotations

from engine.queens_challenge.game import GAME

__all__ = ["GAME"]

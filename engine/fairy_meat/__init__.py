"""Fairy Meat: a duel of two fairies with the alternative combat system (sealed Trumps, Numbered cards, cheats)."""
from __future__ import annotations

from engine.fairy_meat.game import GAME

__all__ = ["GAME"]

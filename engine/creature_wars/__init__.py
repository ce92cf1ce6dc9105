"""Creature Wars: two empires of 30 HP, sealed simultaneous duels, tribes, power types, rallies."""
from __future__ import annotations

from engine.creature_wars.game import GAME

__all__ = ["GAME"]

"""Fairy Tableau: a one-player game of seven face-up cards; Spades give mana, Diamonds and fairies defeat Clubs."""
from __future__ import annotations

from engine.fairy_tableau.game import GAME

__all__ = ["GAME"]

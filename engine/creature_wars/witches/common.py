"""Helpers shared by the witch modules: finding cards by strength, choosing at random, and the like."""
from __future__ import annotations

from engine.creature_wars.cards import Card
from engine.creature_wars.effects import Fight, Source

__all__ = ["fighting", "strength"]


def fighting(src: Source, fight: Fight) -> bool:
    """True when the card ``src`` stands for is one of the cards in this fight (on its owner's side)."""
    card = fight.cards[src.owner]
    return src.card is not None and card.uid == src.card.uid


def strength(card: Card) -> tuple[int, int]:
    """Strongest/weakest order of the rulings: base str, then level."""
    return card.base, card.level

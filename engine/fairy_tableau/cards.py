"""Fairy Tableau's reading of a playing card: its role (by suit) and its value."""
from __future__ import annotations

import enum

from engine.playing_cards import PlayingCard, Suit

__all__ = ["FAIRY_ORDER", "FAIRY_VALUE", "Role", "cost", "label", "role", "value"]

FAIRY_ORDER = ("KH", "QH", "JH")
"""The fairy Hearts, in the order option ``fairies`` takes them: 1 is K♥, 2 adds Q♥, 3 adds J♥."""

FAIRY_VALUE = 10
"""A fairy's value; it counts in the fairy + spell combo (10 + the spell's value)."""


class Role(enum.StrEnum):
    """What a card does, by its suit."""

    MANA = "mana"
    SPELL = "spell"
    ENEMY = "enemy"
    FAIRY = "fairy"


_ROLES = {Suit.SPADES: Role.MANA, Suit.DIAMONDS: Role.SPELL, Suit.CLUBS: Role.ENEMY, Suit.HEARTS: Role.FAIRY}


def role(card: PlayingCard) -> Role:
    return _ROLES[card.suit]


def value(card: PlayingCard, ranked_enemies: bool = False) -> int:
    """Ace 1, 2-10 face value, J/Q/K 10; with ``ranked_enemies`` Clubs J/Q/K are 11/12/13."""
    if card.rank <= 10:
        return card.rank
    if ranked_enemies and card.suit is Suit.CLUBS:
        return card.rank
    return 10


def cost(card: PlayingCard) -> int:
    """The mana a spell costs to cast (or, by default, to fizzle): its value."""
    return value(card)


def label(card: PlayingCard, ranked_enemies: bool = False) -> str:
    """The card's face, with its value when that is not plain from the face (a ranked J/Q/K of Clubs)."""
    if ranked_enemies and card.suit is Suit.CLUBS and card.rank > 10:
        return f"{card.face} ({card.rank})"
    return card.face

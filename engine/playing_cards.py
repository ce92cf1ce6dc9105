"""Standard playing cards, shared by the games played with a 52-card deck.

Wire and scenario notation is rank then suit letter (``AS``, ``10D``, ``QH``); the face
shown to players uses suit symbols (``A♠``, ``10♦``, ``Q♥``).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.errors import BadOptions

__all__ = ["RANKS", "PlayingCard", "Suit", "full_deck", "parse_cards"]


class Suit(enum.StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True, order=True)
class PlayingCard:
    """A card by rank (1 = Ace ... 11 = J, 12 = Q, 13 = K) and suit."""

    rank: int
    suit: Suit

    @property
    def code(self) -> str:
        """``AS``, ``10D``, ``QH``: the notation of options and decisions."""
        return RANKS[self.rank - 1] + self.suit.value

    @property
    def face(self) -> str:
        """``A♠``, ``10♦``, ``Q♥``: what a player reads."""
        return RANKS[self.rank - 1] + self.suit.symbol

    @classmethod
    def parse(cls, code: str) -> PlayingCard:
        text = code.strip().upper()
        rank, suit = text[:-1], text[-1:]
        if rank not in RANKS or suit not in "SHDC" or not suit:
            raise BadOptions(f"card {code!r} is not rank + suit letter, like 'AS', '10D' or 'QH'")
        return cls(RANKS.index(rank) + 1, Suit(suit))


def full_deck() -> tuple[PlayingCard, ...]:
    """The 52 cards, suit by suit, Ace to King."""
    return tuple(PlayingCard(rank, suit) for suit in Suit for rank in range(1, 14))


def parse_cards(option: str, codes: object) -> tuple[PlayingCard, ...]:
    """A list of card codes from a room option, or :class:`BadOptions` naming the option."""
    if not isinstance(codes, (list, tuple)) or not all(isinstance(c, str) for c in codes):
        raise BadOptions(f"option {option!r} must be a list of cards like 'AS', '10D', 'QH'")
    try:
        return tuple(PlayingCard.parse(c) for c in codes)
    except BadOptions as exc:
        raise BadOptions(f"option {option!r}: {exc.message}") from None

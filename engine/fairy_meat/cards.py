"""The Fairy Deck: playing cards plus Jokers, read as Fairy Meat reads them.

Cards live in the state as their codes (``7H``, ``AS``, ``JK1``): plain strings keep the
state plain data (dump/load is trivial) and identical cards from a second pack are simply
equal. Everything a rule needs to know about a card comes from the functions here.

- **Numbered** cards are the 2-10 (value = rank).
- **Trumps** are J, Q, K, A and the Jokers. A Trump moves a Numbered card by 1.
- **Colour**: hearts and diamonds are red, spades and clubs black; a Joker has no colour
  of its own (its holder names one when it is played).
- **Order value**: 2-10 face value, J 11, Q 12, K 13, A 14, Joker 15.
"""
from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from engine.errors import BadOptions
from engine.playing_cards import RANKS, PlayingCard, Suit

__all__ = [
    "ACE_OF_SPADES", "JOKER_VALUE", "Colour", "FairyCard", "Joker", "colour", "face", "is_joker", "is_numbered",
    "is_trump", "order_value", "parse", "rank", "suit", "validate",
]

JOKER_VALUE = 15
ACE_OF_SPADES = "AS"


class Colour(enum.StrEnum):
    RED = "red"
    BLACK = "black"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.RED else Colour.RED


@dataclass(frozen=True, slots=True, order=True)
class Joker:
    """One of a pack's two Jokers: ``JK1`` or ``JK2``. A second pack's Jokers are equal to the first's."""

    number: int

    @property
    def code(self) -> str:
        return f"JK{self.number}"

    @property
    def face(self) -> str:
        return f"Joker {self.number}"


FairyCard = PlayingCard | Joker
"""A card of the Fairy Deck."""


@functools.lru_cache(maxsize=256)
def parse(code: str) -> FairyCard:
    """A card from its code: ``AS``, ``10D``, ``QH``, ``JK1``, ``JK2``; :class:`BadOptions` if it is none."""
    text = code.strip().upper()
    if text in ("JK1", "JK2"):
        return Joker(int(text[2]))
    return PlayingCard.parse(text)


def validate(code: str) -> str:
    """The canonical code of ``code`` (upper case, no spaces), or :class:`BadOptions`."""
    if not isinstance(code, str):
        raise BadOptions(f"card {code!r} is not a card code like 'AS', '10D', 'QH' or 'JK1'")
    try:
        return parse(code).code
    except BadOptions:
        raise BadOptions(f"card {code!r} is not a card code like 'AS', '10D', 'QH' or 'JK1'") from None


def is_joker(code: str) -> bool:
    return code.startswith("JK")


@functools.lru_cache(maxsize=256)
def rank(code: str) -> int:
    """The card's value: 2-10 for Numbered cards, J 11, Q 12, K 13, A 14, Joker 15 (its Order value)."""
    card = parse(code)
    if isinstance(card, Joker):
        return JOKER_VALUE
    return 14 if card.rank == 1 else card.rank


order_value = rank
"""An Order card's value is its rank (J=11, Q=12, K=13, A=14, Joker=15)."""


def is_numbered(code: str) -> bool:
    return rank(code) <= 10


def is_trump(code: str) -> bool:
    return rank(code) > 10


@functools.lru_cache(maxsize=256)
def suit(code: str) -> Suit | None:
    card = parse(code)
    return None if isinstance(card, Joker) else card.suit


def colour(code: str) -> Colour | None:
    """Red (hearts, diamonds) or black (spades, clubs); ``None`` for a Joker."""
    s = suit(code)
    if s is None:
        return None
    return Colour.RED if s.red else Colour.BLACK


@functools.lru_cache(maxsize=256)
def face(code: str) -> str:
    """What a player reads: ``7♥``, ``A♠``, ``Joker 1``."""
    return parse(code).face


def full_pack() -> list[str]:
    """The 52 cards of one pack, suit by suit, 2 up to Ace (codes)."""
    return [RANKS[r - 1] + s.value for s in Suit for r in (*range(2, 14), 1)]

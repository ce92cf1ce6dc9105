"""How a playing card from a solitaire's view is drawn: its face in its suit's colour, or a small box.

Red suits are red and black suits white on the dark background; the face (``7♦``) is
always written out, so colour only repeats what the text says (``NO_COLOR`` reads the same).
Both solitaires' views give a card a ``face``; its suit is a name (``"diamonds"``) in
one and a letter (``"D"``) in the other, so the colour is read from either, or from the
face's suit symbol.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rich.panel import Panel
from rich.text import Text

__all__ = [
    "BLACK_SUIT",
    "RED_SUIT",
    "SUIT_SYMBOLS",
    "card_box",
    "face_text",
    "faces_text",
    "is_red",
    "suit_colour",
]

RED_SUIT = "#ff5f5f"
BLACK_SUIT = "bright_white"
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
"""Suit letters (as Queen's Challenge names its piles) to the symbols faces are written with."""

_RED_NAMES = frozenset({"H", "D", "hearts", "diamonds", "♥", "♦"})


def is_red(card_or_suit: Mapping[str, Any] | str | None) -> bool:
    """Hearts and diamonds: from a card's ``suit`` (name or letter) or ``face``, or a suit given alone."""
    if card_or_suit is None:
        return False
    if isinstance(card_or_suit, str):
        return card_or_suit in _RED_NAMES
    suit = str(card_or_suit.get("suit", ""))
    face = str(card_or_suit.get("face", ""))
    return suit in _RED_NAMES or face[-1:] in _RED_NAMES


def suit_colour(card_or_suit: Mapping[str, Any] | str | None) -> str:
    """The colour a card or suit is drawn in."""
    return RED_SUIT if is_red(card_or_suit) else BLACK_SUIT


def face_text(card: Mapping[str, Any] | None, *, empty: str = "—", bold: bool = True) -> Text:
    """A card's face (``7♦``) in its suit's colour; ``empty`` when there is no card."""
    if card is None:
        return Text(empty, style="dim")
    face = str(card.get("face") or card.get("code") or "?")
    return Text(face, style=f"{'bold ' if bold else ''}{suit_colour(card)}")


def faces_text(cards: Iterable[Mapping[str, Any]], *, empty: str = "none") -> Text:
    """Faces separated by spaces, each in its colour."""
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(" ")
        out.append_text(face_text(card))
    return out if out.plain else Text(empty, style="dim")


def card_box(card: Mapping[str, Any] | None, lines: Iterable[str | Text] = (), *, title: str = "",
             width: int | None = None, empty: str = "empty", padding: tuple[int, int] = (0, 1)) -> Panel:
    """A card as a small framed box: its face on top, then the given lines (value, role…)."""
    body = face_text(card, empty=empty)
    for line in lines:
        body.append("\n")
        body.append_text(line if isinstance(line, Text) else Text(line))
    border = suit_colour(card) if card is not None else "bright_black"
    return Panel(body, title=title or None, border_style=border, width=width, padding=padding, expand=False)

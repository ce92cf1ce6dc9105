"""Player names: normalised and checked once, so what is shown is what was bound."""
from __future__ import annotations

import unicodedata

from protocol import ErrorCode, ProtocolError

__all__ = ["MAX_WIDTH", "normalise", "width"]

MAX_WIDTH = 24
"""The widest a name may be, in terminal columns (a wide CJK character counts two)."""

_REFUSED = {"Cc": "a control character", "Cf": "a format character (e.g. a bidi override)",
            "Cs": "a surrogate", "Co": "a private-use character", "Cn": "an unassigned code point",
            "Zl": "a line separator", "Zp": "a paragraph separator"}


def width(text: str) -> int:
    """Terminal columns ``text`` takes: combining marks none, wide and full-width characters two."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me"):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def normalise(raw: str) -> str:
    """The name as stored and shown (NFC, no surrounding spaces); ``bad_name`` names what is wrong."""
    name = unicodedata.normalize("NFC", raw).strip()
    for ch in name:
        what = _REFUSED.get(unicodedata.category(ch))
        if what is not None:
            raise ProtocolError(ErrorCode.BAD_NAME, f"a name may not hold {what} (U+{ord(ch):04X})")
    if width(name) > MAX_WIDTH:
        raise ProtocolError(ErrorCode.BAD_NAME, f"a name may be at most {MAX_WIDTH} columns wide, not {width(name)}")
    return name

"""Player names: normalised and checked once, so what is shown is what was bound; and how a name looks.

Two names look alike when they have the same *look*: the Unicode confusable skeleton (UTS #39, section 4)
of the case-folded skeleton of the name, so that "\u0430lice" (a Cyrillic a), "aIice" (a capital I) and
"a1ice" all look like "alice". The confusable data is Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it.
"""
from __future__ import annotations

import functools
import importlib.resources
import json
import unicodedata

from protocol import ErrorCode, ProtocolError

__all__ = ["MAX_WIDTH", "look", "normalise", "skeleton", "width"]

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


_LRM = "\u200e"
"""The data wraps right-to-left characters in left-to-right marks (for display): not part of them."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype (a character or a sequence), from ``confusables.txt``.

    The package's table lists, for every line ``source -> prototype`` of the file, the prototype under the
    source and the source under the prototype, in the file's order. A source is never a prototype, so a
    character listed with exactly one entry is a source, unless that entry is a character listed with
    exactly one entry too (a prototype with one source): then the one the file named first is the source.
    """
    raw = importlib.resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[str, list[dict[str, str]]] = json.loads(raw)
    order = {entry: n for n, entry in enumerate(table)}
    found: dict[str, str] = {}
    for entry, homoglyphs in table.items():
        source = entry.replace(_LRM, "")
        if len(source) != 1 or len(homoglyphs) != 1:
            continue
        target = homoglyphs[0]["c"]
        back = table.get(target, [])
        if len(target.replace(_LRM, "")) == 1 and len(back) == 1 and order[target] < order[entry]:
            continue  # a prototype with a single source, named after it
        found[source] = target.replace(_LRM, "")
    return found


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: NFD, each character replaced by its prototype, NFD again."""
    prototypes = _prototypes()
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def look(name: str) -> str:
    """What a name looks like, letter case aside: names with the same look are refused to different keys."""
    return skeleton(skeleton(name).casefold())

"""Write each game's view, card and event tables into docs/protocol.md from protocol/schema.py (between markers).

Run: .venv/bin/python scripts/protocol_docs.py — tests/protocol/test_docs.py checks the file is current, and
that the schema matches what the engines really send.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.registry import GAMES  # noqa: E402
from protocol.schema import SCHEMAS, GameSchema, Shape  # noqa: E402

DOC = ROOT / "docs" / "protocol.md"


def start(game: str) -> str:
    return f"<!-- {game}:start (made by scripts/protocol_docs.py from protocol/schema.py) -->"


def end(game: str) -> str:
    return f"<!-- {game}:end -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "—"


def render(schema: GameSchema) -> str:
    """One game's tables as Markdown, markers included."""
    title = GAMES[schema.game].title
    lines = [start(schema.game), "", f"### {title}: the view", "",
             "`a.b` is field `b` of map `a`; `a[]` each element of list `a`; `a.*` each value of map `a`, whose keys "
             "are data. *Own* fields are only in the seat's own view: absent, null or empty for anyone else.", "",
             "| field | meaning |", "|---|---|"]
    for f in schema.view:
        meaning = f.meaning
        if f.shape is Shape.CARD:
            meaning += " (cards: see below)"
        if f.own:
            meaning += " — *own*"
        lines.append(f"| `{f.path}` | {_cell(meaning)} |")
    lines += ["", f"### {title}: a card", "", "| field | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(meaning)} |" for name, meaning in schema.card]
    lines += ["", f"### {title}: events", "",
              "Every event also has `kind` and `text`. *Everyone* gets the fields of the second column; the seat "
              "the event is about gets, in its own copy, the fields of the third column too (a field named in both "
              "then carries the seat's own value). A field may be missing from an event of its kind when there is "
              "nothing to name (a draw from an empty deck). A *private* event may be told to that seat alone.", "",
              "| kind | fields (everyone) | the seat's own copy | meaning |", "|---|---|---|---|"]
    for e in schema.events:
        meaning = ("*Private.* " if e.private else "") + e.meaning
        lines.append(f"| `{e.kind}` | {_names(e.fields)} | {_names(e.secret)} | {_cell(meaning)} |")
    lines += ["", f"### {title}: event fields", "", "| field | meaning |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(meaning)} |" for name, meaning in schema.event_fields]
    lines += ["", end(schema.game)]
    return "\n".join(lines)


def updated(doc: str) -> str:
    """The document with every game's tables replaced (a game without markers gets a section at the end)."""
    for game, schema in SCHEMAS.items():
        block = render(schema)
        if start(game) in doc and end(game) in doc:
            head, rest = doc.split(start(game), 1)
            _, tail = rest.split(end(game), 1)
            doc = head + block + tail
        else:
            doc = doc.rstrip("\n") + f"\n\n## {GAMES[game].title}: views and events\n\n" + block + "\n"
    return doc


if __name__ == "__main__":
    DOC.write_text(updated(DOC.read_text()))
    print(f"wrote the tables of {len(SCHEMAS)} games into {DOC.relative_to(ROOT)}")

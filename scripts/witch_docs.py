"""Write the witch list of docs/rules/creature-wars.md from the catalogue (between its markers).

Run: .venv/bin/python scripts/witch_docs.py — tests/engine/witches/test_docs.py checks the file is current.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.creature_wars.witch_catalogue import CATALOGUE, Rarity  # noqa: E402

DOC = ROOT / "docs" / "rules" / "creature-wars.md"
START = "<!-- witches:start (made by scripts/witch_docs.py from the catalogue) -->"
END = "<!-- witches:end -->"


def render() -> str:
    """The witch list as Markdown: one section per rarity, one entry per witch."""
    lines = [START, ""]
    for rarity in Rarity:
        low, high = rarity.levels
        specs = [s for s in CATALOGUE if s.rarity is rarity]
        lines += [f"### {rarity.value.title()} witches (levels {low}-{high}, weight {rarity.weight}): {len(specs)}", ""]
        for spec in specs:
            text = " ".join(spec.text.split())
            renamed = f" (the source's \u201c{spec.source_name}\u201d)" if spec.source_name != spec.name else ""
            lines.append(f"- **{spec.name}**{renamed}: {text}")
            if spec.ruling:
                lines.append(f"  - *Ruling:* {' '.join(spec.ruling.split())}")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def updated(doc: str) -> str:
    """The document with its witch list replaced (appended if it has none yet)."""
    if START in doc and END in doc:
        head, rest = doc.split(START, 1)
        _, tail = rest.split(END, 1)
        return head + render() + tail
    return doc.rstrip("\n") + "\n\n## Every witch\n\n" + render() + "\n"


if __name__ == "__main__":
    DOC.write_text(updated(DOC.read_text()))
    print(f"wrote {len(CATALOGUE)} witches into {DOC.relative_to(ROOT)}")

"""docs/rules/creature-wars.md lists every witch of the catalogue, as scripts/witch_docs.py writes it."""
from __future__ import annotations

from pathlib import Path

from engine.creature_wars.witch_catalogue import CATALOGUE
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[3]


def test_the_rules_doc_lists_every_witch_with_its_text_and_ruling() -> None:
    module = load_script("witch_docs")
    doc = (ROOT / "docs" / "rules" / "creature-wars.md").read_text()
    assert module.updated(doc) == doc, "run scripts/witch_docs.py: the witch list is out of date"
    for witch in CATALOGUE:
        assert f"**{witch.name}**" in doc
        assert " ".join(witch.text.split()) in doc

"""docs/rules/creature-wars.md lists every witch of the catalogue, as scripts/witch_docs.py writes it."""
from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.creature_wars.witch_catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parents[3]


def test_the_rules_doc_lists_every_witch_with_its_text_and_ruling() -> None:
    spec = importlib.util.spec_from_file_location("witch_docs", ROOT / "scripts" / "witch_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    doc = (ROOT / "docs" / "rules" / "creature-wars.md").read_text()
    assert module.updated(doc) == doc, "run scripts/witch_docs.py: the witch list is out of date"
    for witch in CATALOGUE:
        assert f"**{witch.name}**" in doc
        assert " ".join(witch.text.split()) in doc

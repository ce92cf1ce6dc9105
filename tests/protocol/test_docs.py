"""docs/protocol.md documents every view field and event of every game, as the engines really make them.

(a) The generated tables in the doc are what scripts/protocol_docs.py writes from protocol/schema.py.
(b) Random full matches of each game, played with the pure engines, produce no view field, card field,
event kind or event field that the schema leaves out, and every documented one occurs (bar the
schema's listed rare ones), so the doc cannot drift from the code.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import pytest

from engine.interface import Event, Game
from engine.registry import GAMES
from protocol.schema import SCHEMAS, GameSchema, Shape
from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]

PLAYS: dict[str, tuple[tuple[Mapping[str, Any], range], ...]] = {
    # Per game: (room options, seeds) of the random matches; options chosen to reach more of the rules.
    "creature_wars": (({}, range(6)), ({"witches": 40}, range(40))),
    "fairy_meat": (({}, range(8)), ({"nasty_hits": True, "fungus": True, "jokers": 2, "best_of": 3}, range(8)),
                   ({"spoils": "reshuffle", "damage_scale": "tiered", "split_points": True}, range(4))),
    "fairy_tableau": (({}, range(30)),),
    "queens_challenge": (({}, range(20)),),
}
MAX_STEPS = 3000
TIMEOUT_CHANCE = 0.3
"""How often a timed decision is left to run out (the server then applies ``timeout`` for the seat)."""


@dataclass
class Seen:
    """Every documented-item name a game's random matches produced (names as in ``GameSchema.items``)."""

    items: set[str] = field(default_factory=set)
    leaks: set[str] = field(default_factory=set)
    """Own-seat-only view fields found filled in a spectator's view."""


def _cards(value: Any, seen: Seen) -> None:
    """Note the fields of the card (or cards, nested in lists) at a card-shaped path."""
    if isinstance(value, list):
        for item in value:
            _cards(item, seen)
    elif isinstance(value, dict):
        seen.items.update(f"card {key}" for key in value)


def _walk(value: Any, path: str, shapes: Mapping[str, Shape], own: frozenset[str], spectator: bool,
          seen: Seen) -> None:
    """Note every field path under ``path``: ``a.b`` a field of map ``a``, ``a[]`` each element of list ``a``,
    ``a.*`` each value of map ``a`` whose keys are data (a suit)."""
    if isinstance(value, list):
        for item in value:
            _walk(item, path + "[]", shapes, own, spectator, seen)
        return
    if not isinstance(value, dict):
        return
    keyed = shapes.get(path) is Shape.KEYED
    for key, item in value.items():
        sub = f"{path}.*" if keyed else f"{path}.{key}" if path else str(key)
        seen.items.add(f"view {sub}")
        if spectator and sub in own and item not in (None, [], {}):
            seen.leaks.add(sub)
        shape = shapes.get(sub, Shape.VALUE)
        if shape is Shape.CARD:
            _cards(item, seen)
        elif shape is not Shape.OPEN:
            _walk(item, sub, shapes, own, spectator, seen)


def _event(event: Event, seen: Seen) -> None:
    seen.items.add(f"event {event.kind}")
    if event.private:
        seen.items.add(f"event {event.kind} (private)")
    seen.items.update(f"event {event.kind}.{key}" for key in event.public if key != "text")
    for secret in event.secret.values():
        seen.items.update(f"event {event.kind}.{key} (seat's copy)" for key in secret)


def play(game: Game, schema: GameSchema, options: Mapping[str, Any], seed: int, seen: Seen) -> None:
    """One random match to its end, noting every view (each seat's and a spectator's) and every event."""
    shapes = {f.path: f.shape for f in schema.view}
    own = frozenset(f.path for f in schema.view if f.own)
    seats = game.seats(options)
    pick = random.Random(seed)
    state = game.setup(options, seed)
    for _ in range(MAX_STEPS):
        for viewer in (*range(seats), None):
            _walk(game.view(state, viewer), "", shapes, own, viewer is None, seen)
        if game.outcome(state) is not None:
            return
        timed = game.timer(state)
        if timed is not None and pick.random() < TIMEOUT_CHANCE:
            seat, decision = timed[0], {"kind": "timeout"}
        else:
            movers = [s for s in range(seats) if game.legal(state, s)]
            assert movers, f"{game.name} seed {seed}: nobody can move and the match is not over"
            seat = pick.choice(movers)
            decision = dict(pick.choice(list(game.legal(state, seat))))
            decision.pop("label", None)
            decision.pop("loses", None)
        state, events = game.apply(state, seat, decision)
        for event in events:
            _event(event, seen)
    raise AssertionError(f"{game.name} seed {seed} {options}: no end after {MAX_STEPS} decisions")


def seen_in_play(name: str) -> Seen:
    """Everything the random matches of one game produced."""
    seen = Seen()
    for options, seeds in PLAYS[name]:
        for seed in seeds:
            play(GAMES[name], SCHEMAS[name], options, seed, seen)
    return seen


def test_the_doc_is_what_the_script_writes() -> None:
    script = load_script("protocol_docs")
    doc = (ROOT / "docs" / "protocol.md").read_text()
    assert script.updated(doc) == doc, "run .venv/bin/python scripts/protocol_docs.py: docs/protocol.md is out of date"


def test_every_game_has_a_schema() -> None:
    assert sorted(SCHEMAS) == sorted(GAMES)


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_random_matches_produce_exactly_what_the_doc_lists(name: str) -> None:
    schema = SCHEMAS[name]
    seen = seen_in_play(name)
    documented = schema.items()
    undocumented = sorted(seen.items - documented)
    unseen = sorted(documented - seen.items - schema.rare)
    problems = []
    if undocumented:
        problems.append("made by the engine but not documented (add to protocol/schema.py, then run "
                        "scripts/protocol_docs.py):\n  " + "\n  ".join(undocumented))
    if unseen:
        problems.append("documented but never produced by random play (remove from protocol/schema.py, or list "
                        "it in the game's rare set with the reason):\n  " + "\n  ".join(unseen))
    if seen.leaks:
        problems.append("documented as the own seat's only, but filled in a spectator's view:\n  "
                        + "\n  ".join(sorted(seen.leaks)))
    assert not problems, f"{name}: " + "\n".join(problems)


def test_rare_items_are_documented_items() -> None:
    for name, schema in SCHEMAS.items():
        assert schema.rare <= schema.items(), f"{name}: rare but not documented: {sorted(schema.rare - schema.items())}"


def test_every_event_field_has_a_meaning_and_every_meaning_a_field() -> None:
    for name, schema in SCHEMAS.items():
        used = {f for e in schema.events for f in (*e.fields, *e.secret)}
        glossary = [field for field, _ in schema.event_fields]
        assert len(glossary) == len(set(glossary)), f"{name}: an event field is explained twice"
        assert used - {"text"} <= set(glossary), f"{name}: event fields without a meaning: {sorted(used - set(glossary))}"
        assert set(glossary) <= used, f"{name}: meanings of no event's field: {sorted(set(glossary) - used)}"


def test_documented_items_are_unique() -> None:
    for name, schema in SCHEMAS.items():
        paths = [f.path for f in schema.view]
        kinds = [e.kind for e in schema.events]
        cards = [c for c, _ in schema.card]
        for what, names in (("view field", paths), ("event kind", kinds), ("card field", cards)):
            assert len(names) == len(set(names)), f"{name}: a {what} is listed twice"


def test_no_event_field_overwrites_the_event_kind() -> None:
    """``redact`` spreads an event's fields over its ``kind``: a field named ``kind`` would replace it."""
    for name, schema in SCHEMAS.items():
        shadows = {(name, e.kind) for e in schema.events if "kind" in (*e.fields, *e.secret)}
        assert not shadows, f"events whose field 'kind' overwrites their kind: {sorted(shadows)}"


def test_fairy_meat_order_and_weapons_are_per_fairy_in_a_band_and_documented_so() -> None:
    """In a band of three, the ``order`` event's ``order`` and ``cards`` and the ``weapons`` event's lists run over
    the six fairies (indices into the view's ``fairies``), not the two seats: the doc must say so."""
    game, meanings = GAMES["fairy_meat"], dict(SCHEMAS["fairy_meat"].event_fields)
    pick = random.Random(1)
    state = game.setup({"band": 3}, 1)
    found: dict[str, dict[str, Any]] = {}
    for _ in range(MAX_STEPS):
        seat = pick.choice([s for s in range(2) if game.legal(state, s)])
        decision = dict(pick.choice(list(game.legal(state, seat))))
        decision.pop("label", None)
        state, events = game.apply(state, seat, decision)
        found.update((e.kind, dict(e.public)) for e in events if e.kind in ("order", "weapons"))
        if "order" in found:
            break
    assert "order" in found, "no round began"
    fairies = len(game.view(state, None)["fairies"])
    assert fairies == 6
    assert sorted(found["order"]["order"]) == list(range(fairies))
    assert len(found["order"]["cards"]) == fairies
    assert all(len(found["weapons"][key]) == fairies for key in ("weapons", "live", "kill"))
    assert "fairies" in meanings["order"] and "seats" not in meanings["order"]
    assert all("per fairy" in meanings[key] for key in ("weapons", "live", "kill"))
    assert "in `order`: per fairy" in meanings["cards"]

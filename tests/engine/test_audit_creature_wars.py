"""Creature Wars against its sources, point by point: each test quotes the line it follows."""
from __future__ import annotations

from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import Event, redact_all
from tests.engine.scenario import duel, events_of, hand, play, start


def view(state: State, seat: int | None = None) -> dict[str, Any]:
    shown: dict[str, Any] = GAME.view(state, seat)
    return shown


def test_pass_cancels_everything() -> None:
    """RULINGS: "If one player passes, the other card goes back to its owner's hand with no cooldown and
    nothing else happens." A witch played against a pass casts nothing."""
    deck = ["Lvl.3 Fire Giant", "Lvl.2 Holy Wolf", "Lvl.1 Skeleton"]
    state = start([[], ["Lvl.4 Fire Pirate", "Lvl.2 The Witch Collector"]], deck)
    state, _ = duel(state, "Lvl.3 Fire Giant {4}", "Lvl.4 Fire Pirate {3}")  # a tie: the Giant cools down
    assert view(state, 0)["passed"] == [True, False]
    state, events = play(state, 1, "Lvl.2 The Witch Collector {3}")
    assert view(state)["hp"] == [30, 30]
    assert events_of(events, "damage") == [] and events_of(events, "heal") == []
    assert events_of(events, "witch") == []  # nothing is cast
    assert "Lvl.2 The Witch Collector {3}" in hand(state, 1)  # back in hand, no cooldown
    assert {"kind": "play", "slot": hand(state, 1).index("Lvl.2 The Witch Collector {3}")} in GAME.legal(state, 1)
    assert view(state)["last_duel"]["damage"] == [0, 0]


def told(events: list[Event], seat: int | None) -> str:
    return " ".join(str(e) for e in redact_all(events, seat))

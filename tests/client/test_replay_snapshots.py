"""Snapshots of the replay viewer at 80x24: a duel in full and in one seat's view, the last decision, a Fairy Meat attack.

The records are played with the engine (fixed seed, each seat's first legal decision), as a
server would have recorded them, so an image changes only when the viewer does. After a
deliberate change: ``scripts/test tests/client/test_replay_snapshots.py --snapshot-update``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from client.replay import HINTS, Replay
from client.viewer import ViewerApp
from engine import registry

SIZE = (80, 24)


def engine_record(game: str, seed: int, options: Mapping[str, Any] | None = None, bound: int = 400) -> dict[str, Any]:
    """A finished match's record (as ``export`` gives it) of the first seat able to decide taking its first legal move."""
    engine = registry.get(game)
    assert engine is not None
    options = dict(options or {})
    state = engine.setup(options, seed)
    decisions = []
    while engine.outcome(state) is None and len(decisions) < bound:
        seat = next(s for s in range(engine.seats(options)) if engine.legal(state, s))
        decision = {k: v for k, v in engine.legal(state, seat)[0].items() if k not in HINTS}
        state, _ = engine.apply(state, seat, decision)
        decisions.append({"v": engine.version(state), "seat": seat, "d": decision, "ts": 0.0})
    outcome = engine.outcome(state)
    assert outcome is not None
    return {"room": "a1b2c3d4", "game": game, "options": options, "seed": seed, "names": ["ann", "bob"],
            "decisions": decisions, "outcome": outcome.data(), "created": 0.0, "ended": 0.0}


CREATURE_WARS = engine_record("creature_wars", 5, {"hp": 12})
FAIRY_MEAT = engine_record("fairy_meat", 7)


@pytest.mark.parametrize(("record", "press"), [
    pytest.param(CREATURE_WARS, ("n",), id="duel-full"),
    pytest.param(CREATURE_WARS, ("n", "v"), id="duel-seat"),
    pytest.param(CREATURE_WARS, ("end",), id="outcome"),
    pytest.param(FAIRY_MEAT, ("n",), id="attack-full"),
])
def test_replay_viewer(snap_compare: Any, record: dict[str, Any], press: tuple[str, ...]) -> None:
    assert snap_compare(ViewerApp(Replay(record)), terminal_size=SIZE, press=press)

"""Creature Wars outcomes pinned down byte for byte: seeded random matches, each hashed decision by decision.

Per match the digest covers every event as each seat and a spectator are told it (``redact_all``, as the
server sends them), each seat's and a spectator's ``view``, ``legal`` for each seat and the timer after every
decision, the refusal of an illegal play now and then (its message), and the final state as the server stores
it (``msgpack`` of ``dump``). The recorded digests (``outcome_digests.json``) were made by the engine before its
rework for speed; any change to what a player can see or what is stored shows up here.

    python -m tests.engine.test_outcome_digests --record    # rewrite outcome_digests.json (only for a rule change)

Each match takes a seat with something to decide and one of its legal decisions at random (``random.Random``
seeded with the match's seed); now and then it lets the clock run out instead, or first tries a card it may not
play. Every third match deals 30 witches instead of 10.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.creature_wars import GAME
from engine.errors import EngineError
from tests.engine import digests
from tests.engine.digests import Feed

QUICK = 300
"""How many matches the normal (not ``slow``) run checks: seeds 0 to 299."""
MATCHES = 1200
"""How many the ``slow`` run checks."""
DIGESTS = Path(__file__).with_name("outcome_digests.json")
BOUND = 5000


def options_for(seed: int) -> dict[str, Any]:
    """Every third match deals many witches, so that more of their hooks come into play."""
    return {"witches": 30} if seed % 3 == 0 else {}


def _choose(state: Any, seat: int, legal: list[dict[str, Any]], timed: Any, chooser: random.Random,
            feed: Feed) -> dict[str, Any]:
    """Now and then the clock runs out, or an unplayable card is tried first; else a legal decision at random."""
    roll = chooser.random()
    if roll < 0.05:
        return {"kind": "timeout"}
    if roll < 0.10 and legal[0]["kind"] == "play":
        hand = GAME.view(state, seat)["hands"][seat]["cards"]
        slots = {d["slot"] for d in legal}
        unplayable = [i for i in range(len(hand)) if i not in slots]
        if unplayable:
            try:
                GAME.apply(state, seat, {"kind": "play", "slot": chooser.choice(unplayable)})
            except EngineError as refused:
                feed("refused", [type(refused).__name__, str(refused)])
            else:
                raise AssertionError("an unplayable slot was accepted")
    return dict(chooser.choice(legal))


def digest_match(seed: int) -> str:
    """The hex digest of one seeded random match (see the module's docstring for what goes in)."""
    return digests.digest_match(GAME, seed, options_for(seed), random.Random(seed), _choose, BOUND)


RECORDED = digests.Recorded(DIGESTS, MATCHES, digest_match)


def test_recorded_digests_cover_every_match() -> None:
    assert sorted(map(int, RECORDED.load())) == list(range(MATCHES))


def test_matches_are_unchanged() -> None:
    RECORDED.check(range(QUICK))


@pytest.mark.slow
def test_more_matches_are_unchanged() -> None:
    RECORDED.check(range(QUICK, MATCHES))


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        RECORDED.record()
    else:
        print(__doc__)

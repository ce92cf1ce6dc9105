"""Fairy Meat outcomes pinned down byte for byte: seeded random matches, each hashed decision by decision.

As :mod:`tests.engine.test_outcome_digests` does for Creature Wars: per match, every event as each seat and a
spectator are told it, each seat's and a spectator's ``view``, ``legal`` for each seat and the timer after every
decision, and the final state as the server stores it (``msgpack`` of ``dump``). The options of each match are
drawn as ``bench.fairy_meat_random`` draws them (bands, best of 3, scenario decks ...). The recorded digests
(``outcome_digests.json`` beside this file) were made by the engine before its rework for speed.

    python -m tests.engine.fairy_meat.test_outcome_digests --record   # rewrite the digests (only for a rule change)
"""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.fairy_meat_random import options_for
from engine.fairy_meat import GAME
from tests.engine import digests
from tests.engine.digests import Feed

QUICK = 100
"""How many matches the normal (not ``slow``) run checks: seeds 0 to 99."""
MATCHES = 400
"""How many the ``slow`` run checks."""
DIGESTS = Path(__file__).with_name("outcome_digests.json")
BOUND = 3000
DISPLAY_KEYS = frozenset({"label", "loses"})


def _choose(state: Any, seat: int, legal: list[dict[str, Any]], timed: Any, chooser: random.Random,
            feed: Feed) -> dict[str, Any]:
    """Now and then the clock runs out on the seat it waits for; else a legal decision at random."""
    if timed is not None and timed[0] == seat and chooser.random() < 0.05:
        return {"kind": "timeout"}
    return {k: v for k, v in chooser.choice(legal).items() if k not in DISPLAY_KEYS}


def digest_match(seed: int) -> str:
    """The hex digest of one seeded random match."""
    chooser = random.Random(seed)
    return digests.digest_match(GAME, seed, options_for(chooser), chooser, _choose, BOUND)


RECORDED = digests.Recorded(DIGESTS, MATCHES, digest_match)


def test_recorded_digests_cover_every_match() -> None:
    assert sorted(map(int, RECORDED.load())) == list(range(MATCHES))


@pytest.mark.slow  # long: in the slow suite, a step of its own in CI
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

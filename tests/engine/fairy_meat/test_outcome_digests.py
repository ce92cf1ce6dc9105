"""Fairy Meat outcomes pinned down byte for byte: seeded random matches, each hashed decision by decision.

As :mod:`tests.engine.test_outcome_digests` does for Creature Wars: per match, every event as each seat and a
spectator are told it, each seat's and a spectator's ``view``, ``legal`` for each seat and the timer after every
decision, and the final state as the server stores it (``msgpack`` of ``dump``). The options of each match are
drawn as ``bench.fairy_meat_random`` draws them (bands, best of 3, scenario decks ...). The recorded digests
(``outcome_digests.json`` beside this file) were made by the engine before its rework for speed.

    python -m tests.engine.fairy_meat.test_outcome_digests --record   # rewrite the digests (only for a rule change)
"""
from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest

from bench.fairy_meat_random import options_for
from engine.fairy_meat import GAME
from engine.interface import redact_all

QUICK = 100
"""How many matches the normal (not ``slow``) run checks: seeds 0 to 99."""
MATCHES = 400
"""How many the ``slow`` run checks."""
DIGESTS = Path(__file__).with_name("outcome_digests.json")
BOUND = 3000
DISPLAY_KEYS = frozenset({"label", "loses"})


def _feed(h: Any, tag: str, value: Any) -> None:
    h.update(tag.encode())
    h.update(msgpack.packb(value))


def digest_match(seed: int) -> str:
    """The hex digest of one seeded random match."""
    chooser = random.Random(seed)
    h = hashlib.sha256()
    options = options_for(chooser)
    state = GAME.setup(options, seed)
    _feed(h, "setup", GAME.dump(state))
    decisions = 0
    while True:
        for seat in (0, 1, None):
            _feed(h, f"view{seat}", GAME.view(state, seat))
        legal = {seat: list(GAME.legal(state, seat)) for seat in (0, 1)}
        _feed(h, "legal", [legal[0], legal[1]])
        timed = GAME.timer(state)
        _feed(h, "timer", timed)
        if GAME.outcome(state) is not None or decisions >= BOUND:
            break
        ready = [seat for seat in (0, 1) if legal[seat]]
        assert ready, f"seed {seed}: a stall after {decisions} decisions"
        seat = chooser.choice(ready)
        decision: dict[str, Any]
        if timed is not None and timed[0] == seat and chooser.random() < 0.05:
            decision = {"kind": "timeout"}
        else:
            decision = {k: v for k, v in chooser.choice(legal[seat]).items() if k not in DISPLAY_KEYS}
        _feed(h, "decision", [seat, decision])
        state, events = GAME.apply(state, seat, decision)
        decisions += 1
        for who in (0, 1, None):
            _feed(h, f"events{who}", redact_all(events, who))
        _feed(h, "opened", [GAME.opened(state, 0), GAME.opened(state, 1), GAME.version(state)])
    _feed(h, "final", GAME.dump(state))
    outcome = GAME.outcome(state)
    _feed(h, "outcome", None if outcome is None else outcome.data())
    return h.hexdigest()


def _recorded() -> dict[str, str]:
    data: dict[str, str] = json.loads(DIGESTS.read_text())
    return data


def _check(seeds: range) -> None:
    recorded = _recorded()
    wrong = [seed for seed in seeds if digest_match(seed) != recorded[str(seed)]]
    assert not wrong, f"{len(wrong)} of {len(seeds)} matches differ from the recorded outcome, first seeds: {wrong[:10]}"


def test_recorded_digests_cover_every_match() -> None:
    assert sorted(map(int, _recorded())) == list(range(MATCHES))


def test_matches_are_unchanged() -> None:
    _check(range(QUICK))


@pytest.mark.slow
def test_more_matches_are_unchanged() -> None:
    _check(range(QUICK, MATCHES))


def record() -> None:
    DIGESTS.write_text(json.dumps({str(seed): digest_match(seed) for seed in range(MATCHES)}, indent=0) + "\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        record()
    else:
        print(__doc__)

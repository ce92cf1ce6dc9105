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

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest

from engine.creature_wars import GAME
from engine.errors import EngineError
from engine.interface import redact_all

QUICK = 300
"""How many matches the normal (not ``slow``) run checks: seeds 0 to 299."""
MATCHES = 1200
"""How many the ``slow`` run checks."""
DIGESTS = Path(__file__).with_name("outcome_digests.json")
BOUND = 5000


def options_for(seed: int) -> dict[str, Any]:
    """Every third match deals many witches, so that more of their hooks come into play."""
    return {"witches": 30} if seed % 3 == 0 else {}


def _feed(h: Any, tag: str, value: Any) -> None:
    h.update(tag.encode())
    h.update(msgpack.packb(value))


def digest_match(seed: int) -> str:
    """The hex digest of one seeded random match (see the module's docstring for what goes in)."""
    chooser = random.Random(seed)
    h = hashlib.sha256()
    options = options_for(seed)
    state = GAME.setup(options, seed)
    _feed(h, "setup", GAME.dump(state))
    decisions = 0
    while True:
        for seat in (0, 1, None):
            _feed(h, f"view{seat}", GAME.view(state, seat))
        legal = {seat: list(GAME.legal(state, seat)) for seat in (0, 1)}
        _feed(h, "legal", [legal[0], legal[1]])
        _feed(h, "timer", GAME.timer(state))
        if GAME.outcome(state) is not None or decisions >= BOUND:
            break
        ready = [seat for seat in (0, 1) if legal[seat]]
        assert ready, f"seed {seed}: a stall after {decisions} decisions"
        seat = chooser.choice(ready)
        roll = chooser.random()
        if roll < 0.05:
            decision: dict[str, Any] = {"kind": "timeout"}
        elif roll < 0.10 and legal[seat][0]["kind"] == "play":
            hand = GAME.view(state, seat)["hands"][seat]["cards"]
            slots = {d["slot"] for d in legal[seat]}
            unplayable = [i for i in range(len(hand)) if i not in slots]
            if unplayable:
                try:
                    GAME.apply(state, seat, {"kind": "play", "slot": chooser.choice(unplayable)})
                except EngineError as refused:
                    _feed(h, "refused", [type(refused).__name__, str(refused)])
                else:
                    raise AssertionError(f"seed {seed}: an unplayable slot was accepted")
            decision = dict(chooser.choice(legal[seat]))
        else:
            decision = dict(chooser.choice(legal[seat]))
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

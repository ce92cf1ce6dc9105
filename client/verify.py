"""``cardroom verify``: check a finished match from its record, with the pure engine alone.

A record (``cardroom export``, or the ``export`` request) holds the game, options, seed,
commitment and every stored decision. Verification checks that the revealed seed is the
one committed to at creation, replays every decision from ``setup(options, seed)``, and
checks each reaches the recorded version and the last reaches the recorded outcome.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack

from engine import registry
from engine.errors import EngineError

__all__ = ["Verdict", "commitment_of", "digest", "verify"]


def digest(packed: bytes) -> str:
    """A state's digest as log records keep it: the first 16 hex digits of sha256 of its msgpack dump."""
    return hashlib.sha256(packed).hexdigest()[:16]


def commitment_of(room: str, seed: int) -> str:
    """The commitment a room publishes at creation for ``seed`` (docs/protocol.md)."""
    return hashlib.sha256(f"cardroom:{room}:{seed}".encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Verdict:
    """``ok``, or the first thing that differs: ``at`` is the 1-based decision number (0: before any)."""

    ok: bool
    message: str
    at: int = 0


def verify(record: Mapping[str, Any]) -> Verdict:
    """Check a match record; never raises on a malformed one, it says what is wrong instead."""
    try:
        return _verify(record)
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict(False, f"the record is malformed: {type(exc).__name__}: {exc}")


def _verify(record: Mapping[str, Any]) -> Verdict:
    game = registry.get(str(record["game"]))
    if game is None:
        return Verdict(False, f"unknown game {record['game']!r}")
    seed = int(record["seed"])
    if commitment_of(str(record["room"]), seed) != record["commitment"]:
        return Verdict(False, "the seed does not match the commitment published at creation")
    state = game.setup(record["options"], seed)
    decisions = list(record["decisions"])
    for n, entry in enumerate(decisions, 1):
        try:
            state, _ = game.apply(state, int(entry["seat"]), entry["d"])
        except EngineError as exc:
            return Verdict(False, f"decision {n} (seat {entry['seat']}, {json.dumps(entry['d'])}) is refused by "
                                  f"the rules: {exc.message}", n)
        if game.version(state) != entry["v"]:
            return Verdict(False, f"decision {n} reaches version {game.version(state)}, the record says {entry['v']}",
                           n)
        if "h" in entry and digest(msgpack.packb(game.dump(state))) != entry["h"]:
            return Verdict(False, f"decision {n} (seat {entry['seat']}, {json.dumps(entry['d'])}) leads to another "
                                  "state than the one recorded", n)
    outcome = game.outcome(state)
    found = None if outcome is None else outcome.data()
    if found != record.get("outcome"):
        return Verdict(False, f"the replay ends with {found}, the record says {record.get('outcome')}", len(decisions))
    return Verdict(True, f"OK: seed matches the commitment; {len(decisions)} decisions replayed; outcome {found}")

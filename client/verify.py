"""``cardroom verify``: check a finished match from its record, with the pure engine alone.

A record (``cardroom export``, or the ``export`` request) holds the game, options, seed,
commitment, the server's secret (``server_seed`` and ``salt``), each seat's ``nonce`` and
every stored decision. Verification checks the whole chain: the server's secret and salt
are what the room committed to at creation, the seed is the one derived from that secret
and every seat's nonce (or, for a ``fixed`` room, the server seed itself); then it replays
every decision from ``setup(options, seed)`` and checks each is the one the log's chain of
links recorded, reaches the recorded version (and, at a snapshot, state), and that the last
reaches the recorded outcome. This module implements the scheme
of docs/protocol.md on its own, as any third party would: it imports nothing of the server.
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

__all__ = ["Verdict", "commitment_of", "derived_seed", "digest", "link_of", "salted_commitment", "verify"]


def digest(packed: bytes) -> str:
    """A state's digest as log records keep it: the first 16 hex digits of sha256 of its msgpack dump."""
    return hashlib.sha256(packed).hexdigest()[:16]


def link_of(previous: str, entry: Mapping[str, Any]) -> str:
    """A log record's link: the first 16 hex digits of sha256 of the previous record's link followed by the
    msgpack array [version, seat, decision] (docs/protocol.md)."""
    return hashlib.sha256(previous.encode() + msgpack.packb([entry["v"], entry["seat"], entry["d"]])).hexdigest()[:16]


def commitment_of(room: str, seed: int) -> str:
    """The commitment of a room stored before salted commitments, for ``seed`` (docs/protocol.md)."""
    return hashlib.sha256(f"cardroom:{room}:{seed}".encode()).hexdigest()


def salted_commitment(room: str, server_seed: int, salt: str) -> str:
    """The commitment to the server's secret a room publishes at creation (docs/protocol.md)."""
    return hashlib.sha256(f"cardroom:v2:{room}:{server_seed}:{salt}".encode()).hexdigest()


def derived_seed(server_seed: int, salt: str, nonces: list[str]) -> int:
    """The match seed made of the server's secret and every seat's nonce, in seat order (docs/protocol.md)."""
    material = f"cardroom:v2:seed:{server_seed}:{salt}" + "".join(
        ":" + hashlib.sha256(nonce.encode()).hexdigest() for nonce in nonces)
    return int.from_bytes(hashlib.sha256(material.encode()).digest()[:8], "big") >> 1


def _chain(record: Mapping[str, Any], seats: int) -> str | None:
    """What is wrong with the seed's chain, or None; and for records without a salt, the old commitment."""
    seed = int(record["seed"])
    if "server_seed" not in record:  # a room stored before salted commitments
        if commitment_of(str(record["room"]), seed) != record["commitment"]:
            return "the seed does not match the commitment published at creation"
        return None
    server_seed, salt = int(record["server_seed"]), str(record["salt"])
    if salted_commitment(str(record["room"]), server_seed, salt) != record["commitment"]:
        return "the server seed and salt do not match the commitment published at creation"
    if record["seeding"] == "fixed":
        if seed != server_seed:
            return "the seed of a fixed room is not the server seed of the commitment"
        return None
    if record["seeding"] != "players":
        return f"unknown seeding {record['seeding']!r}"
    nonces = [str(n) for n in record["nonces"]]
    if len(nonces) != seats:
        return f"the record has {len(nonces)} nonces for {seats} seats"
    if derived_seed(server_seed, salt, nonces) != seed:
        return "the seed is not the one derived from the server seed and salt of the commitment and the players' nonces"
    return None


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
    if record.get("seed") is None and record.get("reveal_after"):
        return Verdict(False, f"the seed of this daily room is told after its day ends ({record['reveal_after']}); "
                              "export and verify it again then")
    seed = int(record["seed"])
    try:
        seats = game.seats(record["options"])
    except EngineError as exc:
        return Verdict(False, f"the record's options are refused by the rules: {exc.message}")
    wrong = _chain(record, seats)
    if wrong is not None:
        return Verdict(False, wrong)
    state = game.setup(record["options"], seed)
    decisions = list(record["decisions"])
    previous = ""
    for n, entry in enumerate(decisions, 1):
        if "c" in entry and link_of(previous, entry) != entry["c"]:
            return Verdict(False, f"decision {n} (seat {entry['seat']}, {json.dumps(entry['d'])}) is not the one the "
                                  "log's chain recorded: it was changed after it was stored", n)
        previous = str(entry.get("c", ""))
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
    if "server_seed" not in record:
        chain = "seed matches the commitment"
    elif record["seeding"] == "fixed":
        chain = "fixed seed (a chosen seed or a daily room; no player nonces) matches the commitment"
    else:
        chain = (f"server seed and salt match the commitment; seed derived from them and {len(record['nonces'])} "
                 "player nonces")
    return Verdict(True, f"OK: {chain}; {len(decisions)} decisions replayed; outcome {found}")

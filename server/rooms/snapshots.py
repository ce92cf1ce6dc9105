"""State snapshots: a room's state is stored every ``EVERY`` decisions and at the match's end; in between
only the decision is, and loading replays the log's tail on the snapshot with the pure engine."""
from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from engine.interface import Game
from protocol.packing import pack
from server.errors import StoreCorrupt
from server.store.store import RoomRecord

__all__ = ["EVERY", "digest", "due", "link", "rebuild"]

EVERY = 32
"""Decisions between two snapshots: a load replays at most ``EVERY - 1`` of them."""


def due(version: int, over: bool) -> bool:
    """Whether the state reached at ``version`` is stored whole."""
    return over or version % EVERY == 0


def digest(packed: bytes) -> str:
    """The digest a log record keeps of the state a decision led to: a replay that departs is caught there."""
    return hashlib.sha256(packed).hexdigest()[:16]


_pack = msgpack.Packer(use_bin_type=True).pack
"""``msgpack.packb``'s bytes, from one packer: ``packb`` makes a packer for every call, one a decision here."""


def link(previous: str, version: int, seat: int, decision: Any) -> str:
    """A log record's link in the log's chain: the digest of the previous record's link and this decision, so
    a decision changed after it was stored is caught at itself (states are digested only at snapshots)."""
    return hashlib.sha256(previous.encode() + _pack([version, seat, decision])).hexdigest()[:16]


def rebuild(game: Game, record: RoomRecord) -> Any:
    """The room's current state: its snapshot with every later logged decision applied, each checked against
    the version (and, where the record keeps one, the state digest) it led to."""
    state = game.load(record.state)
    for entry in record.tail:
        state, _ = game.apply(state, entry["seat"], entry["d"])
        if game.version(state) != entry["v"]:
            raise StoreCorrupt(f"room {record.room}: replaying the log reached version {game.version(state)}, "
                               f"its record says {entry['v']}")
        if "h" in entry and digest(pack(game.dump(state))) != entry["h"]:
            raise StoreCorrupt(f"room {record.room}: replaying the log departs from the state stored at "
                               f"version {entry['v']}")
    if game.version(state) != record.version:
        raise StoreCorrupt(f"room {record.room}: the log reaches version {game.version(state)}, "
                           f"the room is at {record.version}")
    return state

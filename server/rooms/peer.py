"""Whom a room sends frames to: the base of a client's websocket (server/edge/connection.py) and of a client
relayed from another node (server/cluster/relay.py)."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

__all__ = ["Peer"]

_ids = itertools.count(1)


class Peer:
    """Whom a room sends frames to: a client's websocket here, or one relayed from another node
    (server/cluster/relay.py); with the rooms it is in (room id -> seat, ``None`` for spectating)."""

    def __init__(self, on_drop: Callable[[Peer], None] | None = None) -> None:
        self.id = next(_ids)
        self.name = ""
        self.player: str | None = None
        """The public player id from ``hello``'s key; None for a guest."""
        self.greeted = False
        self.rooms: dict[str, int | None] = {}
        self.deltas = False
        """Its ``hello`` asked for view deltas (docs/protocol.md, "View deltas"); else every view is whole."""
        self.views: dict[str, tuple[int, int | None, dict[str, Any] | None]] = {}
        """By room: the version, seat and view of the last view frame it was sent, the base of the next delta."""
        self.digests: dict[str, str] = {}
        """Seat tokens it sent, with their hashes (``Room.seat_of``): hashed once, not at every decision."""
        self.dead = False
        self.on_drop = on_drop

    def send(self, frame: bytes) -> None:
        """Pass a frame on, never waiting."""
        raise NotImplementedError

    @classmethod
    def send_all(cls, peers: list[Peer], frame: bytes, after: bytes | None = None) -> None:
        """Pass one frame (and ``after`` it, when given: the match's result after its last view) on to each of
        ``peers`` (of this class), never waiting: a room's broadcast of one view to the many watchers of a seat, which
        a class may send in one tight loop."""
        for peer in peers:
            peer.send(frame)
            if after is not None:
                peer.send(after)

    def drop(self, reason: str) -> None:
        """Stop serving this peer: it is told ``reason`` and may reconnect."""
        raise NotImplementedError

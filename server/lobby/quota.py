"""What one address may ask of a node: rooms created per minute, waiting rooms held; and the node's own caps."""
from __future__ import annotations

import collections
import os
import time
from collections.abc import Mapping

from protocol import ErrorCode, ProtocolError
from server.ops import metrics
from server.rooms.room import Room

__all__ = ["MAX_ROOMS", "MAX_SPECTATORS", "PER_MINUTE", "WAITING", "Quota", "check_spectators"]

PER_MINUTE = int(os.environ.get("CARDROOM_ROOMS_PER_MINUTE", "20"))
"""Rooms one address may create in any 60 seconds."""
WAITING = int(os.environ.get("CARDROOM_WAITING_ROOMS", "5"))
"""Rooms still waiting for players that one address, or one player (by key), may hold."""
MAX_ROOMS = int(os.environ.get("CARDROOM_MAX_ROOMS", "10000"))
"""Live rooms one node holds; past it ``create_room`` is refused with ``server_full``."""
MAX_SPECTATORS = int(os.environ.get("CARDROOM_MAX_SPECTATORS", "10000"))
"""Spectating connections one node serves; past it ``spectate`` is refused with ``server_full``."""
PLAYER = "player:"
"""Prefix of a player's entry among the holders (addresses have none)."""


class Quota:
    """Per-address room creation, counted in memory on this node."""

    def __init__(self) -> None:
        self.created: dict[str, collections.deque[float]] = collections.defaultdict(collections.deque)
        self.held: dict[str, list[str]] = collections.defaultdict(list)

    def check(self, address: str, rooms: Mapping[str, Room], player: str = "") -> None:
        """Refuse a new room past the node's cap or the address's (or the player's) quotas; nothing is created then."""
        if len(rooms) >= MAX_ROOMS:
            metrics.REFUSED.labels("server_full").inc()
            raise ProtocolError(ErrorCode.SERVER_FULL, f"this server holds {MAX_ROOMS} rooms, its most; try later")
        now = time.monotonic()
        stamps = self.created[address]
        while stamps and now - stamps[0] > 60:
            stamps.popleft()
        if len(stamps) >= PER_MINUTE:
            metrics.REFUSED.labels("rooms_per_minute").inc()
            raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"at most {PER_MINUTE} rooms a minute from one address")
        held = self.held[address] = [r for r in self.held[address] if r in rooms and rooms[r].status == "waiting"]
        if len(held) >= WAITING:
            metrics.REFUSED.labels("waiting_rooms").inc()
            raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"your address holds {len(held)} rooms still waiting for "
                                                          f"players, the most allowed; play or cancel one first")
        if player:
            mine = self.held[PLAYER + player] = [r for r in self.held[PLAYER + player]
                                                 if r in rooms and rooms[r].status == "waiting"]
            if len(mine) >= WAITING:
                metrics.REFUSED.labels("waiting_rooms").inc()
                raise ProtocolError(ErrorCode.TOO_MANY_ROOMS, f"you hold {len(mine)} rooms still waiting for players, "
                                                              f"the most allowed; play or cancel one first")

    def record(self, address: str, room: str, player: str = "") -> None:
        self.created[address].append(time.monotonic())
        self.held[address].append(room)
        if player:
            self.held[PLAYER + player].append(room)


def check_spectators(rooms: Mapping[str, Room]) -> None:
    """Refuse one more spectator past the node's cap."""
    watching = sum(1 for room in rooms.values() for seat in room.watchers.values() if seat is None)
    if watching >= MAX_SPECTATORS:
        metrics.REFUSED.labels("server_full").inc()
        raise ProtocolError(ErrorCode.SERVER_FULL, f"this server serves {MAX_SPECTATORS} spectators, its most; try later")

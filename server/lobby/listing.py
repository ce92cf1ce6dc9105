"""The lobby listing: live rooms indexed by creation, pages of them, and each room's summary kept until it changes.

A listing request costs the rooms it scans and the summaries it sends, not a summary (and a view,
for its score) of every room: a room's summary is rebuilt only when something it shows changed.
"""
from __future__ import annotations

import bisect
import heapq
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from protocol import ErrorCode, ProtocolError
from server.rooms.room import Room, Tally

__all__ = ["DEFAULT_LIMIT", "LISTED_AFTER_END", "MAX_LIMIT", "STATUSES", "Elsewhere", "Others", "Rooms", "listed", "stamp",
           "waiting"]

DEFAULT_LIMIT = 50
"""Rooms in a ``rooms`` page when ``list_rooms`` names no ``limit``."""
MAX_LIMIT = 200
"""The largest ``limit`` a ``list_rooms`` may ask for."""
STATUSES = frozenset({"waiting", "playing", "over"})

Stamp = tuple[int, int, int, str, float | None]
Listed = tuple[float, str, "Room | dict[str, Any]"]
"""(created, id, a room of this node or another node's entry of one)."""
_UNSHOWN = frozenset({"created", "owners"})
"""Fields of another node's entry that only the listing reads (server/cluster/directory.py)."""


LISTED_AFTER_END = 300.0
"""Seconds a finished room stays in the lobby listing (and in memory, unless watched) after its end."""


def waiting(room: Room) -> bool:
    """Still waiting for players: a free seat and no result."""
    return not room.over and not all(room.seats)


def listed(room: Room, now: float | None = None) -> bool:
    """Whether the lobby lists the room: unfinished, or finished less than ``LISTED_AFTER_END`` ago."""
    return room.ended is None or (now or time.time()) - room.ended < LISTED_AFTER_END


@dataclass
class Others:
    """Other nodes' listed rooms: by room, (node, entry); and (created, room) in order for paging."""

    entries: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    order: list[tuple[float, str]] = field(default_factory=list)

    def put(self, node: str, room: str, entry: dict[str, Any]) -> None:
        self.remove(room)
        self.entries[room] = (node, entry)
        bisect.insort(self.order, (float(entry["created"]), room))

    def remove(self, room: str, node: str | None = None) -> None:
        """Forget ``room`` (only if ``node`` published it, when given: another may have taken it since)."""
        held = self.entries.get(room)
        if held is None or (node is not None and held[0] != node):
            return
        del self.entries[room]
        key = (float(held[1]["created"]), room)
        at = bisect.bisect_left(self.order, key)
        if at < len(self.order) and self.order[at] == key:
            del self.order[at]

    def forget(self, node: str) -> None:
        for room in [r for r, (n, _) in self.entries.items() if n == node]:
            self.remove(room)

    def nodes(self) -> set[str]:
        return {n for n, _ in self.entries.values()}

    def after(self, key: tuple[float, str] | None) -> Iterator[tuple[float, str, dict[str, Any]]]:
        """(created, room, entry) after ``key``, in order."""
        start = 0 if key is None else bisect.bisect_right(self.order, key)
        for created, room in self.order[start:]:
            yield created, room, self.entries[room][1]


class Elsewhere(Protocol):
    """What other nodes list (server/cluster/directory.py): their entries, and one room's."""

    others: Others

    def entry(self, room_id: str) -> dict[str, Any] | None: ...


def stamp(room: Room) -> Stamp:
    """What a summary shows that can change: version, seats taken, spectators, status, end."""
    return (room.version, sum(1 for s in room.seats if s), sum(1 for s in room.watchers.values() if s is None),
            room.status, room.ended)


class Rooms(dict[str, Room]):
    """Rooms by id (in insertion order, like any dict), plus an index of (created, id) and cached summaries."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[tuple[float, str]] = []
        self.cached: dict[str, tuple[Stamp, dict[str, Any]]] = {}
        self.touched: set[str] = set()
        """Rooms whose summary may have changed (or that left) since the other nodes were last told
        (server/cluster/directory.py)."""
        self.tally = Tally()
        """Counts across these rooms, each room keeping its share up to date."""

    def __setitem__(self, key: str, room: Room) -> None:
        old = self.get(key)
        if old is not None:
            self._unindex(old)
        super().__setitem__(key, room)
        bisect.insort(self.order, (room.created, key))
        room.touched = self.touched
        room.tally = self.tally
        self.tally.spectating += room.spectating
        self.touched.add(key)

    def __delitem__(self, key: str) -> None:
        room = self[key]
        super().__delitem__(key)
        self._unindex(room)
        self.touched.add(key)

    def pop(self, key: str, default: Any = None) -> Any:
        if key not in self:
            return default
        room = self[key]
        del self[key]
        return room

    def _unindex(self, room: Room) -> None:
        self.cached.pop(room.id, None)
        if room.tally is self.tally:
            self.tally.spectating -= room.spectating
            room.tally = None
        at = bisect.bisect_left(self.order, (room.created, room.id))
        if at < len(self.order) and self.order[at] == (room.created, room.id):
            del self.order[at]

    def summary(self, room: Room) -> dict[str, Any]:
        """The room's summary, rebuilt only if something it shows changed since it was last built."""
        now = stamp(room)
        held = self.cached.get(room.id)
        if held is not None and held[0] == now:
            return held[1]
        built = room.summary()
        if room.id in self:
            self.cached[room.id] = (now, built)
        return built

    def page(self, game: str | None, status: str | None, cursor: str | None, limit: int | None,
             others: Others | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """Listed rooms after ``cursor`` in creation order (oldest first), at most ``limit``, this node's and
        (``others``) those other nodes publish; and the cursor of the next page (None when this one reaches the end)."""
        if status is not None and status not in STATUSES:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"list_rooms: field 'status' must be one of {', '.join(sorted(STATUSES))}")
        limit = DEFAULT_LIMIT if limit is None else limit
        if not 1 <= limit <= MAX_LIMIT:
            raise ProtocolError(ErrorCode.BAD_FIELD, f"list_rooms: field 'limit' must be from 1 to {MAX_LIMIT}")
        key = None if cursor is None else _parse(cursor)
        now = time.time()

        def summary(item: Room | dict[str, Any]) -> dict[str, Any] | None:
            """The item's summary if the page lists it."""
            if isinstance(item, Room):
                if not listed(item, now):
                    return None
                shown = (item.game.name, item.status)
            elif item["room"] in self:  # this node serves it now: its own summary is the newer
                return None
            else:
                shown = (item["game"], item["status"])
            if (game is not None and shown[0] != game) or (status is not None and shown[1] != status):
                return None
            if isinstance(item, Room):
                return self.summary(item)
            return {k: v for k, v in item.items() if k not in _UNSHOWN}

        out: list[dict[str, Any]] = []
        items = self._after(key, others)
        for created, rid, item in items:
            shown = summary(item)
            if shown is None:
                continue
            out.append(shown)
            if len(out) == limit:
                more = any(summary(rest) is not None for _, _, rest in items)
                return out, (f"{created!r}/{rid}" if more else None)
        return out, None

    def _after(self, key: tuple[float, str] | None, others: Others | None) -> Iterator[Listed]:
        """(created, id, room or another node's entry) after ``key``, in creation order."""
        start = 0 if key is None else bisect.bisect_right(self.order, key)
        mine: Iterator[Listed] = ((created, rid, self[rid]) for created, rid in self.order[start:])
        if others is None:
            return mine
        theirs: Iterator[Listed] = others.after(key)
        return cast(Iterator[Listed], heapq.merge(mine, theirs, key=lambda item: (item[0], item[1])))


def _parse(cursor: str) -> tuple[float, str]:
    """A cursor (``next`` of a ``rooms`` page) back into its index key."""
    created, _, rid = cursor.rpartition("/")
    try:
        return float(created), rid
    except ValueError:
        raise ProtocolError(ErrorCode.BAD_FIELD, "list_rooms: field 'cursor' must be a 'next' from a 'rooms' reply") from None

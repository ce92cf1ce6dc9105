"""The lobby across nodes: each node publishes the summaries of the rooms it lists, and keeps a copy of what
every other live node publishes, so any node lists every room.

A node keeps its listed rooms in the hash ``cardroom:listed:{node}`` (room -> summary, with its creation time
and the players holding its seats) and announces each second's changes on ``cardroom:listing``. Another
node reads the hash when it first sees that node alive, then follows the announcements; it forgets a node
whose liveness key lapsed (a dead node's open rooms come back as their new owner publishes them).
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import msgpack

from server.cluster import channel
from server.lobby.listing import Others, listed, stamp
from server.store import pubsub
from server.store.lease import LEASE_MS

if TYPE_CHECKING:
    from server.lobby.lobby import Lobby

__all__ = ["Directory"]

log = logging.getLogger(__name__)
CHANNEL = "cardroom:listing"
INTERVAL = 1.0
"""Seconds between two publications of a node's changed summaries."""
REFRESH = max(LEASE_MS / 3000, INTERVAL)
"""Seconds between two checks of which nodes are alive."""


def _hash(node: str) -> str:
    return f"cardroom:listed:{node}"


class Directory:
    """This node's part of the lobby across nodes: what it publishes and what it knows of the others."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.node = lobby.leases.node
        self.others = Others()
        self.published: dict[str, tuple[Any, ...]] = {}
        """What was last published of each room: the summary's stamp."""
        self.known: set[str] = set()
        """Nodes whose hash has been read."""
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Forget what an earlier run of this node published, then publish and follow."""
        await self.lobby.store.redis.delete(_hash(self.node))
        self.tasks = [asyncio.create_task(self._publish()), asyncio.create_task(self._follow())]

    async def stop(self) -> None:
        await channel.cancel(self.tasks)

    def entry(self, room_id: str) -> dict[str, Any] | None:
        """What another node published of ``room_id``."""
        held = self.others.entries.get(room_id)
        return held[1] if held is not None else None

    # -- publishing

    def changes(self) -> tuple[dict[str, bytes], list[str]]:
        """The entries of this node's listed rooms that changed since last published, and the rooms it no
        longer lists (finished long ago, closed, moved to another node): only rooms touched since (and the
        finished ones, which leave the listing with time) are looked at."""
        rooms, now = self.lobby.rooms, time.time()
        looked = rooms.touched | {room_id for room_id, shown in self.published.items() if shown[4] is not None}
        rooms.touched.clear()
        put: dict[str, bytes] = {}
        gone: list[str] = []
        for room_id in looked:
            room = rooms.get(room_id)
            if room is None or room.moved or not listed(room, now):
                if self.published.pop(room_id, None) is not None:
                    gone.append(room_id)
                continue
            shown = stamp(room)
            if self.published.get(room_id) == shown:
                continue
            self.published[room_id] = shown
            put[room_id] = msgpack.packb({**rooms.summary(room), "created": room.created, "owners": list(room.owners)})
        return put, gone

    async def _publish(self) -> None:
        redis = self.lobby.store.redis
        while True:
            await asyncio.sleep(INTERVAL)
            put, gone = self.changes()
            if not put and not gone:
                continue
            try:
                async with redis.pipeline(transaction=False) as pipe:
                    if put:
                        pipe.hset(_hash(self.node), mapping=put)  # type: ignore[arg-type]
                    if gone:
                        pipe.hdel(_hash(self.node), *gone)
                    pubsub.publish(redis, pipe, CHANNEL, msgpack.packb([self.node, put, gone]))
                    await pipe.execute()
            except Exception:
                log.exception("room summaries not published; all sent again")
                self.published.clear()

    # -- following the others

    async def _follow(self) -> None:
        await channel.follow(self.lobby.store.redis, CHANNEL, self._receive, subscribed=self._forget_all,
                             broken=lambda: None, pause=INTERVAL, every=REFRESH, tick=self._refresh)

    async def _forget_all(self) -> None:
        """(Re)subscribed: what was missed meanwhile is read again from each node's hash."""
        self.known.clear()
        self.others = Others()

    async def _refresh(self) -> None:
        """Read the listing of each node newly alive; forget those no longer alive."""
        alive = set(await self.lobby.leases.nodes()) - {self.node}
        for node in (self.known | self.others.nodes()) - alive:
            self.others.forget(node)
            self.known.discard(node)
        for node in sorted(alive - self.known):
            raw = await self.lobby.store.redis.hgetall(_hash(node))
            for room, packed in raw.items():
                self.others.put(node, room.decode() if isinstance(room, bytes) else room,
                                msgpack.unpackb(packed, raw=False))
            self.known.add(node)

    def _receive(self, data: bytes) -> None:
        node, put, gone = msgpack.unpackb(data, raw=False)
        if node == self.node:
            return
        for room, packed in put.items():
            self.others.put(node, room, msgpack.unpackb(packed, raw=False))
        for room in gone:
            self.others.remove(room, node)

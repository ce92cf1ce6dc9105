"""10,000 live rooms on one node, in a keyspace of a busy site, for a minute: not one lease lost; after a
restart under the same id every one of them is served and listed again."""
from __future__ import annotations

import asyncio
import logging

import pytest

from server.lobby.lobby import Lobby
from server.store import keys
from server.store.lease import lease_key
from server.store.store import Store

pytestmark = pytest.mark.slow

ROOMS = 10_000
JUNK = 400_000
"""Finished matches' keys a busy site keeps (records 30 days): the keyspace a scan would have to walk."""


async def test_ten_thousand_rooms_keep_their_leases_for_a_minute(redis_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="server.lobby.lobby")
    store = Store(redis_url)
    stop = asyncio.Event()
    try:
        for start in range(0, JUNK, 20_000):
            await store.redis.mset({keys.match(f"junk{n}"): b"x" for n in range(start, start + 20_000)})
        lobby = Lobby(store, node="A")
        keeping = asyncio.create_task(lobby.keep(stop))  # as a server does, from its start
        for start in range(0, ROOMS, 500):
            await asyncio.gather(*(lobby.create("creature_wars", {}, None) for _ in range(start, min(ROOMS, start + 500))))
        assert len(lobby.rooms) == ROOMS
        await asyncio.sleep(60)  # twenty renewals at the default lease
        stop.set()
        await asyncio.wait_for(keeping, 30)
        lost = [r for r in caplog.records if "lease lost" in r.getMessage()]
        assert lost == [], f"{len(lost)} leases lost"
        holders = await store.redis.mget([lease_key(room) for room in lobby.rooms])
        assert set(holders) == {b"A"}, "every room's lease is still this node's"
        assert not any(room.moved for room in lobby.rooms.values())

        again = Lobby(store, node="A")  # the node started again, its leases not released (as after a kill)
        assert await again.restore() == ROOMS
        assert again.warming is not None
        await asyncio.wait_for(again.warming, 60)
        listed: list[str] = []
        cursor = None
        while True:
            page, cursor = again.listing(cursor=cursor, limit=200)
            listed += [summary["room"] for summary in page]
            if cursor is None:
                break
        assert len(listed) == len(set(listed)) == ROOMS, "each room listed once"
        assert set(listed) == set(lobby.rooms)
    finally:
        stop.set()
        await store.close()

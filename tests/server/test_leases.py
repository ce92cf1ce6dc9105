"""Leases that hold: finding the live nodes costs the nodes, not a scan of the keyspace, and a slow adoption never
delays the renewal of a node's own leases."""
from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis

from server.lobby import lobby as lobbies
from server.lobby.lobby import Lobby
from server.store import keys, lease
from server.store.lease import Leases, lease_key
from server.store.store import Store


async def test_live_nodes_are_found_without_scanning_the_keyspace(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    r = aioredis.Redis.from_url(redis_url)
    try:
        await r.mset({keys.match(str(n)): b"x" for n in range(2000)})  # a busy site's finished matches
        a, b = Leases(r, "A"), Leases(r, "B")
        await r.config_resetstat()
        assert await a.beat() == 0
        assert await b.beat() == 1
        assert sorted(await a.nodes()) == ["A", "B"]
        assert await a.alive(["A", "B", "C"]) == [True, True, False]
        assert "cmdstat_scan" not in await r.info("commandstats"), "liveness scanned the keyspace"
        await b.retire([])
        assert await a.nodes() == ["A"], "a node that stops is no longer alive"
        monkeypatch.setattr(lease, "LEASE_MS", 50)
        await b.beat()
        await asyncio.sleep(0.2)
        assert await a.beat() == 0, "a node whose liveness lapsed is not counted"
        assert await a.nodes() == ["A"]
    finally:
        await r.aclose()


async def test_a_slow_adoption_does_not_let_the_nodes_own_leases_lapse(redis_url: str,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lease, "LEASE_MS", 300)
    monkeypatch.setattr(lobbies, "LEASE_MS", 300)
    store = Store(redis_url)
    stuck = asyncio.Event()
    try:
        lobby = Lobby(store, node="A")
        room = await lobby.create("creature_wars", {}, None)

        async def adopting() -> None:  # loading thousands of orphans, say: longer than a lease
            await stuck.wait()

        lobby.adopt_orphans = adopting  # type: ignore[method-assign]
        stop = asyncio.Event()
        keeping = asyncio.create_task(lobby.keep(stop))
        await asyncio.sleep(1.2)  # four leases' time
        holder = await store.redis.get(lease_key(room.id))
        stop.set()
        stuck.set()
        await asyncio.wait_for(keeping, 5)
        assert holder == b"A", "the room's lease lapsed while an adoption ran"
        assert room.id in lobby.rooms and not room.moved
    finally:
        await store.close()


async def test_a_lapsed_lease_nobody_took_is_renewed_but_not_one_another_node_had(redis_url: str) -> None:
    """A pause a little past the lease loses nothing while no other node took the room: the room's fencing token
    is still this node's, so nobody wrote in between. Once another node took it, it is lost for good."""
    r = aioredis.Redis.from_url(redis_url)
    try:
        await r.hset(keys.room("r1"), "version", 0)
        a, b = Leases(r, "A"), Leases(r, "B")
        fence, _ = await a.take("r1")
        await r.delete(lease_key("r1"))  # lapsed
        assert await a.renew({"r1": fence}) == []
        assert await r.get(lease_key("r1")) == b"A"
        await r.delete(lease_key("r1"))
        taken, _ = await b.take("r1")  # another node takes it over: the token moves
        await r.delete(lease_key("r1"))  # and its lease lapses too
        assert await a.renew({"r1": fence}) == ["r1"], "the old token no longer holds the room"
        assert await r.get(lease_key("r1")) is None
        assert taken == fence + 1
    finally:
        await r.aclose()


async def test_a_room_is_held_by_its_maker_from_the_step_that_stores_it(redis_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A room enters the open set and is stored before its maker goes on: another node adopting open rooms right
    then finds it held by its maker, and leaves it (a lease taken a step later would be the other node's)."""
    store = Store(redis_url)
    other = Lobby(store, node="B")
    made = Store.create

    async def then_adopt(self: Store, *args: object, **kwargs: object) -> str:
        room: str = await made(self, *args, **kwargs)  # type: ignore[arg-type]
        await other.adopt_orphans()  # node B's pass comes at the worst moment
        return room

    monkeypatch.setattr(Store, "create", then_adopt)
    try:
        lobby = Lobby(store, node="A")
        room = await lobby.create("creature_wars", {}, None)
        assert room.id not in other.rooms and room.fence == 1
        assert await store.redis.get(lease_key(room.id)) == b"A"
        await room.claim(0, "ann")  # fenced with the token it was made with
    finally:
        await store.close()

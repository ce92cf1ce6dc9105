"""Several server nodes on one Redis: one owns a live room at a time, by a lease; a node that lost its lease
(paused past it) can never write again (the fencing token); a dead node's matches go on on another node."""
from __future__ import annotations

import asyncio
import os
import random
import signal

import pytest

from client import Client, ClientError
from client.connection import ConnectionLost, Seat
from server.store import keys
from server.store.store import Store
from tests.server.helpers import play_to_end, play_turn
from tests.server.nodes import LEASE_MS, Start, match_on, resume_on


async def test_a_paused_owner_is_fenced_off_once_another_node_took_its_room(node: Start, redis_url: str) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    rng = random.Random(1)
    a1, sa, b1, sb = await match_on(url_a, 99, 2, rng)
    os.kill(proc_a.pid, signal.SIGSTOP)  # a pause past its lease (a GC pause, a partition)
    await asyncio.sleep(2 * LEASE_MS / 1000)
    a2, ra = await resume_on(url_b, sa)
    b2, rb = await resume_on(url_b, sb)
    taken = (await a2.wait_view(sa.room, lambda v: True))["version"]
    await play_turn([(a2, ra), (b2, rb)], rng)  # node B serves the match now
    version = a2.versions[sa.room]
    assert version > taken
    os.kill(proc_a.pid, signal.SIGCONT)
    stale = a1.views[sa.room]
    legal = [d for d in stale["legal"]] or [{"kind": "play", "slot": 0}]
    with pytest.raises((ClientError, ConnectionLost, TimeoutError)):
        reply = await a1.decide(sa, legal[0])  # node A still believes it owns the room
        raise AssertionError(f"a fenced node acknowledged a decision: {reply}")
    store = Store(redis_url)
    try:
        assert await store.version(sa.room) == version  # nothing of node A's landed
        assert len(await store.log(sa.room)) == version
    finally:
        await store.close()
    await play_to_end([(a2, ra), (b2, rb)], seed=3)
    for c in (a1, b1, a2, b2):
        await c.close()


async def test_a_killed_owners_match_goes_on_on_another_node_with_nothing_lost(node: Start) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    a1, sa, b1, sb = await match_on(url_a, 42, 3, random.Random(2))
    acked = a1.versions[sa.room]
    hand = a1.views[sa.room]["hands"][0]["cards"]
    proc_a.kill()  # SIGKILL
    proc_a.wait()
    a2, ra = await resume_on(url_b, sa)
    b2, rb = await resume_on(url_b, sb)
    view = await a2.wait_view(sa.room, lambda v: True)
    assert view["version"] == acked and view["hands"][0]["cards"] == hand
    await play_to_end([(a2, ra), (b2, rb)], seed=4)
    assert a2.views[sa.room]["outcome"] is not None
    for c in (a1, b1, a2, b2):
        await c.close()


async def test_a_write_with_an_old_fencing_token_is_refused_even_at_the_right_version(redis_url: str) -> None:
    """The version check alone would let a paused owner's write land when the new owner has not written yet:
    the fencing token refuses it."""
    import msgpack

    from server.errors import Fenced
    from server.store.lease import Leases, lease_key
    from server.store.store import RoomRecord

    store = Store(redis_url)
    try:
        assert await store.create(RoomRecord(room="f1", game="creature_wars", options={}, seed=1, commitment="c",
                                             created=1.0, version=0, state={"x": 1}, seats=(None, None)))
        old, _ = await Leases(store.redis, "A").take("f1")
        assert (await Leases(store.redis, "B").take("f1"))[0] == 0  # A holds it
        await store.redis.delete(lease_key("f1"))  # A's lease lapses
        new, holder = await Leases(store.redis, "B").take("f1")
        assert (new, holder) == (old + 1, "B")
        record = msgpack.packb({"v": 1, "seat": 0, "d": {"kind": "play", "slot": 0}, "ts": 1.0})
        with pytest.raises(Fenced):
            await store.commit("f1", 0, 1, b"", record, False, fence=old)
        with pytest.raises(Fenced):
            await store.claim("f1", 0, "hash", "ann", fence=old)
        assert await store.version("f1") == 0 and await store.holder("f1", 0) is None
        await store.commit("f1", 0, 1, b"", record, False, fence=new)
        assert await store.version("f1") == 1
    finally:
        await store.close()


async def test_a_dead_nodes_timed_match_is_adopted_and_its_clock_runs_out_on_another(node: Start, redis_url: str) -> None:
    """Nobody resumes: the node players are connected to adopts the orphaned room, and the clock that ran
    on the dead node times the seat out there."""
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    a1, b1 = await Client.connect(url_a), await Client.connect(url_a)
    made = await a1.request("create_room", game="creature_wars", seed=5, clock={"move": 2, "bank": 0, "increment": 0},
                            sit=False)
    sa = await a1.join(made["room"])
    await b1.join(sa.room)
    await a1.wait_view(sa.room, lambda v: v["version"] == 0)
    proc_a.kill()
    proc_a.wait()
    async with await Client.connect(url_b):  # someone is connected to node B: it serves players
        store = Store(redis_url)
        try:
            for _ in range(100):
                if (await store.version(sa.room) or 0) > 0:
                    break
                await asyncio.sleep(0.1)
            log = await store.log(sa.room)
        finally:
            await store.close()
    assert log and log[0].get("server") and log[0]["d"]["kind"] == "timeout"
    for c in (a1, b1):
        await c.close()


async def test_a_node_nobody_plays_on_hands_its_rooms_to_the_one_players_use(node: Start, redis_url: str) -> None:
    """A node standing by (no players connected, another node alive) keeps no live room: the node the players
    are connected to takes them, as after the first node came back from a pause behind the proxy."""
    _, url_a = await node("A")
    _, url_b = await node("B")
    async with await Client.connect(url_b) as a1, await Client.connect(url_b) as b1:
        sa = await a1.create("creature_wars", seed=7)
        assert isinstance(sa, Seat)
        await b1.join(sa.room)
    async with await Client.connect(url_a) as watcher:  # players are on node A now
        store = Store(redis_url)
        try:
            holder = None
            for _ in range(100):
                holder = await store.redis.get(keys.lease(sa.room))
                if holder == b"A":
                    break
                await asyncio.sleep(0.1)
        finally:
            await store.close()
        assert holder == b"A"
        await watcher.spectate(sa.room)
        assert (await watcher.wait_view(sa.room, lambda v: True))["version"] == 0


async def test_a_node_taking_a_lease_it_holds_keeps_its_fencing_token(redis_url: str) -> None:
    """A sweep of this node taking again the lease of a room it serves (made, or loaded, meanwhile) must not
    fence off its own writes in flight; a lease that lapsed gets a new token when taken again."""
    from server.store.lease import Leases, lease_key
    from server.store.store import RoomRecord

    store = Store(redis_url)
    try:
        assert await store.create(RoomRecord(room="f2", game="creature_wars", options={}, seed=1, commitment="c",
                                             created=1.0, version=0, state={"x": 1}, seats=(None, None)))
        a = Leases(store.redis, "A")
        first, _ = await a.take("f2")
        assert (await a.take("f2"))[0] == first and await a.take_many(["f2"]) == [first]
        assert (await Leases(store.redis, "B").take("f2"))[0] == 0
        await store.redis.delete(lease_key("f2"))  # lapsed
        assert (await a.take("f2"))[0] == first + 1
    finally:
        await store.close()

"""Rematch: both seats agree after the end, a new room with seats swapped; asking during a match changes nothing; a
seat asking on a node that does not serve the new room gets its seat there from the node that does."""
from __future__ import annotations

import asyncio
import random

import pytest

from client import Client, ClientError
from client.connection import Seat
from server.store import keys
from server.store.store import Store
from tests.server.nodes import Start, on_node
from tests.server.servers import QUICK, finished_match


async def test_both_accept_a_new_room_with_seats_swapped(server_url: str) -> None:
    a, sa, b, sb = await finished_match(server_url, record=True)
    w = await Client.connect(server_url, record_frames=True)
    try:
        await w.spectate(sa.room)
        old = {r["room"]: r for r in await w.list_rooms()}[sa.room]
        offered = await a.rematch(sa)
        assert offered == {"t": "rematch_offered", "room": sa.room, "seat": 0, "re": offered["re"]}
        for client in (b, w):
            pushed = await client.wait_message(lambda m: m["t"] == "rematch_offered")
            assert (pushed["room"], pushed["seat"], pushed["re"]) == (sa.room, 0, None)
        ready = await b.rematch(sb)
        assert ready["t"] == "rematch_ready" and ready["room"] == sa.room and ready["seat"] == 0
        new_room = ready["new_room"]
        got = {a: await a.wait_message(lambda m: m["t"] == "rematch_ready")}
        for client in (a, b):
            await client.wait_view(new_room, lambda v: v["outcome"] is None)
        # ann got ann's new seat, pushed (bob's old seat 1 became 0, ann's 0 became 1)
        assert got[a]["seat"] == 1 and got[a]["new_room"] == new_room and got[a]["re"] is None
        assert got[a]["token"] != ready["token"]
        assert not [m for m in w.received() if m["t"] == "rematch_ready"]
        # the new room: same game and options, seats swapped, a new seed behind a new commitment
        listed = {r["room"]: r for r in await w.list_rooms()}[new_room]
        assert listed["game"] == "creature_wars" and listed["players"] == ["bob", "ann"]
        assert listed["status"] == "playing" and listed["commitment"] != old["commitment"]
        assert listed["spectator_chat"] == old["spectator_chat"] and listed["clock"] == old["clock"]
        assert a.views[new_room]["hp"] == [QUICK["hp"], QUICK["hp"]]
        # the tokens work: resume on a fresh connection and play
        async with await Client.connect(server_url) as fresh:
            seat = await fresh.resume(new_room, got[a]["token"])
            assert seat.seat == 1
        mover, token = (b, ready["token"]) if b.views[new_room]["legal"] else (a, got[a]["token"])
        reply = await mover.request("decide", room=new_room, token=token, version=mover.versions[new_room],
                                    decision=mover.views[new_room]["legal"][0])
        assert reply["t"] == "view" and reply["version"] == 1
        # asking again hands the same seat back, no second new room
        again = await a.rematch(sa)
        assert again["t"] == "rematch_ready" and again["new_room"] == new_room and again["token"] == got[a]["token"]
    finally:
        for c in (a, b, w):
            await c.close()


async def test_rematch_of_a_running_match_changes_nothing(server_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", QUICK, seed=2)
        assert not isinstance(sa, str)
        with pytest.raises(ClientError) as caught:
            await a.rematch(sa)  # still waiting for a player
        assert caught.value.code == "match_running"
        sb = await b.join(sa.room)
        before = await a.list_rooms()
        for client, seat in ((a, sa), (b, sb)):
            with pytest.raises(ClientError) as caught:
                await client.rematch(seat)
            assert caught.value.code == "match_running" and sa.room in caught.value.message
        with pytest.raises(ClientError) as caught:
            await a.request("rematch", room=sa.room, token="stolen")
        assert caught.value.code == "bad_token"
        assert await a.list_rooms() == before
        assert not [m for m in a.received() + b.received() if m["t"].startswith("rematch")]
    finally:
        await a.close()
        await b.close()


async def _lapsed(redis_url: str, room: str) -> None:
    """Wait until nobody holds ``room``'s lease (a finished match's is not renewed): any node serves it then."""
    store = Store(redis_url)
    try:
        for _ in range(100):
            if await store.redis.get(keys.lease(room)) is None:
                return
            await asyncio.sleep(0.1)
    finally:
        await store.close()
    raise AssertionError(f"the lease of room {room} never lapsed")


async def _plays(client: Client, seat: Seat, other: Client, other_seat: Seat) -> None:
    """``client`` makes a decision as ``seat`` (``other`` deciding as ``other_seat`` until ``client`` may); or, where
    ``other``'s play ends the match first, ``client`` resumes ``seat`` with its token and is granted it. The deal
    comes from the seats' nonces, a new one each run: about one in a hundred locks ``seat`` in at once, and at
    ``QUICK``'s one HP the duel ``other`` then plays ends the match."""
    rng = random.Random(7)
    for each in (client, other):
        await each.wait_view(seat.room, lambda v: v["outcome"] is None)
    for _ in range(50):
        view = client.views[seat.room]
        if view["outcome"] is not None:
            assert (await client.resume(seat.room, seat.token)).seat == seat.seat
            return
        legal = view["legal"]
        if legal:
            reply = await client.decide(seat, rng.choice(legal))
            assert reply["t"] == "view" and reply["room"] == seat.room
            return
        reply = await other.decide(other_seat, rng.choice(other.views[seat.room]["legal"]))
        await client.wait_view(seat.room, lambda v, at=reply["version"]: v["version"] >= at)
    raise AssertionError(f"seat {seat.seat} was never to decide")


async def test_a_seat_asking_on_a_node_that_does_not_serve_the_new_room_gets_its_seat_there(
        node: Start, redis_url: str) -> None:
    _, url_a = await node("A")
    _, url_b = await node("B")
    ann, sa, bob, sb = await finished_match(url_b, seed=23)  # played on node B, which keeps the finished room
    assert (await ann.rematch(sa))["t"] == "rematch_offered"
    await _lapsed(redis_url, sa.room)
    bob_a = await Client.connect(url_a, record_frames=True)
    try:
        ready = await bob_a.rematch(sb)  # node A loads the finished room, completes the rematch, and serves the new one
        assert ready["t"] == "rematch_ready" and ready["node"] == "A" and ready["seat"] == 0
        new_room = ready["new_room"]
        late = await ann.rematch(sa)  # on node B, which serves the finished room but not the new one
        assert late["t"] == "rematch_ready" and late["new_room"] == new_room and late["seat"] == 1
        assert late["node"] == "A"
        await _plays(ann, Seat(new_room, 1, late["token"]), bob_a, Seat(new_room, 0, ready["token"]))
        await bob_a.wait_for(lambda: bob_a.versions[new_room] == ann.versions[new_room])

        again = await bob.rematch(sb)  # bob asks again on node B: node A, which made the new room, hands his seat back
        assert again["t"] == "rematch_ready" and again["new_room"] == new_room and again["seat"] == 0
        assert again["node"] == "A" and again["token"] == ready["token"]
        moved = await bob_a.wait_message(lambda m: m["t"] == "seat_moved")  # one connection per seat: now bob's on B
        assert moved["room"] == new_room and moved["seat"] == 0
        await bob.wait_view(new_room, lambda v: v["version"] == ann.versions[new_room])
        async with await Client.connect(url_a) as direct:  # ann's token works on node A directly too
            assert (await direct.resume(new_room, late["token"])).seat == 1
    finally:
        for client in (ann, bob, bob_a):
            await client.close()


async def test_a_seat_asking_again_after_the_new_rooms_node_restarted_gets_a_new_token(
        node: Start, redis_url: str) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    ann, sa, bob, sb = await finished_match(url_b, seed=24)
    assert (await ann.rematch(sa))["t"] == "rematch_offered"
    await _lapsed(redis_url, sa.room)
    bob_a = await Client.connect(url_a)
    ready = await bob_a.rematch(sb)  # node A makes and serves the new room
    new_room = ready["new_room"]
    first = await ann.rematch(sa)  # through node B
    assert first["t"] == "rematch_ready" and first["node"] == "A" and first["new_room"] == new_room
    proc_a.kill()  # node A started again under its id: what it made in memory is gone
    proc_a.wait()
    _, url_a = await node("A")
    await asyncio.wait_for(ann.ws.wait_closed(), 10)  # node B drops what it relayed to A's run before
    try:
        ann2, late = await on_node(url_b, lambda client: client.rematch(sa))
        bob2, again = await on_node(url_b, lambda client: client.rematch(sb))
        # the new room's lease (1 s here) may lapse before node A is back: then B takes the room over; either way
        # both seats are seated by the one node serving it
        assert (late["new_room"], late["seat"], again["new_room"], again["seat"]) == (new_room, 1, new_room, 0)
        assert late["node"] == again["node"] in ("A", "B")
        assert late["token"] != first["token"] and again["token"] != ready["token"]
        for old in (first["token"], ready["token"]):  # reissued: the tokens given before stop working
            with pytest.raises(ClientError) as caught:
                await ann2.resume(new_room, old)
            assert caught.value.code == "bad_token"
        await _plays(ann2, Seat(new_room, 1, late["token"]), bob2, Seat(new_room, 0, again["token"]))
        for client in (ann2, bob2):
            await client.close()
    finally:
        for client in (ann, bob, bob_a):
            await client.close()

"""Any node serves any room: players and spectators connected to different nodes share one match, which the
node holding its lease runs; it goes on elsewhere when that node is killed, with nothing acknowledged lost."""
from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from client import Client, ClientError
from client.connection import Seat
from protocol import decode_any
from server.store import keys
from server.store.store import Store
from tests.server.helpers import announced, leaks, play_to_end, play_turn, projection_errors, replay_with_events
from tests.server.nodes import Start, on_node, resume_on


async def _spectate_on(url: str, room: str) -> Client:
    """A spectator on the node at ``url`` (see :func:`on_node`)."""
    client, _ = await on_node(url, lambda client: client.spectate(room), record_frames=True)
    return client


async def _holder(redis_url: str, room: str) -> str | None:
    store = Store(redis_url)
    try:
        held = await store.redis.get(keys.lease(room))
    finally:
        await store.close()
    return held.decode() if held is not None else None


async def test_a_match_across_three_nodes_survives_its_owner_being_killed(node: Start, redis_url: str) -> None:
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    _, url_c = await node("C")
    rng = random.Random(11)
    a1 = await Client.connect(url_a, record_frames=True)
    b1 = await Client.connect(url_b, record_frames=True)
    sa = await a1.create("creature_wars", seed=77)
    assert isinstance(sa, Seat)
    sb = await b1.join(sa.room)  # on node B, the room node A owns
    watcher1 = await _spectate_on(url_c, sa.room)  # on node C
    assert await _holder(redis_url, sa.room) == "A"
    for _ in range(3):
        await play_turn([(a1, sa), (b1, sb)], rng)
    acked = a1.versions[sa.room]
    assert acked > 0 and b1.versions[sa.room] == acked
    await watcher1.wait_view(sa.room, lambda v: v["version"] == acked)
    hand_b = b1.views[sa.room]["hands"][1]["cards"]

    proc_a.kill()  # SIGKILL, mid-match
    proc_a.wait()
    # nodes B and C drop the connections they relayed to the dead node; everyone resumes through B or C
    await asyncio.wait_for(b1.ws.wait_closed(), 10)
    await asyncio.wait_for(watcher1.ws.wait_closed(), 10)
    a2, ra = await resume_on(url_c, sa, record_frames=True)
    b2, rb = await resume_on(url_b, sb, record_frames=True)
    watcher2 = await _spectate_on(url_c, sa.room)
    assert await _holder(redis_url, sa.room) in ("B", "C")
    view = await b2.wait_view(sa.room, lambda v: True)
    assert view["version"] == acked and view["hands"][1]["cards"] == hand_b  # nothing acknowledged lost
    await play_to_end([(a2, ra), (b2, rb)], seed=5)
    final = a2.versions[sa.room]
    await watcher2.wait_view(sa.room, lambda v: v["version"] == final and v["outcome"] is not None)
    for url in (url_b, url_c):  # every node lists it as its new owner publishes it
        assert (await _listed(url, sa.room, lambda r: r["status"] == "over"))["version"] == final

    over = a2.over[sa.room]
    states, events = await replay_with_events(redis_url, sa.room, {}, over["seed"])
    assert max(states) == final and states[final].outcome is not None
    public = announced(watcher1.frames + watcher2.frames)
    for client, seat in ((a1, 0), (a2, 0), (b1, 1), (b2, 1), (watcher1, None), (watcher2, None)):
        assert leaks(client.frames, states, seat, public) == []
        assert projection_errors(client.frames, states, events, seat) == []  # each delta on the view before it
    assert any("delta" in decode_any(f) for c in (b1, watcher1) for f in c.frames), "deltas came through the relay"
    for c in (a1, b1, a2, b2, watcher1, watcher2):
        await c.close()


async def test_two_decisions_for_one_seat_through_two_nodes_at_once_apply_exactly_once(node: Start, redis_url: str) -> None:
    _, url_a = await node("A")
    _, url_b = await node("B")
    _, url_c = await node("C")
    a = await Client.connect(url_a)
    sa = await a.create("creature_wars", seed=78)
    assert isinstance(sa, Seat)
    b = await Client.connect(url_a)
    await b.join(sa.room)
    view = await a.wait_view(sa.room, lambda v: bool(v["legal"]))
    version = view["version"]
    assert len(view["legal"]) >= 2
    on_b, seat_b = await resume_on(url_b, sa)
    on_c, seat_c = await resume_on(url_c, sa)
    first, second = view["legal"][0], view["legal"][1]
    replies = await asyncio.gather(on_b.decide(seat_b, first, version), on_c.decide(seat_c, second, version),
                                   return_exceptions=True)
    refused = [r for r in replies if isinstance(r, ClientError)]
    assert len(refused) == 1, replies
    store = Store(redis_url)
    try:
        log = await store.log(sa.room)
    finally:
        await store.close()
    assert [(r["seat"], r["d"]["kind"]) for r in log] == [(0, first["kind"])]
    assert log[0]["d"] in ({k: v for k, v in d.items() if k not in ("label", "loses")} for d in (first, second))
    for c in (a, b, on_b, on_c):
        await c.close()


async def _listed(url: str, room: str, until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The room as the node at ``url`` lists it, once ``until`` holds (nodes publish each second)."""
    async with await Client.connect(url) as client:
        for _ in range(100):
            found = [r for r in await client.list_rooms() if r["room"] == room]
            if found and until(found[0]):
                return found[0]
            await asyncio.sleep(0.1)
    raise AssertionError(f"room {room} never listed as wanted on {url}")


async def test_every_node_lists_every_room_and_your_rooms(node: Start, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_ADMIN_SECRET", "s" * 16)
    _, url_a = await node("A")
    _, url_b = await node("B")
    _, url_c = await node("C")
    a = await Client.connect(url_a, key="k" * 32)
    sa = await a.create("creature_wars", seed=79)
    assert isinstance(sa, Seat)
    for url in (url_b, url_c):
        shown = await _listed(url, sa.room, lambda r: True)
        assert shown["status"] == "waiting" and shown["taken"] == 1
        assert "owners" not in shown and "created" not in shown
    b = await Client.connect(url_c)
    await b.join(sa.room)
    watcher = await Client.connect(url_b)
    await watcher.spectate(sa.room)
    shown = await _listed(url_b, sa.room, lambda r: r["status"] == "playing" and r["spectators"] == 1)
    assert shown["taken"] == 2
    async with await Client.connect(url_c, key="k" * 32) as again:  # the same player, on another node
        mine = await again.my_rooms()
    assert [(r["room"], r["seat"]) for r in mine] == [(sa.room, 0)]
    async with await Client.connect(url_b) as operator:  # the operator's requests reach the owner too
        shown = (await operator.request("admin", op="show", room=sa.room, secret="s" * 16))["result"]
        assert shown["summary"]["room"] == sa.room and shown["state"]
        everywhere = (await operator.request("admin", op="rooms", secret="s" * 16))["result"]["rooms"]
        assert [(r["room"], r["node"]) for r in everywhere if r["room"] == sa.room] == [(sa.room, "A")]
    for c in (a, b, watcher):
        await c.close()


async def test_a_node_says_it_is_alive_before_it_serves(node: Start, redis_url: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Other nodes end what they serve for a node that does not say it is alive: it must say so from its start,
    not from its first lease renewal (a third of a lease later)."""
    monkeypatch.setenv("CARDROOM_LEASE_MS", "30000")
    await node("A")
    store = Store(redis_url)
    try:
        assert await store.redis.exists(keys.node("A"))
    finally:
        await store.close()


async def test_a_create_room_retried_through_another_node_gets_the_same_room_and_seat(node: Start) -> None:
    """The reply was lost with the connection, and the reconnect reached another node: the retry is answered by
    the node that made the room, not refused as served elsewhere, and makes no second room."""
    _, url_a = await node("A")
    _, url_b = await node("B")
    key = "retrying-player-secret-key-0001"
    async with await Client.connect(url_a, key=key) as first:
        made = await first.request("create_room", game="creature_wars", request="make-1")
    async with await Client.connect(url_b, key=key) as again:
        remade = await again.request("create_room", game="creature_wars", request="make-1")
        assert remade["room"] == made["room"] and remade["commitment"] == made["commitment"]
        seat = await again._granted(remade["re"])
        assert seat.seat == 0
        await again.resume(seat.room, seat.token)


async def test_an_export_of_a_running_match_on_another_node_says_it_runs(node: Start) -> None:
    _, url_a = await node("A")
    _, url_b = await node("B")
    async with await Client.connect(url_a) as host, await Client.connect(url_b) as other:
        seat = await host.create("creature_wars", seed=80)
        assert isinstance(seat, Seat)
        with pytest.raises(ClientError) as refused:
            await other.request("export", room=seat.room)
        assert refused.value.code == "match_running"


async def test_spectators_of_one_node_each_get_every_view_of_a_room_another_node_owns(node: Start) -> None:
    """The owner sends a view its spectators share once per node (with their links): each still gets it."""
    _, url_a = await node("A")
    _, url_b = await node("B")
    a, b = await Client.connect(url_a), await Client.connect(url_a)
    sa = await a.create("creature_wars", seed=81)
    assert isinstance(sa, Seat)
    sb = await b.join(sa.room)
    watchers = [await _spectate_on(url_b, sa.room) for _ in range(3)]
    rng = random.Random(3)
    for _ in range(3):
        await play_turn([(a, sa), (b, sb)], rng)
    final = a.versions[sa.room]
    for watcher in watchers:
        await watcher.wait_view(sa.room, lambda v: v["version"] == final)
        seen = {m["version"] for m in watcher.received() if m.get("t") == "view"}
        assert seen >= set(range(1, final + 1))
    for c in (a, b, *watchers):
        await c.close()


@pytest.mark.parametrize("quiet_first", [False, True])
async def test_a_relayed_player_plays_on_within_seconds_when_the_owner_restarts_under_the_same_id(
        node: Start, redis_url: str, quiet_first: bool) -> None:
    """The room's owner is killed and started again under its id: the new process has none of the old one's
    stand-ins, so the node relaying a player to it must tell the runs apart and have the player resume; also
    when the relaying node saw the owner quiet (its liveness gone, its room's lease not yet) before it came back."""
    proc_a, url_a = await node("A")
    _, url_b = await node("B")
    host = await Client.connect(url_a, name="host")
    guest = await Client.connect(url_b, name="guest")  # relayed to A, which owns the room
    try:
        seat_h = await host.create("creature_wars", seed=12)
        assert isinstance(seat_h, Seat)
        seat_g = await guest.join(seat_h.room)
        await guest.wait_view(seat_g.room, lambda v: bool(v["legal"]))
        proc_a.kill()
        proc_a.wait()
        if quiet_first:
            store = Store(redis_url)
            try:
                await store.redis.delete(keys.node("A"))  # quiet, while the room's lease still says A
                await store.redis.set(keys.lease(seat_h.room), "A", px=3000)
            finally:
                await store.close()
            await asyncio.sleep(0.8)  # sweeps of B's see it so
        _, url_a2 = await node("A")  # the same id: it takes its rooms back at once
        await host.close()
        host, seat_h = await resume_on(url_a2, seat_h)
        lock = (await host.wait_view(seat_h.room, lambda v: bool(v["legal"])))["legal"][0]
        await host.decide(seat_h, lock)
        deadline = asyncio.get_running_loop().time() + 5.0  # the bound: play resumed within 5 s
        while True:
            view = guest.views.get(seat_g.room) or {}
            if view.get("locked", [False])[seat_h.seat]:
                break
            assert asyncio.get_running_loop().time() < deadline, "the relayed player never saw the host's lock"
            if guest._reader.done():  # dropped by its node: reconnect and resume, as the client does
                guest, seat_g = await resume_on(url_b, seat_g)
            await asyncio.sleep(0.05)
        await guest.decide(seat_g, guest.views[seat_g.room]["legal"][0])  # and its requests are answered
        view = await host.wait_view(seat_h.room, lambda v: v["turn"] == 2, timeout=5.0)
        assert view["last_duel"]["turn"] == 1
    finally:
        await host.close()
        await guest.close()

"""A room stores its state every few decisions and its decisions always: a restarted server replays the
log's tail on the last snapshot and serves the very same match."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest
import redis

from client import Client, ClientError
from client.connection import Seat
from client.records import fetch_record
from client.verify import verify
from engine.creature_wars import GAME
from server.rooms import snapshots
from server.store import keys
from tests.server.helpers import play_to_end, play_turn, replay
from tests.server.servers import serving


async def _play_until(players: list[tuple[Client, Seat]], version: int, rng: random.Random) -> None:
    for _ in range(200):
        await play_turn(players, rng)
        first = players[0][0].views[players[0][1].room]
        assert first["outcome"] is None, "the match ended before the version the test needs"
        reached = first["version"]
        if reached >= version:
            await players[1][0].wait_view(players[1][1].room, lambda v, at=reached: bool(v["version"] == at))
            return
    raise AssertionError(f"version {version} not reached")


def _seen(client: Client, room: str) -> dict[str, Any]:
    return dict(client.views[room])


async def _match_at(url: str, version: int) -> tuple[Seat, Seat, tuple[dict[str, Any], dict[str, Any]]]:
    """A Creature Wars match played on ``url`` to ``version`` at least; its seats and what each saw then."""
    a, b = await Client.connect(url), await Client.connect(url)
    sa = await a.create("creature_wars", seed=99)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    await _play_until([(a, sa), (b, sb)], version, random.Random(3))
    seen = _seen(a, sa.room), _seen(b, sb.room)
    await a.close()
    await b.close()
    return sa, sb, seen


async def test_a_restart_replays_the_tail_on_the_last_snapshot(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshots, "EVERY", 4)
    async with serving(redis_url) as url:
        sa, sb, before = await _match_at(url, 10)
    version = before[0]["version"]
    stored = redis.Redis.from_url(redis_url).hgetall(keys.room(sa.room))
    snap = int(stored[b"snap"])
    assert snap == version - version % 4 and snap < version  # a tail to replay
    assert GAME.load(msgpack.unpackb(stored[b"state"], raw=False, strict_map_key=False)).version == snap
    log = [msgpack.unpackb(r, raw=False) for r in redis.Redis.from_url(redis_url).lrange(keys.log(sa.room), 0, -1)]
    assert len(log) == version and stored[b"link"].decode() == log[-1]["c"]
    assert [e["v"] for e in log if "h" in e] == [v for v in range(1, version + 1) if v % 4 == 0]

    async with serving(redis_url) as url:
        a2, b2 = await Client.connect(url), await Client.connect(url)
        ra, rb = await a2.resume(sa.room, sa.token), await b2.resume(sb.room, sb.token)
        await a2.wait_view(sa.room, lambda v: True)
        await b2.wait_view(sb.room, lambda v: True)
        assert (_seen(a2, sa.room), _seen(b2, sb.room)) == before
        await play_to_end([(a2, ra), (b2, rb)], seed=5)
        await a2.close()
        await b2.close()
        verdict = verify(await fetch_record(url, sa.room))
    assert verdict.ok, verdict.message


async def test_a_room_stored_before_snapshots_is_carried_on(redis_url: str) -> None:
    """A room whose hash holds the state of its version and whose log records hold state digests (no links)
    loads as it is, and its next decision marks the state it holds as the snapshot."""
    r = redis.Redis.from_url(redis_url)
    async with serving(redis_url) as url:
        sa, sb, _ = await _match_at(url, 5)
    version = int(r.hget(keys.room(sa.room), "version") or 0)
    states = await replay(redis_url, sa.room, {}, 99)
    key = keys.room(sa.room)
    old = [msgpack.unpackb(x, raw=False) for x in r.lrange(key + ":log", 0, -1)]
    r.delete(key + ":log")
    r.rpush(key + ":log", *(msgpack.packb({"v": e["v"], "seat": e["seat"], "d": e["d"], "ts": e["ts"],
                                           "h": snapshots.digest(msgpack.packb(GAME.dump(states[e["v"]])))})
                            for e in old))
    r.hset(key, "state", msgpack.packb(GAME.dump(states[version])))
    r.hdel(key, "snap", "link")

    async with serving(redis_url) as url:
        a2, b2 = await Client.connect(url), await Client.connect(url)
        ra, rb = await a2.resume(sa.room, sa.token), await b2.resume(sb.room, sb.token)
        assert a2.views[sa.room]["version"] == version
        await play_to_end([(a2, ra), (b2, rb)], seed=5)
        await a2.close()
        await b2.close()
        verdict = verify(await fetch_record(url, sa.room))
    assert verdict.ok, verdict.message
    assert int(r.hget(keys.match(sa.room), "snap") or -1) > version  # the final state was stored whole


async def test_a_log_that_does_not_replay_keeps_only_its_room_from_loading(redis_url: str) -> None:
    r = redis.Redis.from_url(redis_url)
    async with serving(redis_url) as url:
        a, b = await Client.connect(url), await Client.connect(url)
        rooms = []
        for seed in (99, 98):
            sa = await a.create("creature_wars", seed=seed)
            assert not isinstance(sa, str)
            sb = await b.join(sa.room)
            await _play_until([(a, sa), (b, sb)], 3, random.Random(3))
            rooms.append(sa.room)
        await a.close()
        await b.close()
    broken = keys.log(rooms[0])
    entry = msgpack.unpackb(r.lindex(broken, -1), raw=False)
    r.lset(broken, -1, msgpack.packb({**entry, "v": entry["v"] + 7}))
    async with serving(redis_url) as url:
        async with await Client.connect(url) as c:
            listed = [room["room"] for room in await c.list_rooms()]
            with pytest.raises(ClientError) as refused:
                await c.spectate(rooms[0])
    assert listed == [rooms[1]]
    assert refused.value.code == "internal" and "cannot be loaded" in refused.value.message


async def test_a_decision_writes_neither_the_state_nor_the_options(server_url: str, redis_url: str) -> None:
    """A large scenario deck is stored with the room once, not again with every decision: between two snapshots
    a decision writes its log record (and the room's version, clock and link) alone."""
    deck = ["Lvl.3 Fire Giant", "Lvl.2 Serpent", "Lvl.1 Pirate", "Lvl.1 Dragon"] * 130
    r = redis.Redis.from_url(redis_url)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", {"deck": deck}, seed=3)
        assert not isinstance(sa, str)
        await b.join(sa.room)
        key = keys.room(sa.room)
        dealt = r.hget(key, "state")
        assert dealt is not None and len(dealt) > 4000  # the deal holds the scenario deck
        await a.decide(sa, a.views[sa.room]["legal"][0])
        assert r.hget(key, "version") == b"1" and r.hget(key, "snap") == b"0" and r.hget(key, "state") == dealt
        record = r.lindex(key + ":log", 0)
        assert record is not None and len(record) < 200


async def test_a_restart_serves_a_room_asked_for_before_its_warm_up_reaches_it(
        redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rooms load in the background after a restart; one asked for by id is loaded on the spot, and a listing
    waits a while for the rest, then lists what is loaded."""
    from server.lobby import lobby as lobbies

    async with serving(redis_url) as url:
        async with await Client.connect(url) as a, await Client.connect(url) as b:
            seats = []
            for seed in (11, 12, 13):
                sa = await a.create("creature_wars", seed=seed)
                assert not isinstance(sa, str)
                await b.join(sa.room)
                seats.append(sa)
            await a.decide(seats[1], a.views[seats[1].room]["legal"][0])

    async def stalled(self: lobbies.Lobby, ids: list[str]) -> None:
        await asyncio.Event().wait()  # a warm-up that never gets anywhere

    monkeypatch.setattr(lobbies.Lobby, "warm", stalled)
    monkeypatch.setattr(lobbies, "LISTING_WAIT", 0.2)
    async with serving(redis_url) as url:
        async with await Client.connect(url) as again:
            assert await again.list_rooms() == []  # nothing loaded yet, and the listing did not hang
            await again.resume(seats[1].room, seats[1].token)
            view = await again.wait_view(seats[1].room, lambda v: True)
            assert view["version"] == 1 and view["locked"][0]
            assert [r["room"] for r in await again.list_rooms()] == [seats[1].room]

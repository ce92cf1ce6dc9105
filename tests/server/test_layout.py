"""Key layout: a room's keys share one hash slot; data stored under the names before hash tags is moved to the
new names once, at start; what a match's end writes outside its room's slot is written exactly once."""
from __future__ import annotations

import asyncio
import random
from typing import Any

import msgpack
import pytest
import redis
import redis.asyncio as aioredis
from redis.crc import key_slot

import server.lobby.quota
from client import Client
from client.connection import Seat
from protocol import ErrorCode, ProtocolError
from server.lobby.lobby import Lobby
from server.lobby.quota import WAITING, Quota
from server.players import standings
from server.rooms import seeding
from server.store import keys
from server.store.store import OPEN, Store
from tests.server.helpers import LOST_AT_DEAL, play_out, play_to_end, play_turn
from tests.server.players import keyed
from tests.server.servers import serving

QUICK = {"hp": 1}
ANN, BOB = "layout-ann-secret-key-0001", "layout-bob-secret-key-0002"


def _old_name(key: str) -> str | None:
    """The name a key had before hash tags (None: the same)."""
    for new, old in (("cardroom:room:{", "cardroom:room:"), ("cardroom:match:{", "cardroom:match:"),
                     ("cardroom:rating:{", "cardroom:rating:"), ("cardroom:leaders:{", "cardroom:leaders:"),
                     ("cardroom:{names}:name:", "cardroom:name:"), ("cardroom:{names}:look:", "cardroom:look:")):
        if key.startswith(new):
            rest = key[len(new):]
            if new.endswith("{"):
                inner, _, suffix = rest.partition("}")
                return old + inner + suffix
            return old + rest
    if key.startswith("cardroom:quota:{"):
        address, _, kind = key[len("cardroom:quota:{"):].rpartition("}:")
        return f"cardroom:quota:minute:{address}" if kind == "minute" else f"cardroom:quota:held:addr:{address}"
    return None


def as_old_layout(redis_url: str, share: float = 1.0) -> list[str]:
    """Rename (a ``share`` of) the keys to their names before hash tags, as an older server left them; the old names."""
    r = redis.Redis.from_url(redis_url)
    r.delete(keys.LAYOUT)
    moved = []
    for raw in sorted(r.scan_iter(match="cardroom:*")):
        old = _old_name(raw.decode())
        if old is not None and random.Random(raw).random() < share:
            r.rename(raw, old)
            moved.append(old)
    return moved


def snapshot(redis_url: str) -> dict[str, Any]:
    """Every cardroom key with its type and value (leases and node liveness left out: they come and go)."""
    r = redis.Redis.from_url(redis_url)
    out: dict[str, Any] = {}
    for raw in r.scan_iter(match="cardroom:*"):
        key = raw.decode()
        if key.endswith(":lease") or "{nodes}" in key or key.startswith("cardroom:listed:"):
            continue
        kind = r.type(key).decode()
        out[key] = {"string": r.get, "hash": r.hgetall, "list": lambda k: r.lrange(k, 0, -1),
                    "set": r.smembers, "zset": lambda k: r.zrange(k, 0, -1, withscores=True)}[kind](key)
    return out


async def rated(a: Client, b: Client, seed: int) -> Seat:
    """A rated Creature Wars room of ``a`` (seat 0) and ``b``, played to its end; ``a``'s seat."""
    seat = await a.create("creature_wars", QUICK, ranked=True)
    assert isinstance(seat, Seat)
    await play_to_end([(a, seat), (b, await b.join(seat.room))], seed=seed)
    await a.wait_view(seat.room, lambda v: v["outcome"] is not None)
    return seat


def test_a_rooms_keys_share_one_slot() -> None:
    slot = key_slot(keys.room("ab12cd").encode())
    for key in (keys.log("ab12cd"), keys.chat("ab12cd"), keys.lease("ab12cd"), keys.match("ab12cd"),
                keys.match_log("ab12cd"), keys.room_request("ab12cd", "join:p:x")):
        assert key_slot(key.encode()) == slot
    assert key_slot(keys.ratings("creature_wars").encode()) == key_slot(keys.leaders("creature_wars").encode()) \
        == key_slot(keys.rated("creature_wars", "ab12cd").encode())
    assert key_slot(keys.quota_minute("::1").encode()) == key_slot(keys.quota_held("::1").encode())
    assert key_slot(keys.name("alice").encode()) == key_slot(keys.look("alice").encode())
    assert key_slot(keys.node("A").encode()) == key_slot(keys.NODES.encode())


async def test_a_server_started_on_the_old_layout_moves_its_keys_and_play_goes_on(redis_url: str) -> None:
    """A live room, a finished rated match, a ranked solitaire's score and bound names, stored under the names
    before hash tags: a server started on them moves them once, and the live match plays to its end, rated once."""
    async with serving(redis_url) as url:
        a, wa = await keyed(url, "ann", ANN)
        b, _ = await keyed(url, "bob", BOB)
        async with a, b:
            done = await rated(a, b, 3)
            live = await a.create("creature_wars", QUICK, ranked=True)
            assert not isinstance(live, str)
            live_b = await b.join(live.room)
            solo = await a.create("fairy_tableau")
            assert not isinstance(solo, str)
            await a.wait_view(solo.room, lambda v: True)
            await play_out(a, solo, seed=1)
            scores = (await a.request("scores", game="fairy_tableau"))["entries"]
            ratings = (await a.request("ratings", game="creature_wars"))["entries"]
    assert scores and [e["games"] for e in ratings] == [1, 1]
    old = as_old_layout(redis_url)
    assert f"cardroom:room:{live.room}" in old and f"cardroom:match:{done.room}:log" in old
    assert "cardroom:rating:creature_wars" in old and "cardroom:name:ann" in old
    async with serving(redis_url) as url:
        assert not [k for k in old if redis.Redis.from_url(redis_url).exists(k)]  # every old name moved
        a, _ = await keyed(url, "ann", ANN)
        b, _ = await keyed(url, "bob", BOB)
        async with a, b:
            assert (await a.request("scores", game="fairy_tableau"))["entries"] == scores
            assert (await a.request("ratings", game="creature_wars"))["entries"] == ratings
            exported = await a.request("export", room=done.room)
            assert exported["record"]["decisions"] and exported["record"]["outcome"] is not None
            seats = [(a, await a.resume(live.room, live.token)), (b, await b.resume(live.room, live_b.token))]
            rng = random.Random(5)
            for _ in range(400):
                if not await play_turn(seats, rng):
                    break
            await a.wait_view(live.room, lambda v: v["outcome"] is not None)
            after = (await a.request("ratings", game="creature_wars"))["entries"]
            assert [e["games"] for e in after] == [2, 2]
            assert [h["room"] for h in (await a.request("history"))["entries"]] == [live.room, solo.room, done.room]
        with pytest.raises(Exception, match="name"):
            await keyed(url, "ann", "layout-mallory-secret-key-9")  # the moved binding holds
    assert wa["player"]


async def test_moving_the_keys_is_safe_cut_halfway_and_on_two_nodes_at_once(redis_url: str) -> None:
    async with serving(redis_url) as url:
        a, _ = await keyed(url, "ann", ANN)
        b, _ = await keyed(url, "bob", BOB)
        async with a, b:
            await rated(a, b, 4)
            sc = await a.create("creature_wars", QUICK)
            assert not isinstance(sc, str)
            rng = random.Random(2)
            seats = [(a, sc), (b, await b.join(sc.room))]
            for _ in range(3):
                await play_turn(seats, rng)
    expected = snapshot(redis_url)
    as_old_layout(redis_url, share=0.5)  # a run cut halfway: half the keys still under their old names
    r = aioredis.Redis.from_url(redis_url)
    try:
        moved = await asyncio.gather(keys.migrate(r), keys.migrate(r))  # two nodes starting together
        assert sum(moved) > 0 and snapshot(redis_url) == expected
        assert await keys.migrate(r) == 0
    finally:
        await r.aclose()


async def test_a_matchs_end_is_written_elsewhere_once_though_cut_and_repeated(redis_url: str,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of a rated match is stored with what it has to write outside its room's slot; a node stopped
    before writing all of it leaves the room marked, and a node that loads the room writes the rest; writing it
    again (another node at once, a retry) counts nothing twice."""
    async def cut(*args: Any) -> None:
        raise ConnectionError("the node stopped here")

    monkeypatch.setattr(Store, "done", cut)  # the settlement is written, the open set and the mark are not
    async with serving(redis_url) as url:
        a, _ = await keyed(url, "ann", ANN)
        b, _ = await keyed(url, "bob", BOB)
        async with a, b:
            sa = await rated(a, b, 6)
    monkeypatch.undo()
    r = redis.Redis.from_url(redis_url)
    assert r.sismember(OPEN, sa.room) and r.hget(keys.room(sa.room), "out")
    ratings = r.hgetall(keys.ratings("creature_wars"))
    assert len(ratings) == 2
    store = Store(redis_url)
    try:
        lobbies = [Lobby(store), Lobby(store)]
        rooms = await asyncio.gather(*(lobby.find(sa.room) for lobby in lobbies))
        await asyncio.gather(*(lobby.finishing.pop() for lobby in lobbies if lobby.finishing))
        await asyncio.gather(*(room.flush() for room in rooms))
        assert await rooms[0].settle() is False
        assert not r.sismember(OPEN, sa.room) and r.hget(keys.room(sa.room), "out") is None
        assert r.hgetall(keys.ratings("creature_wars")) == ratings
        for player in ratings:
            assert len(r.lrange(f"cardroom:history:{player.decode()}", 0, -1)) == 1
            assert msgpack.unpackb(ratings[player])[3] == 1  # one game rated
        assert await standings.history(store, next(iter(ratings)).decode(), 10)
    finally:
        await store.close()


@pytest.mark.parametrize("lost_at_deal", [False, True])
async def test_a_solitaires_score_is_entered_once_after_a_cut(redis_url: str, monkeypatch: pytest.MonkeyPatch,
                                                              lost_at_deal: bool) -> None:
    """The score's write is cut (the node stops there): the match stands and a restart writes it, once. A deal lost
    at once ends at the seat's claim: the claim still seats the player, as a decision that ends a match stands."""
    async def cut(*args: Any) -> None:
        raise ConnectionError("the node stopped here")

    monkeypatch.setattr(Store, "add_score", cut)
    if lost_at_deal:
        monkeypatch.setattr(seeding, "derive", lambda *_: LOST_AT_DEAL)
    async with serving(redis_url) as url, await Client.connect(url, name="sol") as c:
        seat = await c.create("fairy_tableau")
        assert not isinstance(seat, str)
        await c.wait_view(seat.room, lambda v: True)
        await play_out(c, seat, seed=2)
    monkeypatch.undo()
    r = redis.Redis.from_url(redis_url)
    assert r.sismember(OPEN, seat.room) and not r.exists("cardroom:scores:fairy_tableau:all")
    async with serving(redis_url) as url, await Client.connect(url) as c:  # a restart writes the rest
        for _ in range(100):
            if not r.sismember(OPEN, seat.room):
                break
            await asyncio.sleep(0.05)
        assert not r.sismember(OPEN, seat.room)
        entries = (await c.request("scores", game="fairy_tableau"))["entries"]
        assert [e["room"] for e in entries] == [seat.room]


async def test_a_place_the_players_quota_refuses_is_given_back_to_the_address(redis_url: str) -> None:
    """An address's quotas and a player's lie in different slots, taken one after the other: a player's refusal
    leaves nothing counted against the address it came from."""
    r = aioredis.Redis.from_url(redis_url)
    quota = Quota(r)
    try:
        for n in range(WAITING):  # the player holds its most waiting rooms, made from one address
            async with quota.claim("10.0.0.1", {}, "p1") as place:
                place.room = f"held{n}"
                await r.sadd(OPEN, place.room)
        with pytest.raises(ProtocolError) as refused:
            async with quota.claim("10.0.0.2", {}, "p1"):
                pass
        assert refused.value.code is ErrorCode.TOO_MANY_ROOMS and "you hold" in refused.value.message
        assert await r.zcard(keys.quota_minute("10.0.0.2")) == 0 and await r.zcard(keys.quota_held("10.0.0.2")) == 0
        async with quota.claim("10.0.0.2", {}) as place:  # the address's own quota is whole
            place.room = "guest0"
    finally:
        await r.aclose()


async def test_a_place_is_taken_under_the_rooms_id_and_judged_only_when_it_would_refuse(
        redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A place is held under the id the room is made with (nothing to settle once it is); a held room no node serves
    that was taken a moment ago counts while it is not stored (its making may be under way on another node), and
    stops counting once it is closed, when the next creation would be refused."""
    monkeypatch.setattr(server.lobby.quota, "WAITING", 1)
    r = aioredis.Redis.from_url(redis_url)
    quota = Quota(r)
    try:
        async with quota.claim("10.0.0.3", {}, room="abc123") as place:
            place.room = "abc123"
        assert await r.zrange(keys.quota_held("10.0.0.3"), 0, -1) == [b"abc123"]
        with pytest.raises(ProtocolError) as refused:  # not stored yet: being made, for all this node knows
            async with quota.claim("10.0.0.3", {}, room="def456"):
                pass
        assert refused.value.code is ErrorCode.TOO_MANY_ROOMS and "waiting" in refused.value.message
        await r.hset(keys.room("abc123"), "closed", "cancelled")  # made, then cancelled (its tombstone)
        async with quota.claim("10.0.0.3", {}, room="def456") as place:
            place.room = "def456"
        assert await r.zrange(keys.quota_held("10.0.0.3"), 0, -1) == [b"def456"]
        assert await r.zcard(keys.quota_minute("10.0.0.3")) == 2  # the refused creation left nothing counted
    finally:
        await r.aclose()


async def test_a_new_room_has_no_chat_lines_nor_log_left_under_its_id(redis_url: str) -> None:
    """A room's chat lines are not read from Redis when it is made (there are none): lines or a log an earlier room
    of the same id left (expired a moment after its hash) are dropped as it is stored."""
    store = Store(redis_url)
    try:
        await store.redis.rpush(keys.chat("abc123"), msgpack.packb({"t": "chat", "seat": 0, "text": "old"}))
        await store.redis.rpush(keys.log("abc123"), b"old")
        room = await Lobby(store).create("creature_wars", {}, None, room_id="abc123")
        assert room.id == "abc123" and room.chat is not None and not room.chat
        assert not await store.redis.exists(keys.chat("abc123"), keys.log("abc123"))
    finally:
        await store.close()


async def test_an_open_set_entry_with_no_room_leaves_it_at_the_second_look(redis_url: str) -> None:
    """A room enters the open set before its hash is stored (another slot): an entry whose making was cut, or whose
    room was closed by a node stopped before it left the set, is dropped once two adoption passes found no room."""
    store = Store(redis_url)
    try:
        await store.redis.sadd(OPEN, "ghost")
        lobby = Lobby(store)
        await lobby.adopt_orphans()
        assert await store.redis.sismember(OPEN, "ghost")  # a making under way gets a pass's time
        await lobby.adopt_orphans()
        assert not await store.redis.sismember(OPEN, "ghost")
    finally:
        await store.close()


async def test_a_slow_making_keeps_its_open_set_entry(redis_url: str) -> None:
    """A room whose hash is stored only after two adoption passes found none (a making slowed between its two
    steps) is still in the open set once made, so a restart or another node finds it."""
    store = Store(redis_url)
    maker = Lobby(store, node="A")
    looker = Lobby(store, node="B")
    release = asyncio.Event()
    create = store._create

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await release.wait()
        return await create(*args, **kwargs)

    try:
        store.one_node = False  # its steps as on a Redis Cluster (on one Redis the entry and the hash are one step)
        store._create = slow  # type: ignore[method-assign]
        making = asyncio.create_task(maker.create("creature_wars", {}, None))
        while not await store.redis.scard(OPEN):
            await asyncio.sleep(0.01)
        await looker.adopt_orphans()
        await looker.adopt_orphans()  # twice no hash: the entry is dropped
        release.set()
        room = await asyncio.wait_for(making, 10)
        assert await store.redis.sismember(OPEN, room.id)
        assert room.id in await store.open_ids()
    finally:
        await store.close()

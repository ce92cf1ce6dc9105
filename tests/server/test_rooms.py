"""Rooms that come and go: cancel, expiry of waiting rooms, finished rooms retired and archived, ended matches found again."""
from __future__ import annotations

import asyncio

import msgpack
import pytest
import redis

from client import Client, ClientError
from client.connection import Seat
from engine.creature_wars import GAME
from server.lobby import expiry, listing
from server.rooms import seeding
from server.store import keys
from server.store.store import LIVE_TTL, RECORD_TTL, RoomRecord, Store
from tests.server.helpers import OVER_AT_DEAL
from tests.server.servers import QUICK, finished_match, serving


@pytest.fixture(autouse=True)
def sweep_fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sweep every few milliseconds (before the server starts); what it sweeps stays governed by the other constants."""
    monkeypatch.setattr(expiry, "SWEEP_EVERY", 0.02)


async def _code(call: object) -> str:
    with pytest.raises(ClientError) as caught:
        await call  # type: ignore[misc]
    return caught.value.code


async def test_cancel_a_waiting_room(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url, name="ann", record_frames=True)
    w = await Client.connect(server_url, record_frames=True)
    other = await Client.connect(server_url)
    try:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        await w.spectate(sa.room)
        reply = await a.cancel(sa)
        assert reply["t"] == "room_closed" and reply["room"] == sa.room and reply["reason"] == "cancelled"
        pushed = await w.wait_message(lambda m: m["t"] == "room_closed")
        assert pushed == {"t": "room_closed", "room": sa.room, "reason": "cancelled", "re": None}
        assert [m for m in a.received() if m["t"] == "room_closed"] == [reply]  # once, as the reply
        assert sa.room not in {r["room"] for r in await other.list_rooms()}
        assert await _code(other.join(sa.room)) == "room_closed"
        assert await _code(other.spectate(sa.room)) == "room_closed"
        assert await _code(other.resume(sa.room, sa.token)) == "room_closed"
        assert await _code(a.chat(sa.room, "still here?")) in ("room_closed", "unknown_room")
        r = redis.Redis.from_url(redis_url)
        assert r.hgetall(keys.room(sa.room)) == {b"closed": b"cancelled"}
        assert 0 < r.ttl(keys.room(sa.room)) <= LIVE_TTL
        assert not r.sismember("cardroom:open", sa.room)
    finally:
        for c in (a, w, other):
            await c.close()
    # a serving server knows it was cancelled
    async with serving(redis_url) as url, await Client.connect(url) as c:
        assert await _code(c.join(sa.room)) == "room_closed"


async def test_cannot_cancel_a_running_match_or_without_a_seat(server_url: str) -> None:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url, record_frames=True)
    w = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", seed=3)
        assert not isinstance(sa, str)
        waiting = await a.create("creature_wars")
        assert not isinstance(waiting, str)
        await w.spectate(waiting.room)
        # a spectator, holding no seat, cannot cancel the waiting room
        assert await _code(w.request("cancel", room=waiting.room, token="not-a-seat-token")) == "cannot_cancel"
        sb = await b.join(sa.room)
        assert await _code(a.cancel(sa)) == "cannot_cancel"
        assert await _code(b.cancel(sb)) == "cannot_cancel"
        assert not [m for m in b.received() + w.received() if m["t"] == "room_closed"]
        listed = {r["room"]: r["status"] for r in await a.list_rooms()}
        assert listed == {sa.room: "playing", waiting.room: "waiting"}
        # the match plays on
        before = a.versions[sa.room]
        await a.decide(sa, a.views[sa.room]["legal"][0])
        assert a.versions[sa.room] == before + 1
    finally:
        for c in (a, b, w):
            await c.close()


async def test_a_waiting_room_nobody_joins_expires(server_url: str, redis_url: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url)
    w = await Client.connect(server_url, record_frames=True)
    try:
        playing = await a.create("creature_wars", seed=1)
        assert not isinstance(playing, str)
        await b.join(playing.room)
        lonely = await a.create("creature_wars")
        assert not isinstance(lonely, str)
        await w.spectate(lonely.room)
        monkeypatch.setattr(expiry, "WAITING_TTL", 0.0)  # every room is now older than that
        for client in (a, w):
            closed = await client.wait_message(lambda m: m["t"] == "room_closed")
            assert closed == {"t": "room_closed", "room": lonely.room, "reason": "expired", "re": None}
        assert {r["room"] for r in await b.list_rooms()} == {playing.room}
        assert await _code(b.spectate(lonely.room)) == "room_closed"
        assert redis.Redis.from_url(redis_url).hget(keys.room(lonely.room), "closed") == b"expired"
        await a.decide(playing, a.views[playing.room]["legal"][0])  # the full room was not touched
    finally:
        for c in (a, b, w):
            await c.close()


async def test_finished_rooms_leave_the_listing_and_keep_a_match_record(
        server_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a, sa, b, _sb = await finished_match(server_url)
    try:
        listed = {r["room"]: r for r in await a.list_rooms()}
        assert listed[sa.room]["status"] == "over"
        assert listed[sa.room]["players"] == ["ann", "bob"]
        assert listed[sa.room]["game"] == "creature_wars" and listed[sa.room]["clock"] == {"move": 30, "bank": 60, "increment": 0}
        assert listed[sa.room]["spectators"] == 0
        monkeypatch.setattr(listing, "LISTED_AFTER_END", 0.0)
        assert sa.room not in {r["room"] for r in await a.list_rooms()}
        r = redis.Redis.from_url(redis_url)
        key = keys.room(sa.room)
        for live in (key, key + ":log"):
            assert 0 < r.ttl(live) <= LIVE_TTL
        assert LIVE_TTL < r.ttl(keys.match(sa.room)) <= RECORD_TTL
        assert LIVE_TTL < r.ttl(keys.match_log(sa.room)) <= RECORD_TTL
        store = Store(redis_url)
        try:
            record = await store.match(sa.room)
            log = await store.log(sa.room)
        finally:
            await store.close()
        assert record is not None
        over = a.over[sa.room]
        assert record["game"] == "creature_wars" and record["options"] == QUICK
        assert int(record["seed"]) == over["seed"] and record["commitment"] == over["commitment"]
        assert (record["name:0"], record["name:1"]) == ("ann", "bob")
        assert record["outcome"] == over["outcome"]
        assert record["log"] == log and len(log) == int(record["version"])
        assert not any(k.startswith("seat:") for k in record)  # no token hashes in the record
        assert msgpack.unpackb(r.hget(key, "options")) == QUICK
    finally:
        await a.close()
        await b.close()


async def test_a_seat_leaving_or_coming_back_after_the_match_is_told_to_the_room(server_url: str) -> None:
    """``presence`` after the match too: a player waiting for a rematch learns that the other has gone (or is back)."""
    a, sa, b, sb = await finished_match(server_url)
    try:
        told = a.presence.setdefault(sa.room, {})
        await b.leave(sb.room)
        await a.wait_for(lambda: told.get(sb.seat) is False)
        await b.resume(sb.room, sb.token)
        await a.wait_for(lambda: told.get(sb.seat) is True)
    finally:
        await a.close()
        await b.close()


async def test_a_match_over_at_the_deal_tells_its_result_to_the_seat_that_waited(
        server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last claim deals the match and the deal may end it: the seat that sat first, already watching, gets the
    result as the seat whose claim dealt it does."""
    assert GAME.outcome(GAME.setup(QUICK, OVER_AT_DEAL)) is not None
    monkeypatch.setattr(seeding, "derive", lambda *_: OVER_AT_DEAL)
    async with await Client.connect(server_url, name="ann") as ann, await Client.connect(server_url, name="bob") as bob:
        sa = await ann.create("creature_wars", QUICK)
        assert isinstance(sa, Seat)
        await bob.join(sa.room)
        for client in (bob, ann):
            await client.wait_for(lambda c=client: sa.room in c.over, timeout=5)  # type: ignore[misc]
            assert client.over[sa.room]["outcome"]["reason"] == "knockout"
        assert ann.views[sa.room]["version"] == 0


async def test_a_seat_resuming_an_ended_match_gets_the_result(server_url: str, redis_url: str) -> None:
    a, sa, b, _sb = await finished_match(server_url)
    over = a.over[sa.room]
    final = a.views[sa.room]
    await a.close()
    await b.close()
    # a serving server reloads only unfinished rooms: the ended one is loaded on demand
    async with serving(redis_url) as url:
        a2 = await Client.connect(url, record_frames=True)
        late = await Client.connect(url, record_frames=True)
        try:
            assert sa.room not in {r["room"] for r in await a2.list_rooms()}
            seat = await a2.resume(sa.room, sa.token)
            assert seat.seat == sa.seat
            got = await a2.wait_message(lambda m: m["t"] == "match_over")
            assert got["outcome"] == over["outcome"] and got["seed"] == over["seed"]
            kinds = [m["t"] for m in a2.received()]
            assert kinds[-4:] == ["seat_granted", "presence", "view", "match_over"]  # its seat is back
            back = next(m for m in a2.received() if m["t"] == "presence")
            assert (back["seat"], back["connected"]) == (sa.seat, True)
            assert a2.views[sa.room] == final
            # joining it (no seat left) shows the result to a late comer as a spectator
            reply = await late.request("join", room=sa.room)
            assert reply["t"] == "spectating"
            await late.wait_message(lambda m: m["t"] == "match_over")
            assert late.views[sa.room]["outcome"] == final["outcome"]
            assert await _code(late.request("decide", room=sa.room, token=sa.token, version=0,
                                            decision={"kind": "pass"})) == "match_over"
        finally:
            await a2.close()
            await late.close()


async def test_unknown_rooms_stay_unknown(server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        assert await _code(c.spectate("nosuch")) == "unknown_room"
        assert await _code(c.request("cancel", room="nosuch", token="t")) == "unknown_room"


async def test_a_match_ended_outside_a_decision_is_archived_once(redis_url: str) -> None:
    """The sweep's fallback (Store.finish): same record and expiries as a final decision, written once."""
    store = Store(redis_url)
    try:
        record = RoomRecord(room="r1", game="creature_wars", options=QUICK, seed=7, commitment="c", created=1.0,
                            version=0, state={"x": 1}, seats=(None, None), names=("ann", "bob"))
        assert await store.create(record)
        assert await store.claim("r1", 0, "hash0", "ann")
        outcome = {"winner": 1, "reason": "knockout", "scores": [0, 1], "detail": ""}
        assert await store.finish("r1", outcome)
        assert not await store.finish("r1", outcome)
        assert not await store.finish("nosuch", outcome)
        kept = await store.match("r1")
        assert kept is not None and kept["outcome"] == outcome and kept["name:0"] == "ann" and kept["log"] == []
        assert not any(k.startswith("seat:") for k in kept)
        loaded = await store.load("r1")
        assert loaded is not None and loaded.ended is not None
        r = redis.Redis.from_url(redis_url)
        out = await store.outbox("r1")  # what remains to write elsewhere: the open set, then nothing more
        assert out and loaded.out == out and r.sismember("cardroom:open", "r1")
        await store.done("r1", out)
        assert not r.sismember("cardroom:open", "r1") and not await store.outbox("r1")
        assert 0 < r.ttl(keys.room("r1")) <= LIVE_TTL < r.ttl(keys.match("r1")) <= RECORD_TTL
    finally:
        await store.close()


async def test_a_burst_of_store_requests_waits_for_connections(redis_url: str) -> None:
    """More requests at once than the pool has connections are served in turn, not refused."""
    from server.store.store import POOL

    store = Store(redis_url)
    try:
        versions = await asyncio.gather(*(store.version(f"nosuch{n}") for n in range(4 * POOL)))
    finally:
        await store.close()
    assert versions == [None] * (4 * POOL)


async def test_a_waiting_room_its_players_abandoned_is_closed(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed client leaves a waiting room nobody would be seated against: a minute later (here a moment)
    the room is closed as abandoned; a room whose player is still there stays."""
    monkeypatch.setattr(expiry, "ABANDONED_AFTER", 0.3)
    gone = await Client.connect(server_url, name="gone")
    here = await Client.connect(server_url, name="here")
    w = await Client.connect(server_url, record_frames=True)
    try:
        left = await gone.create("creature_wars")
        stays = await here.create("creature_wars")
        assert not isinstance(left, str) and not isinstance(stays, str)
        await w.spectate(left.room)
        await gone.close()  # its terminal closed: the seat is away from now on
        closed = await w.wait_message(lambda m: m["t"] == "room_closed", timeout=5)
        assert closed == {"t": "room_closed", "room": left.room, "reason": "abandoned", "re": None}
        await asyncio.sleep(0.5)
        assert {r["room"] for r in await w.list_rooms()} == {stays.room}, "the room its player still holds stays"
    finally:
        for c in (here, w):
            await c.close()


async def test_a_room_whose_making_was_cut_before_its_creator_sat_is_closed(redis_url: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A node that stops between storing a new room and seating its creator leaves a room nobody sits in: the
    node serving it next closes it as abandoned a minute (here a moment) after its making, not ten minutes
    later; a room made to be joined without its creator (``sit`` false) stays."""
    from protocol import ErrorCode, ProtocolError
    from server.edge.session import Session

    async def cut(*args: object, **kwargs: object) -> None:
        raise ProtocolError(ErrorCode.UNAVAILABLE, "the node stopped here")

    async with serving(redis_url) as url:
        c = await Client.connect(url, name="cut")
        try:
            with monkeypatch.context() as patched:
                patched.setattr(Session, "sit", cut)
                with pytest.raises(ClientError):
                    await c.create("creature_wars")
            kept = await c.create("creature_wars", sit=False)
        finally:
            await c.close()
    r = redis.Redis.from_url(redis_url)
    cut_room = next(m.decode() for m in r.smembers("cardroom:open") if m.decode() != kept)
    assert r.hget(keys.room(cut_room), "seat:0") is None
    monkeypatch.setattr(expiry, "ABANDONED_AFTER", 0.3)
    async with serving(redis_url) as url:  # the node after a restart
        w = await Client.connect(url)
        try:
            for _ in range(250):
                if not r.sismember("cardroom:open", cut_room):
                    break
                await asyncio.sleep(0.02)
            assert r.hget(keys.room(cut_room), "closed") == b"abandoned"
            assert [room["room"] for room in await w.list_rooms()] == [kept]
        finally:
            await w.close()

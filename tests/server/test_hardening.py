"""Abuse that costs nothing to send is refused before it costs the server or the store anything."""
from __future__ import annotations

import asyncio
import hashlib

import pytest

import server.lobby.quota
from client import Client, ClientError
from server.lobby import lobby
from server.lobby.lobby import today
from server.store.store import DAILY_SECRET, Store


async def stored(redis_url: str, room: str) -> list[dict[str, object]]:
    store = Store(redis_url)
    try:
        return await store.log(room)
    finally:
        await store.close()


async def test_decisions_carry_no_baggage_into_the_log(server_url: str, redis_url: str) -> None:
    """Unknown fields are refused with bad_field naming them; display-only fields are not stored."""
    async with await Client.connect(server_url) as a:
        sa = await a.create("fairy_tableau", seed=3)
        assert not isinstance(sa, str)
        view = a.views[sa.room]
        legal = dict(view["legal"][0])
        with pytest.raises(ClientError) as refused:
            await a.decide(sa, {**legal, "pad": "x" * 60_000})
        assert refused.value.code == "bad_field" and "'pad'" in refused.value.message
        assert await stored(redis_url, sa.room) == []
        assert a.views[sa.room]["version"] == view["version"]
        await a.decide(sa, {**legal, "label": "shown to people", "loses": False})
        (record,) = await stored(redis_url, sa.room)
        assert record["d"] == {k: v for k, v in legal.items() if k not in ("label", "loses")}


async def test_the_daily_deal_cannot_be_computed_in_advance(server_url: str, redis_url: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The daily seed is an HMAC keyed by a secret made once and kept in Redis, not a hash of a public string."""
    monkeypatch.setattr(lobby, "DAILY_PER_ADDRESS", 2)  # two players from one (loopback) address
    async with await Client.connect(server_url, key="first-daily-player-key") as a, \
            await Client.connect(server_url, key="second-daily-player-key") as b:
        seat = await a.create("queens_challenge", daily=True)
        assert not isinstance(seat, str)
        again = await b.create("queens_challenge", daily=True)
        assert not isinstance(again, str)
    public = int.from_bytes(hashlib.sha256(f"cardroom:daily:queens_challenge:{today()}".encode()).digest()[:8],
                            "big") >> 1
    store = Store(redis_url)
    try:
        record = await store.load(seat.room)
        other = await store.load(again.room)
        secret = await store.redis.get(DAILY_SECRET)
    finally:
        await store.close()
    assert record is not None and other is not None
    assert record.seed == other.seed != public
    assert secret is not None and len(secret) == 32


async def test_scenario_options_are_bounded(server_url: str) -> None:
    """Options are stored with the room: a huge scenario deck is refused with bad_options, naming the limit."""
    async with await Client.connect(server_url) as a:
        deck = ["Lvl.3 Fire Giant"] * 1000
        with pytest.raises(ClientError) as refused:
            await a.request("create_room", game="creature_wars", options={"deck": deck})
        assert refused.value.code == "bad_options" and "8192" in refused.value.message
        assert await a.list_rooms() == []


async def test_rooms_per_address_are_capped(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting rooms held and rooms made per minute by one address are capped; other requests carry on."""
    monkeypatch.setattr(server.lobby.quota, "WAITING", 2)
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 3)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        first = await a.create("creature_wars")
        await a.create("creature_wars")
        with pytest.raises(ClientError) as held:
            await b.create("creature_wars")  # the same address, another connection
        assert held.value.code == "too_many_rooms" and "waiting" in held.value.message
        assert not isinstance(first, str)
        await b.join(first.room)  # one room fills: a place frees
        await b.create("fairy_tableau")
        with pytest.raises(ClientError) as fast:
            await b.create("fairy_tableau")
        assert fast.value.code == "too_many_rooms" and "a minute" in fast.value.message
        assert len(await a.list_rooms()) == 3


async def test_a_node_caps_its_rooms_and_spectators(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.lobby.quota, "MAX_ROOMS", 1)
    monkeypatch.setattr(server.lobby.quota, "MAX_SPECTATORS", 1)
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        seat = await a.create("queens_challenge")
        assert not isinstance(seat, str)
        with pytest.raises(ClientError) as full:
            await a.create("queens_challenge")
        assert full.value.code == "server_full"
        await a.spectate(seat.room)
        with pytest.raises(ClientError) as watching:
            await b.spectate(seat.room)
        assert watching.value.code == "server_full"
        await a.leave(seat.room)  # the node's count follows its rooms' spectators as they come and go
        await b.spectate(seat.room)
    async with await Client.connect(server_url) as c:  # b's closed connection stops counting once the node sees it
        for _ in range(100):
            try:
                await c.spectate(seat.room)
                break
            except ClientError as exc:
                assert exc.code == "server_full"
                await asyncio.sleep(0.05)
        assert c.versions.get(seat.room) is not None


async def test_a_repeated_lock_in_is_acknowledged_not_refused(server_url: str, redis_url: str) -> None:
    """A sealed play sent twice against the same version (its reply lost, say) is stored once and acknowledged twice,
    while a different play after locking in is still refused."""
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars", seed=5)
        assert not isinstance(sa, str)
        await b.join(sa.room)
        version = a.versions[sa.room]
        play = dict(a.views[sa.room]["legal"][0])
        first = await a.decide(sa, play, version)
        again = await a.decide(sa, play, version)
        assert again["version"] == first["version"] == version + 1
        with pytest.raises(ClientError) as refused:
            await a.decide(sa, {**play, "slot": (play["slot"] + 1) % 5}, version)
        assert refused.value.code == "not_your_turn"
        assert len(await stored(redis_url, sa.room)) == 1

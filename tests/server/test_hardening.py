"""Abuse that costs nothing to send is refused before it costs the server or the store anything."""
from __future__ import annotations

import hashlib

import pytest

from client import Client, ClientError
from server.lobby import today
from server.store import DAILY_SECRET, Store


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


async def test_the_daily_deal_cannot_be_computed_in_advance(server_url: str, redis_url: str) -> None:
    """The daily seed is an HMAC keyed by a secret made once and kept in Redis, not a hash of a public string."""
    async with await Client.connect(server_url) as a:
        seat = await a.create("queens_challenge", daily=True)
        assert not isinstance(seat, str)
        again = await a.create("queens_challenge", daily=True)
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

"""Abuse that costs nothing to send is refused before it costs the server or the store anything."""
from __future__ import annotations

import pytest

from client import Client, ClientError
from server.store import Store


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

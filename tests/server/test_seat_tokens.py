"""A seat token is hashed once per connection that plays with it, not at each decision; a wrong one is still
refused, and another connection with the same token is served as before."""
from __future__ import annotations

import random

import pytest

from client import Client, ClientError
from server.rooms import room as room_module
from tests.server.helpers import play_turn


async def test_a_connection_hashes_its_seat_token_once(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[str] = []
    real = room_module.hash_token
    monkeypatch.setattr(room_module, "hash_token", lambda token: hashed.append(token) or real(token))
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        hashed.clear()
        rng = random.Random(4)
        decided = 0
        while decided < 6:
            before = a.versions.get(sa.room, 0)
            assert await play_turn([(a, sa), (b, sb)], rng), "the match ended first"
            await a.wait_view(sa.room, lambda view, before=before: view["version"] > before)
            decided = a.versions[sa.room]
        assert sorted(hashed) == sorted([sa.token, sb.token]), f"{len(hashed)} hashes for {decided} decisions"
        with pytest.raises(ClientError) as caught:
            await a.request("decide", room=sa.room, token="x" * 32, version=0, decision={"kind": "play", "slot": 0})
        assert caught.value.code == "bad_token"

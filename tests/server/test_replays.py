"""The ``replays`` room setting: a players-only room's record is refused to anyone who held no seat in it."""
from __future__ import annotations

import random

import pytest

from client import Client, ClientError
from client.verify import verify
from tests.server.helpers import play_to_end
from tests.server.servers import QUICK

KEY_A = "a" * 32
KEY_B = "b" * 32
KEY_C = "c" * 32


async def refused(client: Client, room: str, **fields: str) -> str:
    """The error code an ``export`` of ``room`` gets."""
    with pytest.raises(ClientError) as caught:
        await client.request("export", room=room, **fields)
    return caught.value.code


async def test_a_players_only_replay_is_refused_to_everyone_else(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann", key=KEY_A) as a, \
            await Client.connect(server_url, name="bob") as b, \
            await Client.connect(server_url, name="cid", key=KEY_C) as c, \
            await Client.connect(server_url) as guest:
        sa = await a.create("creature_wars", QUICK, replays="players")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        assert {r["room"]: r for r in await guest.list_rooms()}[sa.room]["replays"] == "players"
        # during the match nobody gets the record, not even a seated player with its token
        assert await refused(a, sa.room, token=sa.token) == "match_running"
        assert await refused(guest, sa.room) == "match_running"
        await play_to_end([(a, sa), (b, sb)], seed=random.Random(3).randrange(1000))
        await b.wait_view(sb.room, lambda v: v["outcome"] is not None)

        mine = (await a.request("export", room=sa.room))["record"]  # by the key the seat was held with
        assert mine["replays"] == "players" and verify(mine).ok
        by_token = (await guest.request("export", room=sa.room, token=sb.token))["record"]  # bob is a guest: his token
        assert by_token["decisions"] == mine["decisions"]
        assert await refused(guest, sa.room) == "replay_private"
        assert await refused(c, sa.room) == "replay_private"  # a key, but not one that sat here
        assert await refused(b, sa.room) == "replay_private"  # a guest without the token proves nothing
        assert await refused(guest, sa.room, token="x" * 32) == "replay_private"


async def test_everyone_may_replay_by_default_and_a_bad_setting_is_refused(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b, \
            await Client.connect(server_url) as guest:
        with pytest.raises(ClientError) as caught:
            await a.create("creature_wars", QUICK, replays="friends")
        assert caught.value.code == "bad_field" and "replays" in caught.value.message
        sa = await a.create("creature_wars", QUICK)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=4)
        await b.wait_view(sb.room, lambda v: v["outcome"] is not None)
        record = (await guest.request("export", room=sa.room))["record"]
        assert record["replays"] == "everyone" and verify(record).ok


async def test_a_rematch_keeps_the_replay_setting(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann", key=KEY_A) as a, \
            await Client.connect(server_url, name="bob", key=KEY_B) as b, await Client.connect(server_url) as guest:
        sa = await a.create("creature_wars", QUICK, replays="players")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=6)
        await b.wait_view(sb.room, lambda v: v["outcome"] is not None)
        await a.rematch(sa)
        ready = await b.rematch(sb)
        new_room = ready["new_room"]
        assert {r["room"]: r for r in await guest.list_rooms()}[new_room]["replays"] == "players"

"""The ``replays`` room setting: a players-only room's record is refused to anyone who held no seat in it."""
from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest
import redis.asyncio as aioredis

from client import Client, ClientError
from client.replay import Replay
from client.verify import verify
from server.lobby.replay_pages import MOST, STEPS
from server.store import keys
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


async def replay_refused(client: Client, room: str, **fields: Any) -> str:
    """The error code a ``replay`` of ``room`` gets."""
    with pytest.raises(ClientError) as caught:
        await client.request("replay", room=room, **fields)
    return caught.value.code


async def replay_steps(client: Client, room: str, limit: int, **fields: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every page of ``room``'s replay, ``limit`` steps a page, followed by ``next``: the first page and all steps."""
    first = page = await client.request("replay", room=room, limit=limit, **fields)
    steps = list(page["steps"])
    while page["next"] is not None:
        assert len(page["steps"]) == limit
        page = await client.request("replay", room=room, start=page["next"], limit=limit, **fields)
        steps += page["steps"]
    return first, steps


def wire(value: Any) -> Any:
    """``value`` as it comes off the wire (tuples become lists)."""
    return msgpack.unpackb(msgpack.packb(value))


async def test_a_finished_match_replays_as_views_every_step_paged(server_url: str) -> None:
    options = {"hp": 10}
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b, \
            await Client.connect(server_url) as guest:
        sa = await a.create("creature_wars", options)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        assert await replay_refused(guest, sa.room) == "match_running"
        assert await replay_refused(a, sa.room, token=sa.token) == "match_running"
        await guest.spectate(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=11)
        ends = [await c.wait_view(sa.room, lambda v: v["outcome"] is not None) for c in (guest, a, b)]

        record = (await guest.request("export", room=sa.room))["record"]
        replay = Replay(record)
        first, steps = await replay_steps(guest, sa.room, 3)
        assert first["game"] == "creature_wars" and first["seats"] == 2 and first["names"] == ["ann", "bob"]
        assert first["last"] == replay.last == len(record["decisions"]) and first["outcome"] == record["outcome"]
        assert first["marks"] == list(replay.marks())
        assert [s["step"] for s in steps] == list(range(replay.last + 1)), "every step, once, in order"
        assert [s["version"] for s in steps] == [replay.game.version(s.state) for s in replay.steps]
        for got, step in zip(steps, replay.steps, strict=True):
            assert got["seat"] == step.seat and got["label"] == step.label and got["mark"] == step.mark
            assert got["views"] == wire([replay.view(step.number, v) for v in (None, 0, 1)])
            assert got["events"] == wire([replay.events(step.number, v) for v in (None, 0, 1)])
        assert steps[-1]["views"] == ends, "the last step is the end state as the spectator and each seat saw it"
        assert steps[0]["seat"] is None and steps[0]["events"] == [[], [], []]

        # the pages' bounds: a step past the last, or a limit outside 1..MOST, is bad_field
        for fields in ({"start": -1}, {"start": replay.last + 1}, {"limit": 0}, {"limit": MOST + 1}, {"limit": "2"},
                       {"start": True}):
            assert await replay_refused(guest, sa.room, **fields) == "bad_field", fields
        default = await guest.request("replay", room=sa.room, start=replay.last)
        assert [s["step"] for s in default["steps"]] == [replay.last] and default["next"] is None
        assert len((await guest.request("replay", room=sa.room))["steps"]) == min(STEPS, replay.last + 1)
        assert await replay_refused(guest, "nosuchroom") == "unknown_room"


async def test_a_players_only_replay_and_a_daily_deal_are_refused_as_export_is(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann", key=KEY_A) as a, \
            await Client.connect(server_url, name="bob") as b, \
            await Client.connect(server_url, name="cid", key=KEY_C) as c, \
            await Client.connect(server_url) as guest:
        sa = await a.create("fairy_meat", replays="players")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=5)
        end = await b.wait_view(sb.room, lambda v: v["outcome"] is not None)
        assert await replay_refused(guest, sa.room) == "replay_private"
        assert await replay_refused(c, sa.room) == "replay_private"
        assert await replay_refused(guest, sa.room, token="x" * 32) == "replay_private"
        _, mine = await replay_steps(a, sa.room, MOST)  # by key
        _, theirs = await replay_steps(guest, sa.room, MOST, token=sb.token)  # a guest's seat token
        assert mine == theirs and mine[-1]["views"][2] == end

        daily = await c.create("queens_challenge", daily=True)
        assert not isinstance(daily, str)
        await c.resign(daily)
        await c.wait_view(daily.room, lambda v: v["outcome"] is not None)
        assert await replay_refused(c, daily.room) == "day_not_over"


async def test_a_record_these_rules_do_not_replay_is_refused_with_its_own_code(server_url: str, redis_url: str) -> None:
    """A stored record whose decision the rules refuse (played under other rules, or changed in the store) is
    ``record_unreplayable``, naming the decision, not an internal fault; ``export`` still gives it as stored."""
    async with await Client.connect(server_url, name="ann") as a, await Client.connect(server_url, name="bob") as b:
        sa = await a.create("creature_wars", {"hp": 10})
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=5)
        await a.wait_view(sa.room, lambda v: v["outcome"] is not None)
        store = aioredis.Redis.from_url(redis_url)
        try:
            first = msgpack.unpackb(await store.lindex(keys.match_log(sa.room), 0), raw=False)
            first["d"] = {"kind": "play", "slot": 99}
            await store.lset(keys.match_log(sa.room), 0, msgpack.packb(first))
        finally:
            await store.aclose()
        with pytest.raises(ClientError) as caught:
            await a.request("replay", room=sa.room)
        assert caught.value.code == "record_unreplayable" and "decision 1" in caught.value.message, caught.value
        assert (await a.request("export", room=sa.room))["record"]["decisions"][0]["d"] == {"kind": "play", "slot": 99}

"""Rematch: both seats agree after the end, a new room with seats swapped; asking during a match changes nothing."""
from __future__ import annotations

import pytest

from client import Client, ClientError
from tests.server.servers import QUICK, finished_match


async def test_both_accept_a_new_room_with_seats_swapped(server_url: str) -> None:
    a, sa, b, sb = await finished_match(server_url, record=True)
    w = await Client.connect(server_url, record_frames=True)
    try:
        await w.spectate(sa.room)
        old = {r["room"]: r for r in await w.list_rooms()}[sa.room]
        offered = await a.rematch(sa)
        assert offered == {"t": "rematch_offered", "room": sa.room, "seat": 0, "re": offered["re"]}
        for client in (b, w):
            pushed = await client.wait_message(lambda m: m["t"] == "rematch_offered")
            assert (pushed["room"], pushed["seat"], pushed["re"]) == (sa.room, 0, None)
        ready = await b.rematch(sb)
        assert ready["t"] == "rematch_ready" and ready["room"] == sa.room and ready["seat"] == 0
        new_room = ready["new_room"]
        got = {a: await a.wait_message(lambda m: m["t"] == "rematch_ready")}
        for client in (a, b):
            await client.wait_view(new_room, lambda v: v["outcome"] is None)
        # ann got ann's new seat, pushed (bob's old seat 1 became 0, ann's 0 became 1)
        assert got[a]["seat"] == 1 and got[a]["new_room"] == new_room and got[a]["re"] is None
        assert got[a]["token"] != ready["token"]
        assert not [m for m in w.received() if m["t"] == "rematch_ready"]
        # the new room: same game and options, seats swapped, a new seed behind a new commitment
        listed = {r["room"]: r for r in await w.list_rooms()}[new_room]
        assert listed["game"] == "creature_wars" and listed["players"] == ["bob", "ann"]
        assert listed["status"] == "playing" and listed["commitment"] != old["commitment"]
        assert listed["spectator_chat"] == old["spectator_chat"] and listed["clock"] == old["clock"]
        assert a.views[new_room]["hp"] == [QUICK["hp"], QUICK["hp"]]
        # the tokens work: resume on a fresh connection and play
        async with await Client.connect(server_url) as fresh:
            seat = await fresh.resume(new_room, got[a]["token"])
            assert seat.seat == 1
        mover, token = (b, ready["token"]) if b.views[new_room]["legal"] else (a, got[a]["token"])
        reply = await mover.request("decide", room=new_room, token=token, version=mover.versions[new_room],
                                    decision=mover.views[new_room]["legal"][0])
        assert reply["t"] == "view" and reply["version"] == 1
        # asking again hands the same seat back, no second new room
        again = await a.rematch(sa)
        assert again["t"] == "rematch_ready" and again["new_room"] == new_room and again["token"] == got[a]["token"]
    finally:
        for c in (a, b, w):
            await c.close()


async def test_rematch_of_a_running_match_changes_nothing(server_url: str) -> None:
    a = await Client.connect(server_url, record_frames=True)
    b = await Client.connect(server_url, record_frames=True)
    try:
        sa = await a.create("creature_wars", QUICK, seed=2)
        assert not isinstance(sa, str)
        with pytest.raises(ClientError) as caught:
            await a.rematch(sa)  # still waiting for a player
        assert caught.value.code == "match_running"
        sb = await b.join(sa.room)
        before = await a.list_rooms()
        for client, seat in ((a, sa), (b, sb)):
            with pytest.raises(ClientError) as caught:
                await client.rematch(seat)
            assert caught.value.code == "match_running" and sa.room in caught.value.message
        with pytest.raises(ClientError) as caught:
            await a.request("rematch", room=sa.room, token="stolen")
        assert caught.value.code == "bad_token"
        assert await a.list_rooms() == before
        assert not [m for m in a.received() + b.received() if m["t"].startswith("rematch")]
    finally:
        await a.close()
        await b.close()

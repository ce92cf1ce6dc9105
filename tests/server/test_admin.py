"""The operator's requests: only with the admin secret; rooms, the whole state, closing a room, kicking a seat."""
from __future__ import annotations

import asyncio
import json

import pytest

from client import Client, ClientError
from server.cli import main

SECRET = "s3cret-for-the-operator"


@pytest.fixture
def operator(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CARDROOM_ADMIN_SECRET", SECRET)
    return SECRET


async def code_of(request: object) -> str:
    with pytest.raises(ClientError) as refused:
        await request  # type: ignore[misc]
    return refused.value.code


async def test_without_the_secret_nothing_is_served(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    async with await Client.connect(server_url) as c:
        seat = await c.create("creature_wars")
        assert not isinstance(seat, str)
        monkeypatch.delenv("CARDROOM_ADMIN_SECRET", raising=False)
        assert await code_of(c.request("admin", op="rooms", secret="")) == "forbidden"  # disabled
        monkeypatch.setenv("CARDROOM_ADMIN_SECRET", SECRET)
        for op in ("rooms", "show", "close", "kick"):
            assert await code_of(c.request("admin", op=op, secret="guess", room=seat.room, seat=0)) == "forbidden"
        assert [r["room"] for r in await c.list_rooms()] == [seat.room]  # nothing closed


async def test_show_gives_the_operator_both_hands(server_url: str, operator: str) -> None:
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        await b.join(sa.room)
        rooms = (await a.request("admin", op="rooms", secret=operator))["result"]["rooms"]
        assert [r["room"] for r in rooms] == [sa.room]
        shown = (await a.request("admin", op="show", secret=operator, room=sa.room))["result"]
        dealt = await a.wait_view(sa.room, lambda v: bool(v and v.get("hands") and "cards" in v["hands"][0]))
        counts = [hand["count"] for hand in dealt["hands"]]  # six each, or seven where a witch drew one on the deal
        assert min(counts) >= 6 and [len(hand) for hand in shown["state"]["hands"]] == counts  # every card: for the operator only
        assert {w["seat"] for w in shown["watchers"]} == {0, 1}


async def test_close_ends_a_running_match_and_tells_everyone(server_url: str, operator: str) -> None:
    async with await Client.connect(server_url) as a, await Client.connect(server_url, record_frames=True) as b:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        await b.join(sa.room)
        await a.request("admin", op="close", secret=operator, room=sa.room)
        closed = await b.wait_message(lambda m: m["t"] == "room_closed")
        assert closed["reason"] == "closed"
        assert b.views[sa.room]["outcome"]["reason"] == "aborted"
        assert await a.list_rooms() == []
        record = (await a.request("export", room=sa.room))["record"]
        assert record["outcome"]["reason"] == "aborted"  # the record is kept


async def test_kick_drops_the_seat_which_can_resume(server_url: str, operator: str) -> None:
    async with await Client.connect(server_url) as a, await Client.connect(server_url) as b:
        sa = await a.create("creature_wars")
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        reply = await a.request("admin", op="kick", secret=operator, room=sa.room, seat=sb.seat)
        assert reply["result"]["kicked"] == 1
        await asyncio.wait_for(b.ws.wait_closed(), 10)
    async with await Client.connect(server_url) as again:
        assert (await again.resume(sa.room, sb.token)).seat == sb.seat


async def test_the_command_prints_the_rooms(server_url: str, operator: str, capsys: pytest.CaptureFixture[str]) -> None:
    async with await Client.connect(server_url) as a:
        seat = await a.create("queens_challenge")
        assert not isinstance(seat, str)
        assert await asyncio.to_thread(main, ["admin", "rooms", "--url", server_url]) == 0
        assert [r["room"] for r in json.loads(capsys.readouterr().out)["rooms"]] == [seat.room]

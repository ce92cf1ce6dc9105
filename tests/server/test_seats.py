"""One seat, one connection: a new resume takes the seat; wrong or stolen tokens change nothing."""
from __future__ import annotations

import pytest

from client import Client, ClientError
from client.connection import Seat
from server.store.store import Store
from tests.server.players import pushed, queued


async def test_a_second_resume_takes_the_seat_from_the_first_connection(server_url: str) -> None:
    first = await Client.connect(server_url)
    b = await Client.connect(server_url)
    second = await Client.connect(server_url)
    try:
        sa = await first.create("creature_wars", seed=8)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await second.resume(sa.room, sa.token)
        moved = await pushed(first, "seat_moved", room=sa.room)
        assert moved["seat"] == 0 and "another connection" in moved["message"]
        # the opponent plays: only the new connection is sent seat 0's view
        await b.decide(sb, b.views[sb.room]["legal"][0])
        await second.wait_view(sa.room, lambda v: second.versions[sa.room] == 1)
        await first.list_rooms()  # a round trip: anything sent before its reply has arrived
        assert first.versions[sa.room] == 0
        # the seat never counted as away, so nobody was told it dropped
        await b.list_rooms()
        assert not [m for m in queued(b) if m.get("t") == "presence" and m.get("connected") is False]
        # the new connection decides for the seat
        reply = await second.decide(sa, second.views[sa.room]["legal"][0])
        assert reply["version"] == 2
    finally:
        await first.close()
        await b.close()
        await second.close()


async def test_a_stolen_or_wrong_token_is_refused_and_changes_nothing(server_url: str, redis_url: str) -> None:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    thief = await Client.connect(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=8)
        assert not isinstance(sa, str)
        await b.join(sa.room)
        other = await thief.create("creature_wars", seed=9)
        assert not isinstance(other, str)
        decision = a.views[sa.room]["legal"][0]
        for token in (other.token, "x" * 32, sa.token.upper()):
            with pytest.raises(ClientError) as caught:
                await thief.request("decide", room=sa.room, token=token, version=0, decision=decision)
            assert caught.value.code == "bad_token"
            with pytest.raises(ClientError) as caught:
                await thief.resume(sa.room, token)
            assert caught.value.code == "bad_token"
        assert await store.log(sa.room) == []
        assert sa.room not in thief.views
        # the rightful holder is still seated and still gets its seat's views
        reply = await a.decide(sa, decision)
        assert reply["version"] == 1
    finally:
        await store.close()
        await a.close()
        await b.close()
        await thief.close()


async def test_a_decision_from_a_connection_not_watching_the_seat_is_answered(server_url: str) -> None:
    """A fresh connection may decide with its seat's token without resuming first: it is answered with its view,
    and then watches the seat (the connection that held it is told the seat moved)."""
    a, b = await Client.connect(server_url), await Client.connect(server_url)
    fresh = await Client.connect(server_url)
    try:
        sa = await a.create("creature_wars", seed=8)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        view = await b.wait_view(sb.room, lambda v: bool(v["legal"]))
        before = b.versions[sb.room]
        answer = await fresh.request("decide", timeout=5.0, room=sb.room, token=sb.token, version=before,
                                     decision=view["legal"][0])
        assert answer["t"] == "view" and answer["version"] == before + 1
        assert answer["view"]["seat"] == sb.seat
        await a.decide(sa, (await a.wait_view(sa.room, lambda v: bool(v["legal"])))["legal"][0])
        await fresh.wait_view(sb.room, lambda v: v["turn"] == 2, timeout=5.0)  # it watches the seat now
    finally:
        for client in (a, b, fresh):
            await client.close()

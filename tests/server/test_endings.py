"""Resign and agreed abort over the wire: stored and told like any decision; refused when not allowed."""
from __future__ import annotations

import pytest

from client import Client, ClientError
from server.store.store import Store
from tests.server.players import pushed, queued


async def two(server_url: str) -> tuple[Client, Client]:
    return await Client.connect(server_url), await Client.connect(server_url)


async def test_resign_ends_the_match_for_the_other_seat(server_url: str, redis_url: str) -> None:
    a, b = await two(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=4)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await b.decide(sb, b.views[sb.room]["legal"][0])
        reply = await a.request("resign", room=sa.room, token=sa.token)
        assert reply["t"] == "view" and reply["view"]["outcome"]["reason"] == "resigned"
        over = await pushed(b, "match_over", room=sa.room)
        assert over["outcome"]["winner"] == 1 and over["outcome"]["reason"] == "resigned"
        log = await store.log(sa.room)
        assert log[-1]["d"] == {"kind": "resign"} and log[-1]["seat"] == 0 and "server" not in log[-1]
        with pytest.raises(ClientError) as caught:
            await b.request("resign", room=sa.room, token=sb.token)
        assert caught.value.code == "match_over"
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_resign_in_a_room_you_do_not_sit_in_is_bad_token(server_url: str, redis_url: str) -> None:
    a, b = await two(server_url)
    outsider = await Client.connect(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=4)
        assert not isinstance(sa, str)
        await b.join(sa.room)
        elsewhere = await outsider.create("creature_wars", seed=5)
        assert not isinstance(elsewhere, str)
        for token in (elsewhere.token, "made-up-token", sa.token[:-1]):
            for kind in ("resign", "abort"):
                with pytest.raises(ClientError) as caught:
                    await outsider.request(kind, room=sa.room, token=token)
                assert caught.value.code == "bad_token"
        # nothing changed: no decision stored, nobody was told of an offer, the match goes on
        assert await store.log(sa.room) == []
        assert (await a.list_rooms())[0]["version"] == 0
        assert all(m.get("t") != "abort_offered" for m in queued(a))
    finally:
        await store.close()
        await a.close()
        await b.close()
        await outsider.close()


async def test_abort_before_the_first_duel_needs_both_seats(server_url: str, redis_url: str) -> None:
    a, b = await two(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=4)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        offered = await a.request("abort", room=sa.room, token=sa.token)
        assert offered["t"] == "abort_offered" and offered["seat"] == 0
        told = await pushed(b, "abort_offered", room=sa.room)
        assert told["seat"] == 0 and told["re"] is None
        assert await store.log(sa.room) == []  # one offer alone changes nothing
        reply = await b.request("abort", room=sa.room, token=sb.token)
        outcome = reply["view"]["outcome"]
        assert outcome["reason"] == "aborted" and outcome["winner"] is None
        over = await pushed(a, "match_over", room=sa.room)
        assert over["outcome"]["reason"] == "aborted"
        log = await store.log(sa.room)
        assert [(r["d"], r["server"]) for r in log] == [({"kind": "abort"}, True)]
    finally:
        await store.close()
        await a.close()
        await b.close()


async def test_abort_after_the_first_duel_is_too_late(server_url: str, redis_url: str) -> None:
    a, b = await two(server_url)
    store = Store(redis_url)
    try:
        sa = await a.create("creature_wars", seed=4)
        assert not isinstance(sa, str)
        sb = await b.join(sa.room)
        await a.decide(sa, a.views[sa.room]["legal"][0])
        await b.decide(sb, b.views[sb.room]["legal"][0])
        resolved = await store.log(sa.room)
        assert len(resolved) == 2
        with pytest.raises(ClientError) as caught:
            await a.request("abort", room=sa.room, token=sa.token)
        assert caught.value.code == "too_late"
        assert await store.log(sa.room) == resolved
    finally:
        await store.close()
        await a.close()
        await b.close()

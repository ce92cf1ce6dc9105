"""Every kind of bad input gets an error naming what was wrong; nothing accepted changes; others carry on."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import msgpack
import pytest

from client import Client, ClientError
from client.connection import Seat
from protocol import MAX_FRAME, PROTOCOL_VERSION, encode


async def next_error(client: Client, timeout: float = 5.0) -> dict[str, Any]:
    """The next ``error`` pushed to the client without a request id to match."""
    while True:
        message = await asyncio.wait_for(client.inbox.get(), timeout)
        if message.get("t") == "error":
            return message


@pytest.fixture
async def match(server_url: str) -> AsyncIterator[tuple[Client, Seat, Client, Seat]]:
    a = await Client.connect(server_url)
    b = await Client.connect(server_url)
    sa = await a.create("creature_wars", seed=3)
    assert not isinstance(sa, str)
    sb = await b.join(sa.room)
    yield a, sa, b, sb
    await a.close()
    await b.close()


async def expect(code: str, request: Any) -> str:
    with pytest.raises(ClientError) as caught:
        await request
    assert caught.value.code == code
    return caught.value.message


async def test_undecodable_text_and_oversize_frames(server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        await c.send_raw(b"\xc1\xff not msgpack")
        assert (await next_error(c))["code"] == "bad_frame"
        await c.send_raw(msgpack.packb([1, 2, 3]))
        error = await next_error(c)
        assert error["code"] == "bad_frame" and "map" in error["message"]
        await c.send_raw("a text frame")
        assert (await next_error(c))["code"] == "bad_frame"
        await c.send_raw(encode({"t": "list_rooms", "id": 5, "pad": "x" * (MAX_FRAME + 1)}))
        error = await next_error(c)
        assert error["code"] == "frame_too_large" and str(MAX_FRAME) in error["message"]
        assert await c.list_rooms() == []  # the connection carries on


async def test_unknown_type_and_bad_fields(server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        assert "teleport" in await expect("unknown_type", c.request("teleport"))
        assert "'room'" in await expect("bad_field", c.request("join"))
        assert "'room'" in await expect("bad_field", c.request("join", room=12))
        assert "'version'" in await expect("bad_field", c.request("decide", room="x", token="t", version=True, decision={}))
        await c.send_raw(encode({"t": "list_rooms"}))
        assert "'id'" in (await next_error(c))["message"]
        assert await c.list_rooms() == []


async def test_hello_first_and_protocol_version(server_url: str) -> None:
    from websockets.asyncio.client import connect

    async with connect(server_url) as ws:
        await ws.send(encode({"t": "list_rooms", "id": 1}))
        reply = msgpack.unpackb(await ws.recv())
        assert (reply["t"], reply["code"], reply["re"]) == ("error", "hello_first", 1)
        await ws.send(encode({"t": "hello", "id": 2, "v": PROTOCOL_VERSION + 1}))
        reply = msgpack.unpackb(await ws.recv())
        assert reply["code"] == "protocol_version" and str(PROTOCOL_VERSION) in reply["message"]
        await ws.send(encode({"t": "hello", "id": 3, "v": PROTOCOL_VERSION}))
        assert msgpack.unpackb(await ws.recv())["t"] == "welcome"


async def test_rooms_seats_and_tokens(match: tuple[Client, Seat, Client, Seat], server_url: str) -> None:
    a, sa, _, _ = match
    async with await Client.connect(server_url) as c:
        assert "nowhere" in await expect("unknown_room", c.join("nowhere"))
        await expect("unknown_room", c.spectate("nowhere"))
        await expect("room_full", c.join(sa.room))
        await expect("seat_taken", c.join(sa.room, seat=0))
        assert "seats 0 to 1" in await expect("no_such_seat", c.join(sa.room, seat=7))
        await expect("bad_token", c.resume(sa.room, "not-a-token"))
        forged = Seat(sa.room, 0, "forged")
        before = a.versions[sa.room]
        await expect("bad_token", c.decide(forged, {"kind": "play", "slot": 0}, version=before))
        assert "chess" in await expect("unknown_game", c.create("chess"))
        assert "'hp'" in await expect("bad_options", c.create("creature_wars", {"hp": -4}))
        assert "'colour'" in await expect("bad_options", c.create("creature_wars", {"colour": 1}))
        assert a.versions[sa.room] == before


async def test_waiting_for_players(server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        seat = await c.create("creature_wars", seed=1)
        assert not isinstance(seat, str)
        assert "waiting" in await expect("not_your_turn", c.decide(seat, {"kind": "play", "slot": 0}))


@pytest.mark.parametrize("kind", [["play"], {"play": 1}, 7, None])
async def test_a_decision_whose_kind_is_not_a_string_is_a_bad_field(match: tuple[Client, Seat, Client, Seat],
                                                                    kind: object) -> None:
    a, sa, _, _ = match
    start = a.versions[sa.room]
    assert "'kind'" in await expect("bad_field", a.decide(sa, {"kind": kind, "slot": 0}))
    await a.decide(sa, {"kind": "play", "slot": 0})  # the room carries on
    assert a.versions[sa.room] == start + 1


async def test_turn_legality_and_staleness(match: tuple[Client, Seat, Client, Seat]) -> None:
    a, sa, b, sb = match
    start = a.versions[sa.room]
    assert "slot" in await expect("illegal_decision", a.decide(sa, {"kind": "play", "slot": 99}))
    assert "'dance'" in await expect("illegal_decision", a.decide(sa, {"kind": "dance"}))
    assert "version" in await expect("stale_version", a.decide(sa, {"kind": "play", "slot": 0}, version=start + 5))
    await a.decide(sa, {"kind": "play", "slot": 0})
    assert "locked in" in await expect("not_your_turn", a.decide(sa, {"kind": "play", "slot": 1}))
    await b.decide(sb, {"kind": "play", "slot": 0})
    # the duel resolved and a new one opened: a new decision made against the old duel is stale
    assert await expect("stale_version", b.decide(sb, {"kind": "play", "slot": 1}, version=start))
    # while the very one stored then is a retry: acknowledged again, not applied twice
    again = await b.decide(sb, {"kind": "play", "slot": 0}, version=start)
    assert again["version"] == start + 2
    view = await a.wait_view(sa.room, lambda v: v["version"] == start + 2)
    assert view["last_duel"] is not None and view["locked"] == [False, False]


async def test_rate_limit_then_carry_on(server_url: str) -> None:
    async with await Client.connect(server_url) as c:
        frame = encode({"t": "list_rooms", "id": 10_000})
        for _ in range(200):
            await c.send_raw(frame)
        error = await next_error(c)
        assert error["code"] == "rate_limited" and error["re"] == 10_000 and "list_rooms" in error["message"]
        await asyncio.sleep(2.5)
        assert await c.list_rooms() == []


async def test_bad_input_in_one_room_leaves_another_alone(server_url: str) -> None:
    async with await Client.connect(server_url) as x, await Client.connect(server_url) as y:
        s1 = await x.create("creature_wars", seed=1)
        s2 = await x.create("creature_wars", seed=2)
        assert not isinstance(s1, str) and not isinstance(s2, str)
        t1 = await y.join(s1.room)
        t2 = await y.join(s2.room)
        await y.send_raw(b"\x00\x01garbage")
        await expect("illegal_decision", y.decide(t1, {"kind": "play", "slot": -1}))
        await x.decide(s2, x.views[s2.room]["legal"][0])
        reply = await y.decide(t2, y.views[t2.room]["legal"][0])
        assert reply["view"]["last_duel"] is not None
        assert x.versions[s1.room] == y.versions[t1.room] == 0


async def test_match_over_refuses_more(server_url: str) -> None:
    deck = ["Lvl.1 Holy Wolf", "Lvl.1 Holy Wolf"]
    hands = [["Lvl.6 Ancient Dragon"], ["Lvl.1 Nightmare Giant"]]
    async with await Client.connect(server_url) as x, await Client.connect(server_url) as y:
        sx = await x.create("creature_wars", {"deck": deck, "hands": hands, "hp": 1, "first_drawer": 0})
        assert not isinstance(sx, str)
        sy = await y.join(sx.room)
        await x.decide(sx, {"kind": "play", "slot": 0})
        await y.decide(sy, {"kind": "play", "slot": 0})
        view = await x.wait_view(sx.room, lambda v: v["outcome"] is not None)
        assert view["outcome"]["reason"] == "knockout" and view["outcome"]["winner"] == 0
        await expect("match_over", x.decide(sx, {"kind": "play", "slot": 0}))


async def test_the_client_library_backs_off_when_rate_limited(server_url: str) -> None:
    """More requests at once than the burst allows all get their replies: each dropped one is sent again later."""
    from server.edge.session import BURST

    async with await Client.connect(server_url) as c:
        replies = await asyncio.gather(*(c.request("list_rooms", timeout=20) for _ in range(int(BURST) + 40)))
    assert [r["t"] for r in replies] == ["rooms"] * (int(BURST) + 40)

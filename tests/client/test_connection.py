"""The client library when the connection drops with requests in flight: each fails at once, and nothing is left
for asyncio to report ("Future exception was never retrieved")."""
from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from client.connection import Client, ConnectionLost
from protocol import decode_any, encode


@pytest.fixture
async def unhandled() -> AsyncIterator[list[dict[str, Any]]]:
    """What reaches the loop's exception handler (where asyncio reports unretrieved exceptions) during the test."""
    loop = asyncio.get_running_loop()
    seen: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: seen.append(context))
    yield seen
    loop.set_exception_handler(previous)


async def collected() -> None:
    """Drop what no one holds, so a forgotten future reports itself now (asyncio does it when it is freed)."""
    for _ in range(3):
        gc.collect()
        await asyncio.sleep(0)


async def test_requests_in_flight_fail_when_the_server_closes(unhandled: list[dict[str, Any]]) -> None:
    """The server greets, then closes the connection when the next requests arrive, answering none of them."""
    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            message = decode_any(frame)
            if message["t"] == "hello":
                await ws.send(encode({"t": "welcome", "re": message["id"], "v": 1}))
            else:
                await ws.close()
                return

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = await Client.connect(f"ws://127.0.0.1:{port}")
        results = await asyncio.gather(*(client.request("list_rooms") for _ in range(3)), return_exceptions=True)
        assert [type(r) for r in results] == [ConnectionLost] * 3
        with pytest.raises(ConnectionLost):
            await client.request("list_rooms")
        await client.close()
        del results, client
    await collected()
    assert [c["message"] for c in unhandled] == []


async def test_a_request_sent_while_the_connection_closes_fails_cleanly(unhandled: list[dict[str, Any]]) -> None:
    """A request that cannot be sent because the connection is closing leaves no future behind for the reader to fail."""
    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            message = decode_any(frame)
            await ws.send(encode({"t": "welcome", "re": message["id"], "v": 1}))

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        client = await Client.connect(f"ws://127.0.0.1:{port}")
        results = await asyncio.gather(client.ws.close(), client.request("list_rooms"), return_exceptions=True)
        failure = type(results[1])
        await client.close()
        del results, client
    await collected()
    assert [c["message"] for c in unhandled] == []
    assert failure is ConnectionLost



async def test_create_and_join_return_with_the_rooms_first_view(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat comes in one frame and the room's view in the next, which may arrive in a later read (here: 50 ms
    later): ``create`` and ``join`` return once both are in, so the caller finds the view."""
    from server.rooms.room import Room

    send_entry = Room.send_entry

    def later(self: Room, conn: Any, seat: int | None, re: int) -> None:
        asyncio.get_running_loop().call_later(0.05, send_entry, self, conn, seat, re)

    monkeypatch.setattr(Room, "send_entry", later)
    async with await Client.connect(server_url) as player, await Client.connect(server_url) as other:
        solo = await player.create("fairy_tableau", seed=1)
        assert not isinstance(solo, str) and player.views[solo.room]["legal"]
        host = await player.create("creature_wars", seed=2)
        assert not isinstance(host, str) and host.room in player.versions  # its view is null until the deal
        guest = await other.join(host.room)
        assert other.views[guest.room]["hands"][guest.seat]["cards"]

"""The client library reads the server's plain binary frames itself (client.connection.Socket): every message still
arrives, in order, whatever frames websockets must read come between them (pings, a message in fragments, text), and
a frame that cannot be read ends the connection rather than the reader alone."""
from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve

from client.connection import Client, ConnectionLost, Socket
from protocol import decode_any, encode


async def _serving(pushes: list[Any]) -> tuple[Any, str]:
    """A server that greets, then on ``go`` sends each of ``pushes``: bytes or a list of bytes (a message in
    fragments) as they are, "ping" a ping, a str as a text frame, ``("raw", b)`` raw bytes after the framing."""
    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            message = decode_any(frame)
            if message["t"] == "hello":
                await ws.send(encode({"t": "welcome", "re": message["id"], "v": 1}))
                continue
            if message["t"] != "go":
                await ws.send(encode({"t": "rooms", "re": message["id"], "rooms": []}))
                continue
            for push in pushes:
                if push == "ping":
                    await ws.ping()
                elif isinstance(push, tuple):
                    ws.transport.write(push[1])
                else:
                    await ws.send(push)
            await ws.send(encode({"t": "done", "re": message["id"]}))

    server = await serve(handler, "127.0.0.1", 0)
    return server, f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"


def _pushed(n: int) -> bytes:
    return encode({"t": "chat", "room": "r", "n": n})


async def test_messages_keep_their_order_through_every_kind_of_frame() -> None:
    """Plain frames read by the socket, a ping between them, then a message in fragments and a text frame (which
    websockets reads, and every frame after them): each message comes once, in the order sent, and the socket stops
    reading frames itself at the first message websockets must assemble."""
    pushes: list[Any] = [_pushed(0), _pushed(1), "ping", _pushed(2), [_pushed(3)[:5], _pushed(3)[5:]], "text",
                         _pushed(4)]
    server, url = await _serving(pushes)
    try:
        client = await Client.connect(url)
        assert isinstance(client.ws, Socket)
        await client.request("list_rooms", queue=False)  # a first exchange: the socket reads frames from here on
        assert client.ws.framing is not None and not client.ws.handed_over
        await client.request("go", queue=False)
        seen = []
        while not client.inbox.empty():
            seen.append(client.inbox.get_nowait())
        assert [m["n"] for m in seen if m.get("t") == "chat"] == [0, 1, 2, 3, 4]
        assert client.ws.handed_over and client.ws.framing is None
        assert (await client.request("go", queue=False))["t"] == "done"  # and websockets reads on as before
        await client.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_the_socket_reads_a_frame_that_comes_in_pieces_and_frames_that_come_together() -> None:
    """A frame split over reads (its header, then its payload in parts) and several frames in one read."""
    frames = [b"\x82" + bytes([len(_pushed(n))]) + _pushed(n) for n in range(3)]
    together = frames[1] + frames[2]
    pushes: list[Any] = [("raw", frames[0][:1]), ("raw", frames[0][1:6]), ("raw", frames[0][6:]), ("raw", together)]
    server, url = await _serving(pushes)
    try:
        client = await Client.connect(url)
        await client.request("list_rooms", queue=False)
        await client.request("go", queue=False)
        chats = [m["n"] for m in [client.inbox.get_nowait() for _ in range(client.inbox.qsize())] if m.get("t") == "chat"]
        assert chats == [0, 1, 2]
        assert isinstance(client.ws, Socket) and client.ws.framing is not None
        await client.close()
    finally:
        server.close()
        await server.wait_closed()


@pytest.mark.parametrize("before", [[], [[_pushed(0)[:5], _pushed(0)[5:]]]], ids=["read-here", "websockets-queue"])
async def test_a_frame_that_is_not_msgpack_ends_the_connection_and_fails_what_waits(before: list[Any]) -> None:
    """Whether the socket read the frame itself or (after a message in fragments) websockets' queue held it."""
    server, url = await _serving([*before, b"\xc1 not msgpack"])
    try:
        client = await Client.connect(url)
        await client.request("list_rooms", queue=False)
        try:
            await asyncio.wait_for(client.request("go", queue=False), 5)
            raise AssertionError("the request was answered on a connection that could not be read")
        except ConnectionLost:
            pass
        assert client.broken is not None and "msgpack" in str(client.broken)
        await client.close()
    finally:
        server.close()
        await server.wait_closed()

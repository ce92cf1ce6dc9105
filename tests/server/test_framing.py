"""A frame sent to many connections is framed once (server/edge/connection.py ``wire``), exactly as websockets
frames it, for payloads of every length class; and a spectator crowd gets every frame whole."""
from __future__ import annotations

import asyncio

from websockets.frames import Frame, Opcode

from client import Client
from server.edge.connection import wire


def test_a_frame_is_framed_as_websockets_frames_it_and_once_for_a_run_of_connections() -> None:
    for size in (0, 1, 125, 126, 65535, 65536, 200_000):  # 7-bit, 16-bit and 64-bit lengths
        payload = bytes(range(256)) * (size // 256) + bytes(size % 256)
        framed = wire(payload)
        assert framed == Frame(Opcode.BINARY, payload).serialize(mask=False, extensions=[])
        assert wire(payload) is framed  # the same frame again: the same bytes, not framed anew
    again = bytes(10)
    assert wire(again) is not wire(bytes(11)) and wire(bytes(10)) == wire(again)


async def test_spectators_of_a_room_get_each_view_whole(server_url: str) -> None:
    async with await Client.connect(server_url, name="ann") as ann, await Client.connect(server_url, name="bob") as bob:
        seat = await ann.create("creature_wars", seed=3)
        assert not isinstance(seat, str)
        watchers = [await Client.connect(server_url) for _ in range(5)]
        try:
            for watcher in watchers:
                await watcher.spectate(seat.room)
            other = await bob.join(seat.room)
            view = await ann.wait_view(seat.room, lambda v: bool(v["legal"]))
            reply = await ann.decide(seat, view["legal"][0])
            version = reply["view"]["version"]
            seen = [await watcher.wait_view(seat.room, lambda v, n=version: v["version"] == n) for watcher in watchers]
            assert all(view == seen[0] for view in seen[1:])
            assert seen[0]["seat"] is None and all("cards" not in hand for hand in seen[0]["hands"])
            assert other.room == seat.room
        finally:
            for watcher in watchers:
                await watcher.close()


async def test_a_frame_sent_to_many_goes_behind_what_a_connection_has_queued() -> None:
    """``Connection.send_all`` writes at once only to a connection with nothing queued: one whose outbox holds a
    frame gets the new one after it, in order, and the others get it straight away."""
    from websockets.asyncio.client import connect
    from websockets.asyncio.server import ServerConnection, serve

    from server.edge.connection import Connection

    served: list[Connection] = []
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        served.append(Connection(ws))
        await done.wait()

    async with serve(handler, "127.0.0.1", 0, compression=None) as server:  # as the server: frames written whole
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as first, connect(f"ws://127.0.0.1:{port}") as second:
            for _ in range(200):
                if len(served) == 2:
                    break
                await asyncio.sleep(0.01)
            held, free = served
            try:
                held._queue(b"queued before")  # its writer has not run yet: the frame waits in the outbox
                Connection.send_all([held, free], b"to all")
                got = [await asyncio.wait_for(first.recv(), 5), await asyncio.wait_for(first.recv(), 5)]
                assert got == [b"queued before", b"to all"]
                assert await asyncio.wait_for(second.recv(), 5) == b"to all"
            finally:
                done.set()
                for conn in served:
                    await conn.close()

"""A frame sent to many connections is framed once (server/edge/connection.py ``wire``), exactly as websockets
frames it, for payloads of every length class; and a spectator crowd gets every frame whole."""
from __future__ import annotations

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

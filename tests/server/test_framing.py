"""A frame sent to many connections is framed once (server/edge/connection.py ``wire``), exactly as websockets
frames it, for payloads of every length class; and a spectator crowd gets every frame whole."""
from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any, cast

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import Frame, Opcode

from bench.room import Keeps, Watcher
from client import Client
from engine.creature_wars import GAME
from protocol.codec import decode_any
from server.edge import connection
from server.edge.connection import Connection, wire
from server.rooms.peer import Peer
from tests.server.helpers import decide_at_random, watched_room

direct = connection._direct


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


@contextlib.asynccontextmanager
async def _two_connections() -> AsyncIterator[tuple[tuple[Connection, Connection], tuple[ClientConnection, ClientConnection]]]:
    """Two server-side connections (as the server makes them: frames written whole) and their clients."""
    served: list[Connection] = []
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        served.append(Connection(ws))
        await done.wait()

    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as first, connect(f"ws://127.0.0.1:{port}") as second:
            for _ in range(200):
                if len(served) == 2:
                    break
                await asyncio.sleep(0.01)
            try:
                yield (served[0], served[1]), (first, second)
            finally:
                done.set()
                for conn in served:
                    await conn.close()


async def test_a_frame_sent_to_many_goes_behind_what_a_connection_has_queued() -> None:
    """``Connection.send_all`` writes at once only to a connection with nothing queued: one whose outbox holds a
    frame gets the new one after it, in order, and the others get it straight away."""
    async with _two_connections() as ((held, free), (first, second)):
        held._queue(b"queued before")  # its writer has not run yet: the frame waits in the outbox
        Connection.send_all([held, free], b"to all")
        got = [await asyncio.wait_for(first.recv(), 5), await asyncio.wait_for(first.recv(), 5)]
        assert got == [b"queued before", b"to all"]
        assert await asyncio.wait_for(second.recv(), 5) == b"to all"


async def test_a_frame_and_the_one_after_it_go_to_each_socket_in_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """A match's last view and its result (``after``): one write to each socket written at once, two messages all
    the same; a connection with frames queued gets both behind them, in order."""
    writes: list[bytes] = []

    def spied(conn: Connection) -> Any:
        transport = direct(conn)
        return None if transport is None else SimpleNamespace(write=lambda data: (writes.append(data), transport.write(data)))

    monkeypatch.setattr(connection, "_direct", spied)
    async with _two_connections() as ((held, free), (first, second)):
        held._queue(b"queued before")
        Connection.send_all([held, free], b"last view", b"result")
        assert writes == [wire(b"last view") + wire(b"result")], "one write to the free socket"
        assert [await asyncio.wait_for(first.recv(), 5) for _ in range(3)] == [b"queued before", b"last view", b"result"]
        assert [await asyncio.wait_for(second.recv(), 5) for _ in range(2)] == [b"last view", b"result"]


class _Writes(Watcher):
    """A seat's connection that notes what reaches it in each write: one frame, or a frame and the one after it."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[list[bytes]] = []

    def send(self, frame: bytes) -> None:
        self.writes.append([frame])

    @classmethod
    def send_all(cls, peers: list[Peer], frame: bytes, after: bytes | None = None) -> None:
        for peer in cast(list[_Writes], peers):
            peer.writes.append([frame] if after is None else [frame, after])


async def test_a_players_last_view_and_the_result_go_in_one_write() -> None:
    """The decision that ends a match: each player's last view and ``match_over`` follow one another in one write
    (the decider's reply and the other's push alike), not a write each."""
    players = [_Writes(), _Writes()]
    room = watched_room(5, list(players), Keeps())
    rng = random.Random(5)
    for n in range(1000):
        if not await decide_at_random(room, list(players), rng, n):
            break
    if room.timer is not None:
        room.timer.cancel()
    assert GAME.outcome(room.state) is not None
    for player in players:
        *_, last = player.writes
        assert [decode_any(frame)["t"] for frame in last] == ["view", "match_over"]
        assert all(len(write) == 1 for write in player.writes[:-1])

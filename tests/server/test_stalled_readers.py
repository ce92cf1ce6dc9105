"""A reader that stops reading is dropped within a few seconds, whatever its outbox could still take, and the
players of other rooms go on getting their views meanwhile."""
from __future__ import annotations

import asyncio
import random
import socket
import time

import pytest
from prometheus_client import REGISTRY
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

import server.edge.connection
import server.lobby.quota
from client import Client
from client.connection import Seat
from protocol import PROTOCOL_VERSION, encode
from tests.server.helpers import play_turn
from tests.server.servers import serving

RCVBUF = 16 * 1024
"""The non-reader's socket receive buffer (a reader far away: little in flight)."""


def stalled_drops() -> float:
    return REGISTRY.get_sample_value("cardroom_stalled_drops_total") or 0.0


async def keep_playing(url: str, stop: asyncio.Event, latencies: list[float]) -> None:
    """Two players deciding as fast as the rate limit allows, match after match; each decision's time to its reply
    and view (``Client.decide`` returns once its own view of the new version is in)."""
    rng = random.Random(3)
    async with await Client.connect(url, name="ann") as a, await Client.connect(url, name="bob") as b:
        while not stop.is_set():
            sa = await a.create("creature_wars", seed=rng.randrange(1000))
            assert isinstance(sa, Seat)
            sb = await b.join(sa.room)
            players = [(a, sa), (b, sb)]
            while not stop.is_set():
                sent = time.monotonic()
                going = await play_turn(players, rng)
                latencies.append(time.monotonic() - sent)
                if not going:
                    break
                await asyncio.sleep(1 / 30)


async def test_a_spectator_that_never_reads_is_dropped_within_the_stall_bound(redis_url: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """With an outbox bound it would take minutes to reach, a spectator that never reads is still dropped within
    a few seconds (its writing paused, nothing drained), counted in cardroom_stalled_drops_total; others play on."""
    monkeypatch.setattr(server.edge.connection, "STALL_SECONDS", 1.0)
    monkeypatch.setattr(server.edge.connection, "OUTBOX", 1_000_000)  # only the stall rule may drop it
    monkeypatch.setattr(server.edge.connection, "OUTBOX_BYTES", 1 << 31)
    monkeypatch.setattr(server.edge.connection, "CLOSE_TIMEOUT", 0.5)
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 1000)
    monkeypatch.setattr(server.lobby.quota, "WAITING", 1000)
    before = stalled_drops()
    async with serving(redis_url) as url:
        async with await Client.connect(url) as owner:
            for _ in range(40):  # a lobby whose listing is a large frame
                await owner.create("creature_wars", sit=False)
            watched = await owner.create("creature_wars", sit=False)
            assert isinstance(watched, str)
        stop = asyncio.Event()
        latencies: list[float] = []
        players = asyncio.create_task(keep_playing(url, stop, latencies))
        host, port = url.removeprefix("ws://").rsplit(":", 1)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
        # the sink reads nothing: its library stops reading the socket after one queued frame
        sink = await connect(url, sock=sock, max_queue=1, compression=None)
        await sink.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION}))
        await sink.send(encode({"t": "spectate", "id": 2, "room": watched}))
        started = time.monotonic()
        dropped_after: float | None = None
        request = 3
        while time.monotonic() - started < 15:
            try:
                await sink.send(encode({"t": "list_rooms", "id": request}))
            except ConnectionClosed:
                dropped_after = time.monotonic() - started
                break
            request += 1
            await asyncio.sleep(1 / 30)  # under the rate limit: every request is answered
        await asyncio.sleep(1)  # the players go on after it too
        stop.set()
        await players
        sink.transport.abort()
        assert dropped_after is not None, "a connection that never reads was kept 15 s"
        assert dropped_after < 8, f"dropped only after {dropped_after:.1f} s"
        assert stalled_drops() == before + 1
        async with await Client.connect(url) as owner:
            summary = next(r for r in (await owner.list_page(limit=200))["rooms"] if r["room"] == watched)
            assert summary["spectators"] == 0
    assert len(latencies) > 20, "the players were not served meanwhile"
    assert max(latencies) < 2.0, f"a player waited {max(latencies):.2f} s for a view"

"""Connections that cost without playing: readers that never read, silence before hello, floods from one address."""
from __future__ import annotations

import asyncio
import logging
import time

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import server.edge.admission
import server.edge.connection
import server.lobby.quota
from client import Client
from protocol import PROTOCOL_VERSION, encode
from tests.server.servers import serving


async def test_a_reader_that_never_reads_is_dropped_once(server_url: str, caplog: pytest.LogCaptureFixture,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounded bytes per connection; one warning; unwatched from its rooms; the transport is aborted."""
    monkeypatch.setattr(server.edge.connection, "OUTBOX_BYTES", 256 * 1024)
    monkeypatch.setattr(server.edge.connection, "CLOSE_TIMEOUT", 0.5)
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 100)
    monkeypatch.setattr(server.lobby.quota, "WAITING", 100)
    caplog.set_level(logging.WARNING, logger="server.edge.connection")
    async with await Client.connect(server_url) as owner:
        for _ in range(60):  # a lobby whose listing is a large frame
            await owner.create("creature_wars", sit=False)
        watched = await owner.create("creature_wars", sit=False)
        assert isinstance(watched, str)
        # the sink reads nothing: its library stops reading the socket after one queued frame
        sink = await connect(server_url, max_queue=1, compression=None)
        await sink.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION}))
        await sink.send(encode({"t": "spectate", "id": 2, "room": watched}))
        dropped = False
        deadline = time.monotonic() + 30
        request = 3
        while time.monotonic() < deadline:
            try:
                await sink.send(encode({"t": "list_rooms", "id": request}))
            except ConnectionClosed:
                dropped = True
                break
            request += 1
            await asyncio.sleep(1 / 35)  # under the rate limit: every request is answered
        assert dropped, "the server kept a connection that never reads"
        # the room no longer counts (or feeds) the dropped spectator; everyone else is still served
        summary = next(r for r in (await owner.list_page(limit=200))["rooms"] if r["room"] == watched)
        assert summary["spectators"] == 0
    warnings = [r for r in caplog.records if "dropped" in r.getMessage()]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]


async def test_a_connection_that_never_says_hello_is_closed(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Silent connections do not stay open: closed with 1008 once the hello deadline passes."""
    monkeypatch.setattr(server.edge.admission, "HELLO_SECONDS", 0.3)
    async with connect(server_url, compression=None) as silent:
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(silent.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert "hello" in closed.value.rcvd.reason


async def test_connections_per_address_are_capped(redis_url: str) -> None:
    """Past the cap a handshake is refused with 429, and counted; a closed connection frees its place."""
    async with serving(redis_url, per_address=3) as url:
        clients = [await Client.connect(url) for _ in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            await Client.connect(url)
        assert refused.value.response.status_code == 429
        assert b"3 open connections" in refused.value.response.body
        assert await clients[0].list_rooms() == []  # the admitted ones carry on
        await clients[2].close()
        for _ in range(100):  # the server notices the close within a bounded wait
            try:
                clients[2] = await Client.connect(url)
                break
            except InvalidStatus:
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("a closed connection did not free its place")
        for c in clients:
            await c.close()

"""Web pages of other sites may not open a websocket to the server; plain ws:// stays on loopback unless told."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from client import Client
from protocol import PROTOCOL_VERSION, decode_any, encode
from server.cli import main
from server.edge.app import run
from server.edge.exposure import PlainRefused, loopback
from server.ops import metrics
from tests.server.servers import stopped


async def greeted(url: str, origin: str | None) -> bool:
    """Whether a connection sent with ``origin`` (None: no Origin header) is accepted and greeted."""
    headers = {"Origin": origin} if origin is not None else {}
    try:
        async with connect(url, additional_headers=headers, open_timeout=10) as ws:
            await ws.send(encode({"t": "hello", "id": 1, "v": PROTOCOL_VERSION}))
            reply = decode_any(await asyncio.wait_for(ws.recv(), 10))  # type: ignore[arg-type]
            return bool(reply["t"] == "welcome")
    except InvalidStatus as exc:
        assert exc.response.status_code == 403
        return False


async def test_by_default_only_clients_without_an_origin_are_accepted(server_url: str) -> None:
    refused = metrics.REFUSED.labels("origin")._value.get()
    assert await greeted(server_url, None)
    assert not await greeted(server_url, "https://evil.example")
    assert not await greeted(server_url, "null")
    assert metrics.REFUSED.labels("origin")._value.get() == refused + 2  # counted in the metrics
    async with await Client.connect(server_url) as client:  # the project's own client sends none
        assert await client.list_rooms() == []


@pytest.fixture
async def with_origin(redis_url: str) -> AsyncIterator[str]:
    ready: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=redis_url, ready=ready, stop=stop,
                                   origins=["https://cards.example/"]))
    host, port = await asyncio.wait_for(ready, 10)
    yield f"ws://{host}:{port}"
    stop.set()
    await stopped(task)


async def test_configured_origins_are_accepted_and_no_others(with_origin: str) -> None:
    assert await greeted(with_origin, "https://cards.example")
    assert await greeted(with_origin, None)
    assert not await greeted(with_origin, "https://cards.example.evil.example")
    assert not await greeted(with_origin, "http://cards.example")


async def test_plain_ws_beyond_loopback_is_refused_unless_allowed(redis_url: str) -> None:
    with pytest.raises(PlainRefused) as refused:
        await run(host="0.0.0.0", port=0, redis_url=redis_url)
    assert "--allow-plain" in str(refused.value) and "TLS" in str(refused.value)
    assert loopback("127.0.0.1") and loopback("::1") and loopback("localhost")
    assert not loopback("0.0.0.0") and not loopback("") and not loopback("192.168.1.5") and not loopback("cards.example")


async def test_allow_plain_serves_on_every_address(redis_url: str) -> None:
    ready: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="0.0.0.0", port=0, redis_url=redis_url, ready=ready, stop=stop,
                                   allow_plain=True))
    _, port = await asyncio.wait_for(ready, 10)
    try:
        assert await greeted(f"ws://127.0.0.1:{port}", None)
    finally:
        stop.set()
        await stopped(task)


def test_cardroom_serve_says_why_it_will_not_listen(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CARDROOM_ALLOW_PLAIN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--redis-url", "redis://127.0.0.1:1/0"]) == 2
    assert "reverse proxy" in capsys.readouterr().err

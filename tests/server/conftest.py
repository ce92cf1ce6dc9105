"""Server-test fixtures: a server whose Redis sits behind a proxy that can lose replies or go away."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from server.app import run
from tests.server.redis_proxy import ReplyDropper


@pytest.fixture
async def proxied(redis_url: str) -> AsyncIterator[tuple[str, ReplyDropper]]:
    """A server whose Redis is reached through a proxy that can lose a reply."""
    port = urlsplit(redis_url).port
    assert port is not None
    proxy = ReplyDropper(port)
    proxy_port = await proxy.start()
    ready: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(run(host="127.0.0.1", port=0, redis_url=f"redis://127.0.0.1:{proxy_port}/0",
                                   ready=ready, stop=stop))
    host, server_port = await asyncio.wait_for(ready, 10)
    yield f"ws://{host}:{server_port}", proxy
    stop.set()
    await asyncio.wait_for(task, 10)
    await proxy.close()



"""Helpers for tests of players with keys: connect with a key, read what the server pushed."""
from __future__ import annotations

import asyncio
from typing import Any

from websockets.asyncio.client import connect

from client import Client
from protocol import PROTOCOL_VERSION

__all__ = ["keyed", "pushed", "queued"]


async def keyed(url: str, name: str = "", key: str | None = None) -> tuple[Client, dict[str, Any]]:
    """A client greeted with ``name`` and (when given) ``key``, and the server's ``welcome``."""
    ws = await connect(url, max_size=2**24, compression=None, open_timeout=10)
    client = Client(ws)
    fields: dict[str, Any] = {"v": PROTOCOL_VERSION, "name": name}
    if key is not None:
        fields["key"] = key
    try:
        welcome = await client.request("hello", **fields)
    except BaseException:
        await client.close()
        raise
    return client, welcome


async def pushed(client: Client, kind: str, timeout: float = 10.0, **match: Any) -> dict[str, Any]:
    """The next message of type ``kind`` (with the given field values) in the client's inbox."""
    async def find() -> dict[str, Any]:
        while True:
            message = await client.inbox.get()
            if message.get("t") == kind and all(message.get(k) == v for k, v in match.items()):
                return message

    return await asyncio.wait_for(find(), timeout)


def queued(client: Client) -> list[dict[str, Any]]:
    """Every message waiting in the client's inbox, taken out of it."""
    out = []
    while not client.inbox.empty():
        out.append(client.inbox.get_nowait())
    return out

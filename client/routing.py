"""Sitting on the node that owns a room: behind a proxy that routes by node (deploy/haproxy.cfg), a client told
that its room is on another node than the one it reached connects again through the same address, naming
that node (``?node=ID``), and resumes its seat there, so that nothing it plays is relayed between nodes.

Optional and bounded: a client that never does this plays on, relayed; a connection that does not land on
the node named (no proxy, or one that does not route, or the node just went down) is closed, and the client
stays where it was.
"""
from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from client.connection import Client, ClientError, ConnectionLost, Seat

__all__ = ["PARAM", "owner_connection", "routed", "spectate_on_owner", "to_owner"]

T = TypeVar("T")
PARAM = "node"
"""The query parameter naming the node a connection asks the proxy for."""


def routed(url: str, node: str) -> str:
    """``url`` asking for ``node`` (its ``node`` query parameter set, any other kept); ``url`` itself for ""."""
    if not node:
        return url
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != PARAM] + [(PARAM, node)]
    return urlunsplit(parts._replace(path=parts.path or "/", query=urlencode(query)))


async def owner_connection(client: Client, node: str) -> Client | None:
    """A new connection, as ``client``'s (same address, name and key), that reached ``node``; None when ``client``
    is on it already, either node is unknown, ``client`` did not come through a proxy, or the address did not
    route there."""
    if not node or not client.node or node == client.node or not client.url or not client.proxied:
        return None
    try:
        other = await Client.connect(routed(client.url, node), name=client.name, key=client.key,
                                     record_frames=client.record_frames, deltas=client.deltas)
    except (OSError, TimeoutError, ClientError, ConnectionError):
        return None
    if other.node != node:
        await other.close()
        return None
    return other


async def to_owner(client: Client, seat: Seat) -> tuple[Client, Seat]:
    """The connection and seat to play ``seat`` on: a new connection to the node that owns its room, with the seat
    resumed there (``client`` is then closed); else ``client`` and ``seat`` as they were."""
    return await _move(client, await owner_connection(client, seat.node), lambda c: c.resume(seat.room, seat.token), seat)


async def spectate_on_owner(client: Client, room: str) -> tuple[Client, dict[str, Any]]:
    """Watch ``room``, from a new connection to the node that owns it when ``client`` reached another (``client``
    is then closed); the connection watching it, and the ``spectating`` reply."""
    reply = await client.spectate(room)
    return await _move(client, await owner_connection(client, str(reply.get("node") or "")), lambda c: c.spectate(room),
                       reply)


async def _move(client: Client, other: Client | None, ask: Callable[[Client], Awaitable[T]], kept: T) -> tuple[Client, T]:
    """``other`` and its answer to ``ask`` (``client`` closed); ``client`` and ``kept`` when there is no ``other`` or
    it does not answer (``other`` closed)."""
    if other is None:
        return client, kept
    try:
        answer = await ask(other)
    except (ClientError, ConnectionLost, TimeoutError):
        await other.close()
        return client, kept
    with contextlib.suppress(Exception):
        await client.close()
    return other, answer

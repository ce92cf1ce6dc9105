"""Sitting on the node that owns a room: behind a proxy that routes by node (deploy/haproxy.cfg), a client told
that its room is on another node than the one it reached connects again through the same address, naming
that node (``?node=ID``), and resumes its seat there, so that nothing it plays is relayed between nodes.

Optional and bounded: a client that never does this plays on, relayed; a connection that does not land on
the node named (no proxy, or one that does not route, or the node just went down) is closed, and the client
stays where it was.
"""
from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from client.connection import Client, ClientError, ConnectionLost, Seat

__all__ = ["PARAM", "owner_connection", "routed", "spectate_on_owner", "to_owner"]

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
    other = await owner_connection(client, seat.node)
    if other is None:
        return client, seat
    try:
        resumed = await other.resume(seat.room, seat.token)
    except (ClientError, ConnectionLost, TimeoutError):
        await other.close()
        return client, seat
    with contextlib.suppress(Exception):
        await client.close()
    return other, resumed


async def spectate_on_owner(client: Client, room: str) -> tuple[Client, dict[str, Any]]:
    """Watch ``room``, from a new connection to the node that owns it when ``client`` reached another (``client``
    is then closed); the connection watching it, and the ``spectating`` reply."""
    reply = await client.spectate(room)
    other = await owner_connection(client, str(reply.get("node") or ""))
    if other is None:
        return client, reply
    try:
        again = await other.spectate(room)
    except (ClientError, ConnectionLost, TimeoutError):
        await other.close()
        return client, reply
    with contextlib.suppress(Exception):
        await client.close()
    return other, again

"""Who may hold a connection: a cap on open connections per address, and a deadline for ``hello``.

The address is the client's: the TCP peer's, or, when that peer is a trusted proxy (``--trusted-proxy``), the
one its PROXY header (server/edge/connection.py ``Socket``) or its ``X-Forwarded-For`` header names
(server/edge/forwarded.py). The cap counts this node's connections only: each node of a cluster allows
``per_address`` (the quotas on rooms are cluster-wide, in Redis: server/lobby/quota.py)."""
from __future__ import annotations

import collections
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.edge import forwarded
from server.edge.connection import Socket
from server.ops import metrics

__all__ = ["HELLO_SECONDS", "PER_ADDRESS", "Admission"]

PER_ADDRESS = 64
"""Open connections one address may hold; the next handshake is refused with 429."""
HELLO_SECONDS = 5.0
"""A connection that has not said ``hello`` by then is closed (code 1008)."""


def address(conn: ServerConnection) -> str:
    """The client's IP address (the port left out: one host, one count): what a trusted proxy said, else the
    TCP peer's."""
    if isinstance(conn, Socket) and conn.client:
        return conn.client
    peer = conn.remote_address
    return forwarded.normal(str(peer[0])) if peer else "?"


class Admission:
    """Counts open connections by address; refuses handshakes past the cap."""

    def __init__(self, per_address: int = PER_ADDRESS, trusted: forwarded.Trusted | None = None) -> None:
        self.per_address = per_address
        self.trusted = trusted or forwarded.Trusted()
        self.open: collections.Counter[str] = collections.Counter()

    def forwarded(self, conn: ServerConnection, request: Request) -> None:
        """Take the client's address from ``X-Forwarded-For`` when a trusted proxy sent it (and no PROXY header
        named the client already); from anyone else the header is ignored."""
        values = request.headers.get_all("X-Forwarded-For")
        if not values or not isinstance(conn, Socket) or conn.proxied:
            return
        if conn.client not in self.trusted:
            metrics.IGNORED_FORWARDING.inc()
            return
        client = forwarded.forwarded_for(values, self.trusted)
        if client is not None:
            conn.client = client
            conn.proxied = True

    def check(self, conn: ServerConnection, request: Request) -> Response | None:
        """A ``process_request`` hook: None lets the handshake go on."""
        self.forwarded(conn, request)
        if self.open[address(conn)] >= self.per_address:
            metrics.REFUSED.labels("per_address").inc()
            return conn.respond(HTTPStatus.TOO_MANY_REQUESTS,
                                f"more than {self.per_address} open connections from your address\n")
        return None

    def enter(self, conn: ServerConnection) -> str:
        peer = address(conn)
        self.open[peer] += 1
        return peer

    def leave(self, peer: str) -> None:
        self.open[peer] -= 1
        if self.open[peer] <= 0:
            del self.open[peer]

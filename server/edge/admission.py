"""Who may hold a connection: a cap on open connections per address, and a deadline for ``hello``."""
from __future__ import annotations

import collections
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.ops import metrics

__all__ = ["HELLO_SECONDS", "PER_ADDRESS", "Admission"]

PER_ADDRESS = 64
"""Open connections one address may hold; the next handshake is refused with 429."""
HELLO_SECONDS = 5.0
"""A connection that has not said ``hello`` by then is closed (code 1008)."""


def address(conn: ServerConnection) -> str:
    """The peer's IP address (the port left out: one host, one count)."""
    peer = conn.remote_address
    return str(peer[0]) if peer else "?"


class Admission:
    """Counts open connections by address; refuses handshakes past the cap."""

    def __init__(self, per_address: int = PER_ADDRESS) -> None:
        self.per_address = per_address
        self.open: collections.Counter[str] = collections.Counter()

    def check(self, conn: ServerConnection, request: Request) -> Response | None:
        """A ``process_request`` hook: None lets the handshake go on."""
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

"""The client side: an async client library (tests and bots use it) and the Textual app."""
from __future__ import annotations

from client.connection import Client, ClientError

__all__ = ["Client", "ClientError"]

"""The server package's exception root."""
from __future__ import annotations

__all__ = ["Fenced", "ServerError", "StaleWrite", "StoreCorrupt", "StoreMissing", "StoreUnavailable", "Unreplicated"]


class ServerError(Exception):
    """Root of the server's own failures (request errors are :class:`protocol.ProtocolError`)."""


class StaleWrite(ServerError):
    """The stored version moved under a write: another writer got there first."""


class StoreUnavailable(ServerError):
    """Redis could not be started or reached."""


class Fenced(ServerError):
    """A write carried a fencing token that is no longer the room's: another node has taken the room over."""


class Unreplicated(ServerError):
    """A write the primary holds that fewer replicas than required confirmed in time: a failover may lose it."""


class StoreCorrupt(ServerError):
    """A room's stored snapshot and log do not replay to the version it records."""


class StoreMissing(ServerError):
    """A room's hash is no longer stored (its time to live ran out): nothing is written in its place."""

"""Events through the client library: create, register, follow (docs/protocol.md, "Events").

The latest state of each followed event is kept in ``Client.events``; :func:`wait_event` waits for a change.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.connection import Client, new_nonce

__all__ = ["create_event", "drop", "follow", "list_events", "register", "start_event", "unregister", "wait_event"]


async def create_event(client: Client, game: str, **fields: Any) -> dict[str, Any]:
    """A new event (``rounds``, ``clock``, ``options``, ``start``, ``lasts``, ``invite``, ``rated``, ``title``)."""
    reply = await client.request("create_event", game=game, **{k: v for k, v in fields.items() if v is not None})
    event: dict[str, Any] = reply["event"]
    return event


async def _event(client: Client, kind: str, event: str, **fields: Any) -> dict[str, Any]:
    state: dict[str, Any] = (await client.request(kind, event=event, **fields))["event"]
    return state


async def register(client: Client, event: str) -> dict[str, Any]:
    """Register for a Swiss event (with a fresh nonce: this player's part of its tables' deals)."""
    return await _event(client, "register", event, nonce=new_nonce())


async def unregister(client: Client, event: str) -> dict[str, Any]:
    return await _event(client, "unregister", event)


async def drop(client: Client, event: str) -> dict[str, Any]:
    return await _event(client, "drop", event)


async def start_event(client: Client, event: str) -> dict[str, Any]:
    """Start an event we created now, before its start time."""
    return await _event(client, "start_event", event)


async def follow(client: Client, event: str) -> dict[str, Any]:
    """Follow an event: its state now; each change is pushed and kept in ``client.events``."""
    return await _event(client, "follow_event", event)


async def list_events(client: Client, game: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
    fields: dict[str, Any] = {k: v for k, v in (("game", game), ("status", status)) if v is not None}
    events: list[dict[str, Any]] = (await client.request("list_events", **fields))["events"]
    return events


async def wait_event(client: Client, event: str, until: Callable[[dict[str, Any]], bool],
                     timeout: float = 30.0) -> dict[str, Any]:
    """Wait until the latest known state of a followed event satisfies ``until``; returns it."""
    await client.wait_for(lambda: event in client.events and until(client.events[event]), timeout)
    return client.events[event]

"""Events through the client library: create, register, follow (docs/protocol.md, "Tournaments and solitaire
events"); and the ``cardroom event`` command.

The latest state of each followed event is kept in ``Client.events``; :func:`wait_event` waits for a change.
"""
from __future__ import annotations

import datetime
import sys
from collections.abc import Callable
from typing import Any

from client.connection import Client, ClientError, ConnectionLost, new_nonce

__all__ = ["create_event", "drop", "event_command", "follow", "format_event", "list_events", "register", "start_event",
           "summary_line", "unregister", "wait_event"]


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


# -- `cardroom event` ------------------------------------------------------------------------------


def format_event(state: dict[str, Any]) -> str:
    """An event's state for the terminal: what it is, then its pairings and standings (or scores)."""
    when = "when its creator starts it" if state.get("start") is None else _utc(state["start"])
    lines = [f"{state['event']}  {state['title']}  ({state['kind']}, {state['game']}, {state['status']})"]
    if state["kind"] == "swiss":
        lines.append(f"  {state['rounds']} rounds, starts {when}; {state['players']} registered"
                     + ("; rated" if state["rated"] else "") + ("; invite-only" if state["invite_only"] else ""))
        for r in state.get("pairings") or ():
            lines.append(f"  round {r['round']}:")
            for t in r["tables"]:
                result = "playing" if t["result"] is None else " - ".join(f"{p:g}" for p in t["result"]["points"])
                lines.append(f"    {t['table']:>3}. {t['players'][0]} v {t['players'][1]}  #{t['room'] or '-'}  {result}")
            if r["bye"]:
                lines.append(f"         bye: {r['bye']}")
        if state.get("standings"):
            lines.append("  standings:")
            for s in state["standings"]:
                lines.append(f"    {s['rank']:>3}. {s['name']:<24} {s['points']:>4g}  omw {s['omw']:.4f}  gw {s['gw']:.4f}"
                             + ("  (dropped)" if s["dropped"] else ""))
    else:
        lines.append(f"  one deal for everyone from {when} to {_utc(state['ends'])}")
        for s in state.get("scores") or ():
            lines.append(f"    {s['rank']:>3}. {s['name']:<24} {s['score']:>6}  #{s['room']}")
    return "\n".join(lines)


def _utc(stamp: float) -> str:
    return datetime.datetime.fromtimestamp(stamp, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def summary_line(e: dict[str, Any]) -> str:
    progress = f"round {e['round']}/{e['rounds']}" if e["kind"] == "swiss" else f"until {_utc(e['ends'])}"
    return f"{e['event']}  {e['status']:<9} {e['game']:<16} {e['players']:>4} players  {progress:<22} {e['title']}"


async def event_command(url: str, action: str, event: str | None, *, name: str, key: str | None,
                        fields: dict[str, Any] | None = None) -> int:
    """``cardroom event ACTION``: list, create, show, start, register, unregister, drop, or follow (print the event
    at each change until it is over). Exit status 1 (and the server's reason) when refused."""
    try:
        async with await Client.connect(url, name=name, key=key) as client:
            if action == "list":
                for e in await list_events(client, **(fields or {})):
                    print(summary_line(e))
                return 0
            if action == "create":
                game = str((fields or {}).pop("game"))
                print(format_event(await create_event(client, game, **(fields or {}))))
                return 0
            assert event is not None
            calls = {"show": follow, "follow": follow, "start": start_event, "register": register,
                     "unregister": unregister, "drop": drop}
            state = await calls[action](client, event)
            print(format_event(state))
            while action == "follow" and state["status"] not in ("finished", "cancelled"):
                version = state["version"]
                state = await wait_event(client, event, lambda s, v=version: s["version"] != v,  # type: ignore[misc]
                                         timeout=24 * 3600)
                print(f"\n-- {state['status']}\n{format_event(state)}")
            return 0
    except ClientError as exc:
        print(f"cardroom event {action}: {exc.message}", file=sys.stderr)
        return 1
    except (OSError, ConnectionLost) as exc:
        print(f"cardroom event {action}: cannot reach {url}: {exc}", file=sys.stderr)
        return 1

"""``cardroom replay``: the replay viewer on its own, for a record file or a finished room of a server."""
from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from textual.app import App
from websockets.exceptions import WebSocketException

from client.connection import ClientError
from client.identity import IdentityStore
from client.link import address_of
from client.records import fetch_record
from client.replay import Replay, ReplayError
from client.screens.replay import ReplayScreen

__all__ = ["ViewerApp", "load_record", "replay_command"]


class ViewerApp(App[None]):
    """The replay screen alone; the app ends when it is closed."""

    TITLE = "cardroom"

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay

    def on_mount(self) -> None:
        self.push_screen(ReplayScreen(self.replay), lambda _: self.exit())


async def load_record(source: str, url: str | None, state_dir: str | None = None) -> dict[str, Any]:
    """A record from a file (``-``: stdin), or room ``source`` of the server at ``url`` asked with our player key
    and, if we still hold it, our seat's token (a players-only replay needs one of them)."""
    if url is None:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
        record: dict[str, Any] = json.loads(text)
        return record
    store = IdentityStore(state_dir)
    address = address_of(url)
    token = next((s.token for s in store.seats(address) if s.room == source), None)
    return await fetch_record(url, source, key=store.key(address), token=token)


def replay_command(source: str, url: str | None, state_dir: str | None = None) -> int:
    """Open the viewer on a record; exit status 1 (and why) when it cannot be had or replayed."""
    try:
        replay = Replay(asyncio.run(load_record(source, url, state_dir)))
    except ClientError as exc:
        print(f"cardroom replay: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    except (OSError, ValueError, KeyError, TypeError, ReplayError, WebSocketException) as exc:
        print(f"cardroom replay: cannot replay {source}: {exc}", file=sys.stderr)
        return 1
    ViewerApp(replay).run()
    return 0

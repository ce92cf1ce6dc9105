"""What the client tests share: reading the screen as a terminal shows it, bounded waits, a message recorder."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.css.query import NoMatches
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot

from client.messages import Decide, Disconnected

__all__ = ["SIZE", "Recorder", "panel_text", "screen_text", "settle", "until"]

SIZE = (120, 44)


def screen_text(app: App[Any]) -> str:
    """Every character on the current screen, line by line, as the terminal would show it."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def panel_text(app: App[Any], widget_id: str) -> str:
    """The screen text inside one widget's region (cropped by cells, so wide glyphs elsewhere do not shift it)."""
    region = app.screen.query_one(widget_id).content_region
    strips = app.screen._compositor.render_strips()[region.y:region.bottom]
    return "\n".join(strip.crop(region.x, region.right).text.rstrip() for strip in strips)


async def until(pilot: Pilot[Any], ready: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    """Let the app run until ``ready()`` holds; fail after ``timeout`` seconds."""
    def holds() -> bool:
        try:
            return bool(ready())
        except NoMatches:  # the widget it looks at is not mounted yet
            return False

    deadline = asyncio.get_running_loop().time() + timeout
    while not holds():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)
    await settle(pilot)


async def settle(pilot: Pilot[Any]) -> None:
    """Let the app process what is queued and repaint, so the screen shows the state the test just saw."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause(0.1)


class Recorder:
    """A message hook keeping the messages the tests look for, each once (a bubbling message passes the hook
    at every node it reaches)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._seen: set[int] = set()

    def __call__(self, message: Message) -> None:
        if isinstance(message, Decide | Notify | Disconnected) and id(message) not in self._seen:
            self._seen.add(id(message))
            self.messages.append(message)

    def decisions(self) -> list[dict[str, Any]]:
        return [m.decision for m in self.messages if isinstance(m, Decide)]

    def toasts(self) -> list[str]:
        return [m.notification.message for m in self.messages if isinstance(m, Notify)]

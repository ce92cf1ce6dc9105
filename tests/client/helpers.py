"""What the client tests share: reading the screen as a terminal shows it, bounded waits, a message recorder."""
from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from textual.app import App
from textual.css.query import NoMatches
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import DataTable

from client.app import CardroomApp
from client.messages import Decide, Disconnected
from client.screens import MatchScreen

__all__ = ["SIZE", "Recorder", "busy", "crop_cells", "panel_text", "screen_lines", "screen_text", "settle", "until"]

SIZE = (120, 44)


SVG_TEXT = re.compile(r'<text [^>]*?x="([0-9.]+)"[^>]*?textLength="([0-9.]+)"[^>]*?-line-([0-9]+)\)"[^>]*>([^<]*)</text>')
"""One run of characters in a screenshot: its x, its width, its line, its (escaped) text."""


def screen_lines(app: App[Any]) -> list[str]:
    """The current screen as the terminal shows it, one string per line, each padded to the screen's width in cells.

    Read from ``App.export_screenshot()`` (the SVG a user saves with ctrl+p → screenshot): every run of
    text sits at its cell column, so a wide glyph (🔒) takes its two cells as on a terminal.
    """
    width, height = app.size
    cells: list[list[tuple[int, str]]] = [[] for _ in range(height)]
    for x, length, line, escaped in SVG_TEXT.findall(app.export_screenshot()):
        text = html.unescape(escaped).replace("\xa0", " ")
        if text == "\n" or not 0 <= int(line) < height:
            continue
        cell = float(length) / len(text)
        cells[int(line)].append((round(float(x) / cell), text))
    lines = []
    for runs in cells:
        out = ""
        for column, text in sorted(runs):
            out += " " * max(0, column - cell_len(out)) + text
        lines.append(out + " " * max(0, width - cell_len(out)))
    return lines


def screen_text(app: App[Any]) -> str:
    """Every character on the current screen, line by line, as the terminal would show it."""
    return "\n".join(line.rstrip() for line in screen_lines(app))


def crop_cells(line: str, start: int, end: int) -> str:
    """The part of ``line`` between two cell columns (a wide glyph counts two cells)."""
    out, at = "", 0
    for char in line:
        width = cell_len(char)
        if at >= start and at + width <= end:
            out += char
        at += width
    return out


def panel_text(app: App[Any], widget_id: str) -> str:
    """The screen text inside one widget's region (cropped by cells, so wide glyphs elsewhere do not shift it)."""
    region = app.screen.query_one(widget_id).content_region
    lines = screen_lines(app)[region.y:region.bottom]
    return "\n".join(crop_cells(line, region.x, region.right).rstrip() for line in lines)


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


def busy(app: App[Any]) -> str | None:
    """What the app has still to do before its screen shows what it was told, or None: a widget with messages
    queued, or a table that has not yet measured its new rows (a DataTable sizes its columns on idle)."""
    for node in (app, app.screen, *app.screen.walk_children()):
        if not node._message_queue.empty():
            return f"messages queued for {node!r}"
        if isinstance(node, DataTable) and (node._require_update_dimensions or node._updated_cells or node._new_rows):
            return f"{node!r} not yet measured"
    return None


async def settle(pilot: Pilot[Any], timeout: float = 5.0, linger: float = 0.1) -> None:
    """Let the app process what is queued and repaint, so the screen shows the state the test just saw.

    Textual's ``pause()`` waits for the process to look idle by its CPU time, which a loaded machine fools (the
    process gets little CPU and seems idle while its widgets still have work queued): so this waits until no
    widget has (``busy``), within ``timeout``, then ``linger`` seconds more (none for a snapshot, whose clocks
    must not tick meanwhile)."""
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    deadline = asyncio.get_running_loop().time() + timeout
    while (left := busy(pilot.app)) is not None:
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the app did not settle within {timeout:g} s: {left}")
        await pilot.pause(0.02)
    if linger:
        await pilot.pause(linger)


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


def table(app: CardroomApp) -> MatchScreen:
    """The open table (fails if another screen is open)."""
    screen = app.screen
    assert isinstance(screen, MatchScreen), f"expected the table, got {screen!r}"
    return screen


def status(app: CardroomApp) -> str:
    """The table's status line."""
    return str(table(app).query_one("#status").render())


def on_table(app: CardroomApp) -> bool:
    """A table is open and shows a view."""
    return isinstance(app.screen, MatchScreen) and app.screen.view is not None

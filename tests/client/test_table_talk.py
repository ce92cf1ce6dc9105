"""Table talk keeps every notice, whenever it arrives: before the table is mounted, or while the app takes it down."""
from __future__ import annotations

from typing import Any

from textual.app import App
from textual.widgets import RichLog

from client.screens.match import MatchScreen
from tests.client.helpers import SIZE, settle


class TableApp(App[None]):
    """Just one Creature Wars table, no server."""

    def __init__(self) -> None:
        super().__init__()
        self.table = MatchScreen("r1", "creature_wars", spectator=False)

    def on_mount(self) -> None:
        self.push_screen(self.table)
        self.table.room_notice("bob dropped")  # a presence push handled before the new screen is composed


async def test_a_notice_before_the_table_is_composed_is_shown_once_it_is() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        log: Any = app.table.query_one("#chat-log", RichLog)
        assert app.table.talk.texts == ["— bob dropped"]
        assert [strip.text for strip in log.lines] == ["— bob dropped"]


async def test_a_notice_while_the_table_is_taken_down_is_no_error() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.table.query_one("#chat-log").remove()  # as the app does to a screen's widgets when it quits
        app.table.room_notice("bob is back.")
        await settle(pilot)
        assert app.table.talk.texts == ["— bob dropped", "— bob is back."]

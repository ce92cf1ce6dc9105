"""A room listing that reaches the lobby while the app takes it down is no error (the app's last refresh may land
after its widgets are removed)."""
from __future__ import annotations

from textual.app import App

from client.screens.lobby import LobbyScreen
from tests.client.helpers import SIZE, settle

ROOM = {"room": "r1", "game": "creature_wars", "seats": 2, "taken": 1, "players": ["ann"], "status": "waiting"}


class LobbyApp(App[None]):
    """Just the lobby, no server."""

    def __init__(self) -> None:
        super().__init__()
        self.lobby = LobbyScreen()

    def on_mount(self) -> None:
        self.push_screen(self.lobby)


async def test_a_listing_while_the_lobby_is_taken_down_is_no_error() -> None:
    app = LobbyApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.lobby.rooms = [ROOM]
        await settle(pilot)
        assert app.lobby.selected_room() == "r1"
        await app.lobby.query_one("#rooms").remove()  # as the app does to a screen's widgets when it quits
        app.lobby.rooms = [ROOM, {**ROOM, "room": "r2"}]
        await settle(pilot)
        assert [r["room"] for r in app.lobby.rooms] == ["r1", "r2"]

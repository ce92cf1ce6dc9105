"""The lobby shows the first page of a long listing, and says there is more."""
from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

import server.lobby.quota
from client.app import CardroomApp
from client.connection import Client
from client.screens import LobbyScreen
from tests.client.helpers import SIZE, until


async def test_the_lobby_lists_the_first_page_and_says_more(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server.lobby.quota, "PER_MINUTE", 1000)
    monkeypatch.setattr(server.lobby.quota, "WAITING", 1000)
    async with await Client.connect(server_url) as maker:
        for _ in range(53):
            await maker.create("queens_challenge", sit=False)
        app = CardroomApp(server_url, "pat")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                        and app.screen.query_one("#rooms", DataTable).row_count == 50, "the first page")
            hint = app.screen.query_one("#hint", Static)
            assert "more…" in str(hint.render())

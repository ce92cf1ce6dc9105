"""The lobby's "play now" key: queue for the chosen game, the wait shown, Esc cancels; the table opens when paired."""
from __future__ import annotations

import pytest

from client.app import CardroomApp
from client.connection import Client
from client.screens import LobbyScreen
from client.screens.table import TableScreen
from tests.client.helpers import SIZE, Recorder, screen_text, until


async def test_play_now_waits_cancels_and_opens_the_table_when_paired(server_url: str) -> None:
    hook = Recorder()
    app = CardroomApp(server_url, "fay")
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await until(pilot, lambda: app.link.client is not None and app.link.player is not None, "the connection")
        lobby = app.lobby
        await pilot.press("p")
        await until(pilot, lambda: "Finding a Creature Wars opponent" in screen_text(app), "the wait shown")
        assert "rated" in screen_text(app) and "1 in the pool" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: not lobby.waiting_for, "the wait ended")
        assert "Finding a" not in screen_text(app)
        bob = await Client.connect(server_url, name="bob", key="bob-secret-key-0123456789")
        try:
            await bob.queue("creature_wars", rated=True)
            with pytest.raises(TimeoutError):  # the cancelled ticket is not paired
                await bob.wait_paired("creature_wars", timeout=1.5)
            await pilot.press("p")
            told = await bob.wait_paired("creature_wars")
            await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.room == told["room"],
                        "the table of the paired room")
            assert not lobby.waiting_for
            assert app.link.seats[told["room"]].seat == 1 - told["seat"]
            assert any("Paired against bob" in t for t in hook.toasts())
        finally:
            await bob.close()


async def test_play_now_is_for_two_player_games(server_url: str) -> None:
    hook = Recorder()
    app = CardroomApp(server_url, "fay")
    async with app.run_test(size=SIZE, message_hook=hook) as pilot, await Client.connect(server_url) as looker:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("g", "p")  # Fairy Tableau: a solitaire
        await until(pilot, lambda: any("Play now pairs two players" in t for t in hook.toasts()), "the hint")
        assert isinstance(app.screen, LobbyScreen) and not app.lobby.waiting_for
        assert await looker.list_rooms() == []

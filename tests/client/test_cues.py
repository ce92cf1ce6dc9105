"""The cue that our move came or cards were revealed: the terminal bell and a flash, on by default, ctrl+b toggles."""
from __future__ import annotations

import pytest

from client.app import CUES_ENV, CardroomApp
from client.connection import Client, Seat
from client.screens import MatchScreen
from tests.client.helpers import SIZE, until
from tests.client.test_app import SCENARIO


class BellCounter(CardroomApp):
    """The app, counting its bells (a headless terminal has none to hear)."""

    bells = 0

    def bell(self) -> None:
        self.bells += 1


async def test_a_reveal_rings_once_and_ctrl_b_silences_it(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", SCENARIO, seed=1)
        assert isinstance(seat, Seat)
        app = BellCounter(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None
                        and bool(app.screen.view["legal"]), "the seat")
            screen = app.screen
            assert isinstance(screen, MatchScreen) and app.cues
            await pilot.press("2", "enter")  # the witch: the Fire Giants would tie
            await until(pilot, lambda: screen.view is not None and screen.view.get("locked_card"), "the lock-in")
            assert app.bells == 0, "neither opening the table nor locking in rings"
            await host.decide(seat, {"kind": "play", "slot": 0})
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the reveal")
            assert app.bells == 1, "the reveal and the new move ring once"

            await pilot.press("ctrl+b")
            await until(pilot, lambda: not app.cues, "the bell off")
            await host.wait_view(seat.room, lambda v: v["turn"] == 2)
            await host.decide(seat, host.views[seat.room]["legal"][0])
            slot = min(d["slot"] for d in screen.view["legal"])
            await pilot.press(str(slot + 1), "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 3, "the next reveal")
            assert app.bells == 1


def test_cardroom_cues_off_starts_without_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CUES_ENV, "off")
    assert not CardroomApp("ws://127.0.0.1:1", "x").cues
    monkeypatch.setenv(CUES_ENV, "on")
    assert CardroomApp("ws://127.0.0.1:1", "x").cues

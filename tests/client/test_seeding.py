"""The terminal client in a room whose deal waits for the last seat: it sends its nonce and shows no cards till then."""
from __future__ import annotations

import pytest

from client import connection
from client.app import CardroomApp
from client.connection import Client
from client.records import fetch_record
from client.render import status_line
from client.screens import MatchScreen
from client.screens.end import EndScreen
from client.verify import verify
from client.widgets import HandPanel
from tests.client.helpers import SIZE, screen_text, until


def status(app: CardroomApp) -> str:
    return str(app.screen.query_one("#status").render())


async def test_the_table_waits_for_the_deal_then_shows_it(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "new_nonce", lambda: "e5" * 16)  # to find alice's nonce in the record
    app = CardroomApp(server_url, "alice")  # no seed: the deal is derived from both seats' nonces
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen), "the new table")
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await until(pilot, lambda: status(app) == "waiting for an opponent to join", "the empty seat to show")
        assert screen.view is None and not screen.query_one(HandPanel).cards  # no deal, so no hand
        async with await Client.connect(server_url, name="bob", key="b" * 32) as bob:  # a rated room: bob has a key
            seat = await bob.join(screen.room, nonce="f6" * 16)
            # the deal comes from a random server seed: alice may move first, pass, or wait for bob's choice
            await until(pilot, lambda: screen.view is not None and status(app) != "waiting for an opponent to join",
                        "the deal once the opponent sits")
            assert screen.view is not None and status(app) == status_line(screen.view, names=screen.names)
            shown = [c["text"] for c in screen.query_one(HandPanel).cards]
            assert shown and shown == [c["text"] for c in screen.view["hands"][0]["cards"]]
            await bob.request("resign", room=seat.room, token=seat.token)
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            assert "✓ matches the commitment" in screen_text(app)  # the whole chain, nonces included
    record = await fetch_record(server_url, screen.room)
    assert record["nonces"] == ["e5" * 16, "f6" * 16]
    assert verify(record).ok

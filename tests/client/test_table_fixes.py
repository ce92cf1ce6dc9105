"""The Creature Wars table against a real server: what the duel box says, what a spectator is offered."""
from __future__ import annotations

from typing import Any

from client.app import CardroomApp
from client.connection import Client, Seat
from client.screens import MatchScreen
from client.widgets import DuelPanel
from tests.client.helpers import SIZE, panel_text, screen_text, until

WRATH = {
    "first_drawer": 0,
    "hands": [["Lvl.7 Witch of Wrath", "Lvl.3 Dragon"], ["Lvl.1 Serpent", "Lvl.1 Giant"]],
    "deck": ["Lvl.1 Holy Skeleton {3}", "Lvl.2 Holy Skeleton {3}", "Lvl.3 Holy Skeleton {3}",
             "Lvl.4 Holy Skeleton {3}", "Lvl.5 Holy Skeleton {3}", "Lvl.6 Holy Skeleton {3}"],
}
"""Turn 1: Witch of Wrath beats the Serpent (no damage) and puts +3 on every lost duel; turn 2 the Giant {4} loses."""


def table(app: CardroomApp) -> MatchScreen:
    screen = app.screen
    assert isinstance(screen, MatchScreen), f"expected the table, got {screen!r}"
    return screen


def slot_of(view: dict[str, Any], seat: int, name: str) -> int:
    return next(i for i, c in enumerate(view["hands"][seat]["cards"]) if name in c["text"])


async def test_the_duel_box_shows_the_damage_the_empire_took_with_witch_of_wrath(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", WRATH, seed=3)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None
                        and bool(app.screen.view["legal"]), "the seat")
            screen = table(app)
            for turn, (mine, theirs) in enumerate((("Serpent", "Witch of Wrath"), ("Giant", "Dragon")), start=1):
                view = host.views[seat.room]
                await host.decide(seat, {"kind": "play", "slot": slot_of(view, 0, theirs)})
                assert screen.view is not None
                await pilot.press(str(slot_of(screen.view, 1, mine) + 1), "enter")
                await until(pilot, lambda t=turn: screen.view is not None and screen.view["turn"] == t + 1,
                            f"the duel of turn {turn}")
            assert screen.view is not None
            assert screen.view["hp"] == [30, 23], "the Giant's 4 and Wrath's 3"
            assert screen.view["last_duel"]["damage"] == [0, 4], "the view's duel has the damage before modifiers"
            duel = screen.query_one(DuelPanel).duel
            assert duel is not None and duel["damage"] == [0, 7]
            box = panel_text(app, "#duel")
            boxed = [cell.strip() for line in box.splitlines() for cell in line.split("│") if "│" in line]
            assert "takes 7" in boxed and "takes 4" not in boxed, "in the losing card's box: what its Empire took"
            assert "Player 2's Empire takes 7 damage (lost the duel); 23 HP left." in box
            assert "takes 7 damage" in screen_text(app), "the log says the same"

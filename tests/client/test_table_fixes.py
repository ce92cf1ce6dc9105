"""The Creature Wars table against a real server: what the duel box says, what a spectator is offered."""
from __future__ import annotations

import re
from typing import Any

from client.app import CardroomApp
from client.connection import Client, Seat
from client.screens import SPECTATOR_BANNER, MatchScreen
from client.screens.end import EndScreen
from client.widgets import DuelPanel
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until

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
            assert "You take 7: 4 from the duel + 3 from effects in play" in box
            assert "takes 7 damage" in screen_text(app), "the log says the same"


def footer_keys(app: CardroomApp) -> str:
    """The footer's line: the keys the screen offers now."""
    return screen_text(app).splitlines()[-1]


async def test_a_spectator_is_not_addressed_as_a_player_and_offered_no_play_keys(server_url: str) -> None:
    async with await Client.connect(server_url, name="p1") as p1, await Client.connect(server_url, name="p2") as p2:
        s1 = await p1.create("creature_wars", seed=21)
        assert isinstance(s1, Seat)
        await p2.join(s1.room)
        app = CardroomApp(server_url, "watcher", spectate=s1.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None,
                        "the spectator's table")
            text = screen_text(app).replace(SPECTATOR_BANNER, "")  # the banner speaks to the spectator, as one
            assert re.findall(r"\byou\b|\byour\b", text, re.IGNORECASE) == [], "nothing speaks to a player"
            assert "Watching room" in text and "watching" in app.screen.title
            keys = footer_keys(app)
            assert "help" in keys and "leave" in keys
            assert "pick" not in keys and "lock in" not in keys and "witch" not in keys

            await pilot.press("question_mark")
            await until(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "the help")
            help_text = screen_text(app)
            assert "(spectating)" in help_text
            assert "lock in the selected card" not in help_text and "1-9" not in help_text and "your hand" not in help_text


async def test_at_the_end_the_result_is_shown_once_and_the_play_keys_go(server_url: str) -> None:
    options = {"hp": 1, "first_drawer": 0, "deck": WRATH["deck"],
               "hands": [["Lvl.1 Holy Wolf {2}"], ["Lvl.6 Fire Dragon {7}"]]}
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", options, seed=77)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None
                        and bool(app.screen.view["legal"]), "the seat")
            screen = table(app)
            assert "lock in" in footer_keys(app) and "over" not in screen.title
            await host.decide(seat, {"kind": "play", "slot": 0})
            await pilot.press("1", "enter")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            await pilot.press("escape")  # back to the table under it
            await until(pilot, lambda: app.screen is screen and "Seed 77 revealed" in panel_text(app, "#log"), "the end")
            log = panel_text(app, "#log")
            assert log.count("wins by knockout") == 1, log
            assert [t for t in hook.toasts() if "wins by knockout" in t] == [], "no toast repeats it"
            assert str(screen.query_one("#status").render()) == "match over: Player 2 wins by knockout — you win"
            keys = footer_keys(app)
            assert "lock in" not in keys and "pick" not in keys and "leave" in keys
            assert screen.title.endswith("· over")


async def test_a_table_waiting_for_its_deal_shows_no_empire_or_hand(server_url: str) -> None:
    """A room dealt from the players' nonces has no deal until its last seat is taken: the table says so
    instead of showing an empty Empire and an empty hand."""
    app = CardroomApp(server_url, "ada")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, MatchScreen), "the new table")
        await until(pilot, lambda: table(app).free_seats == 1, "the empty seat")
        waiting = [panel_text(app, f"#{where}") for where in ("top", "bottom")]
        assert all("the deal comes once every seat is taken" in text and "hand 0" not in text for text in waiting)
        async with await Client.connect(server_url, name="bob", key="b" * 32) as bob:  # a rated room: bob has a key
            await bob.join(table(app).room)
            await until(pilot, lambda: table(app).view is not None, "the deal")
            await pilot.pause()
            dealt = [panel_text(app, f"#{where}") for where in ("top", "bottom")]
            assert all("Empire" in text and "hand " in text for text in dealt)

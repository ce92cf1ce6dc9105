"""A whole Creature Wars match at 80x24 against a real server, from the lobby to the end screen and back: once with
the keys alone, once with mouse clicks alone (a click picks a card, a click on the picked card locks it in)."""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from client.app import CardroomApp
from client.connection import Client, Seat
from client.render import legal_slots
from client.screens import EndScreen, LobbyScreen, MatchScreen
from tests.client.helpers import screen_text, until

SIZE = (80, 24)

FOUR_DUELS = {
    "hp": 9, "first_drawer": 0,
    "hands": [["Lvl.1 Holy Wolf {2}", "Lvl.1 Holy Wolf {2}", "Lvl.1 Holy Wolf {2}"],
              ["Lvl.6 Fire Dragon {7}", "Lvl.5 Fire Giant {4}", "Lvl.4 Ancient Pirate {3}"]],
    "deck": [f"Lvl.{n} Holy Skeleton {{3}}" for n in range(1, 7)],
}
"""Four duels when each side plays its first playable card: the deck runs out and the MAYHEM ends it."""

Play = Callable[[Pilot[Any], CardroomApp, MatchScreen, int], Awaitable[None]]
"""Lock in the card in a slot of our hand, by the keys or by the mouse."""


async def play_match(app: CardroomApp, pilot: Pilot[Any], host: Client, seat: Seat, play: Play) -> EndScreen:
    """Each turn the host locks in its first playable card and we ours (with ``play``), until the end screen."""
    for _ in range(10):
        if isinstance(app.screen, EndScreen):
            return app.screen
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        await play_turn(app, pilot, host, seat, screen, play)
    raise AssertionError("the match did not end within 10 turns")


async def play_turn(app: CardroomApp, pilot: Pilot[Any], host: Client, seat: Seat, screen: MatchScreen,
                    play: Play) -> None:
    """One duel: the host's card, then ours; wait for the next turn (or the end)."""
    assert screen.view is not None
    turn = screen.view["turn"]
    theirs = await host.wait_view(seat.room, lambda v: v["turn"] == turn and bool(v["legal"]))
    await host.decide(seat, theirs["legal"][0])
    await until(pilot, lambda: str(screen.query_one("#status").render()).startswith("your move"), "our move")
    assert screen.view is not None
    await play(pilot, app, screen, min(legal_slots(screen.view)))
    await until(pilot, lambda: isinstance(app.screen, EndScreen)
                or (screen.view is not None and screen.view["turn"] > turn), f"the duel of turn {turn}")


async def by_keys(pilot: Pilot[Any], app: CardroomApp, screen: MatchScreen, slot: int) -> None:
    await pilot.press(str(slot + 1), "enter")


async def by_clicks(pilot: Pilot[Any], app: CardroomApp, screen: MatchScreen, slot: int) -> None:
    """Click the card's line; once it is the picked card, click it again to lock it in."""
    if screen.selected != slot:
        await pilot.click("#hand", offset=(6, slot))
        await until(pilot, lambda: screen.selected == slot, f"card {slot + 1} picked by a click")
    await pilot.click("#hand", offset=(6, slot))


async def click_footer(pilot: Pilot[Any], app: CardroomApp, action: str) -> None:
    """Click the key the footer shows for ``action``."""
    key = next(k for k in app.screen.query("FooterKey") if getattr(k, "action", None) == action)
    await pilot.click(key)


async def test_a_whole_match_by_the_keys_alone(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", FOUR_DUELS, seed=41)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest")
        async with app.run_test(size=SIZE) as pilot:
            rooms = app.lobby.query_one("#rooms", DataTable)
            await until(pilot, lambda: rooms.row_count == 1, "the host's room in the lobby")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None, "the seat")
            end = await play_match(app, pilot, host, seat, by_keys)
            assert "You lose — decided in the final MAYHEM" in screen_text(app)
            assert end.ending.outcome["reason"] == "mayhem"
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")


async def test_a_whole_match_by_clicks_alone(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", FOUR_DUELS, seed=42)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest")
        async with app.run_test(size=SIZE) as pilot:
            rooms = app.lobby.query_one("#rooms", DataTable)
            await until(pilot, lambda: rooms.row_count == 1, "the host's room in the lobby")
            await pilot.click("#rooms", offset=(4, 1))  # the room's row (under the header): a click joins it
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None, "the seat")
            end = await play_match(app, pilot, host, seat, by_clicks)
            assert "You lose — decided in the final MAYHEM" in screen_text(app)
            assert end.ending.outcome["reason"] == "mayhem"
            await click_footer(pilot, app, "lobby")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")

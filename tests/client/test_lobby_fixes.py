"""The lobby against a real server: asking before quitting with a held seat, the cursor on a new room, the daily
box only for solitaires, and everything on an 80x24 terminal; check boxes that say on and off, a daily deal not kept
for the next game, and the focus left to the room list when our rooms are over."""
from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Checkbox, DataTable

from client.app import CardroomApp
from client.connection import Client, Seat
from client.messages import YourRooms
from client.screens import ConfirmScreen, LobbyScreen, MatchScreen
from client.screens.your_rooms import YourRoomsList
from tests.client.helpers import SIZE, screen_text, settle, until
from tests.client.replay import ReplayApp, replay, room_summary


def in_lobby(app: CardroomApp) -> bool:
    return isinstance(app.screen, LobbyScreen)


async def test_q_asks_before_quitting_while_a_seat_is_held_and_the_cursor_follows_the_new_room(server_url: str) -> None:
    async with await Client.connect(server_url, name="other") as other:
        for seed in (1, 2):
            assert isinstance(await other.create("creature_wars", seed=seed), Seat)
        app = CardroomApp(server_url, "alice", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            rooms: DataTable[str] = app.lobby.query_one("#rooms", DataTable)
            await until(pilot, lambda: rooms.row_count == 2, "the other rooms")
            first = app.lobby.selected_room()
            await pilot.press("c")
            # the table opens; its deal (and so its view) waits for the second seat's nonce
            await until(pilot, lambda: isinstance(app.screen, MatchScreen), "the table")
            mine = app.screen.room
            await pilot.press("q", "y")
            await until(pilot, lambda: in_lobby(app) and rooms.row_count == 3, "the lobby with our room")
            assert first != mine and app.lobby.selected_room() == mine, "the cursor is on the room we created"

            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            assert f"#{mine}" in screen_text(app) and "Quit anyway?" in screen_text(app)
            await pilot.press("n")
            await until(pilot, lambda: in_lobby(app), "staying")
            assert app.is_running
            await pilot.press("q", "y")
            await until(pilot, lambda: not app.is_running, "the app to quit")


async def test_the_daily_box_is_only_there_for_solitaires(server_url: str) -> None:
    async with await Client.connect(server_url, name="looker") as looker:
        app = CardroomApp(server_url, "fay")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.link.client is not None, "the connection")
            box = app.lobby.query_one("#daily", Checkbox)
            assert not box.display, "Creature Wars has no daily table"
            await pilot.press("g", "d")
            await until(pilot, lambda: box.display and box.value, "the daily deal of Fairy Tableau")
            # back round to Creature Wars and create at once: a plain room, not a daily one
            await pilot.press("g", "g", "g", "c")
            # the table opens; its deal (and so its view) waits for the second seat's nonce
            await until(pilot, lambda: isinstance(app.screen, MatchScreen), "the table")
            assert not box.display and not box.value
            rooms = await looker.list_rooms()
            assert [(r["game"], r["ranked"]) for r in rooms] == [("creature_wars", "rated")]  # not daily; rated by default


async def test_the_lobby_fits_80x24(server_url: str) -> None:
    async with await Client.connect(server_url, name="somebody") as other:
        seat = await other.create("creature_wars", seed=3)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "fay")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.lobby.query_one("#rooms", DataTable).row_count == 1, "the room")
            lines = screen_text(app).splitlines()
            assert len(lines) == 24
            row = next(line for line in lines if f"#{seat.room}" in line)
            assert row.split("│")[1].split() == [f"#{seat.room}", "Creature", "Wars", "1/2", "somebody,", "—", "waiting",
                                                 "·", "⏱30s+1:00"]  # the room's clock, whole
            async with await Client.connect(server_url, name="watcher") as watcher:
                await watcher.spectate(seat.room)  # a longer status: the clock still fits
                await pilot.press("r")
                await until(pilot, lambda: "1 watching" in screen_text(app), "the spectator")
                row = next(line for line in screen_text(app).splitlines() if f"#{seat.room}" in line)
                assert row.split("│")[1].split()[-6:] == ["waiting", "·", "1", "watching", "·", "⏱30s+1:00"]
            text = "\n".join(lines)
            for shown in ("Create (c)", "Scores (t)", "Enter join", "? help", "q quit", "Creature Wars ", "two players"):
                assert shown in text, shown


async def test_the_check_boxes_say_on_and_off_and_the_daily_deal_is_not_kept_for_the_next_game() -> None:
    app = ReplayApp([])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        daily, rated = app.lobby.query_one("#daily", Checkbox), app.lobby.query_one("#rated", Checkbox)
        assert "rated: on" in screen_text(app) and rated.has_class("-on")
        await pilot.press("R")
        await until(pilot, lambda: "rated: off" in screen_text(app), "rated off, in words")
        assert not rated.has_class("-on")
        await pilot.press("g", "d")  # Fairy Tableau's daily deal
        await until(pilot, lambda: "daily: on" in screen_text(app), "daily on, in words")
        assert daily.value and daily.has_class("-on")
        await pilot.press("g")  # Queen's Challenge: another game, the box starts off
        await until(pilot, lambda: "daily: off" in screen_text(app), "daily off for the next game")
        assert not daily.value and not daily.has_class("-on")
        await pilot.press("d", "c")  # today's deal of Queen's Challenge, created: the box goes off again
        await until(pilot, lambda: not daily.value, "the box off once the daily room is asked for")
        assert "daily: off" in screen_text(app)


@pytest.mark.parametrize(("status", "focused"), [("over", False), ("playing", True)])
async def test_only_a_running_room_of_ours_takes_the_focus(status: str, focused: bool) -> None:
    app = ReplayApp([])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        yours = app.lobby.query_one("#yours", YourRoomsList)
        summary = room_summary("creature_wars", room="c0ffee01", players=["alice", "bob"], status=status)
        app.post_message(YourRooms([(Seat("c0ffee01", 0, "t" * 32, "creature_wars"), summary)], True))
        await until(pilot, lambda: yours.room_ids() == ["c0ffee01"], "your rooms")
        assert yours.has_focus is focused
        assert app.lobby.query_one("#rooms", DataTable).has_focus is not focused


async def test_a_listing_drawn_before_its_columns_are_measured_is_drawn_again_in_full() -> None:
    """The rooms table is refilled by every listing; if the screen is drawn between the refill and the table's
    measuring its columns (on idle), the lines drawn then must not stay: every name in full afterwards."""
    names = ["[b]Zoë[/b]", "somebody with a long name"]
    listing = {"t": "rooms", "rooms": [room_summary("creature_wars", players=names, status="playing")]}
    app = ReplayApp([])
    async with app.run_test(size=SIZE) as pilot:
        await replay(pilot)
        rooms: DataTable[str] = app.screen.query_one("#rooms", DataTable)
        app.link.handle(listing)
        for _ in range(100):  # the lobby fills the table on its next turn: draw it right then, before it measures
            if rooms.row_count:
                break
            await asyncio.sleep(0)
        app.export_screenshot()
        await settle(pilot)
        assert ", ".join(names) in screen_text(app), screen_text(app)

"""The lobby's create pane (any game, a solitaire's daily deal) and the high-score screen, against a real server."""
from __future__ import annotations

import itertools
from typing import Any

import redis
from textual.widgets import DataTable

from client.app import CardroomApp
from client.connection import Client, Seat
from client.scores import format_table
from client.screens import LobbyScreen, QueensScreen, ScoresScreen, SolitaireScreen, TableauScreen
from client.screens.high_scores import TABLES, table_id
from client.screens.solitaire_end import SolitaireEndScreen
from engine import registry
from server.lobby.lobby import daily_seed, today
from server.store.store import DAILY_SECRET
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until
from tests.server.players import keyed


def row_of(app: CardroomApp, room: str) -> str:
    return next((line for line in screen_text(app).splitlines() if f"#{room}" in line), "")


async def play_to_the_end(client: Client, seat: Seat) -> dict[str, Any]:
    """Play the first legal move that does not lose until the game ends (every play removes a card)."""
    view = await client.wait_view(seat.room, lambda v: True)
    for _ in range(60):
        if view["outcome"] is not None:
            return view
        move = next((m for m in view["legal"] if not m.get("loses")), view["legal"][0])
        reply = await client.decide(seat, move)
        view = reply["view"]
    raise AssertionError("the game did not end")


def day_secret(lost: bool) -> bytes:
    """A key of the daily seeds whose Fairy Tableau deal today is lost at once (``lost``) or has a play."""
    game = registry.get("fairy_tableau")
    assert game is not None
    return next(s for s in (n.to_bytes(32, "big") for n in itertools.count())
                if (game.outcome(game.setup({}, daily_seed(s, game.name, today()))) is not None) == lost)


async def test_create_any_game_from_the_lobby_and_a_daily_deal(server_url: str, redis_url: str) -> None:
    redis.Redis.from_url(redis_url).set(DAILY_SECRET, day_secret(lost=False))  # a deal with a play: the table opens
    hook = Recorder()
    app = CardroomApp(server_url, "fay")
    async with app.run_test(size=SIZE, message_hook=hook) as pilot, \
            await Client.connect(server_url, name="looker") as looker:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        # the daily deal is for solitaires only
        await pilot.press("d")
        await until(pilot, lambda: any("Daily deals are for the solitaires" in t for t in hook.toasts()), "the hint")

        await pilot.press("g", "d", "c")
        await until(pilot, lambda: isinstance(app.screen, TableauScreen) and app.screen.view is not None, "the table")
        screen = app.screen
        assert isinstance(screen, SolitaireScreen) and screen.view is not None
        rooms = await looker.list_rooms()
        assert len(rooms) == 1 and rooms[0]["room"] == screen.room
        # the app plays with its player key: its first daily deal of the day is ranked in the day's table
        assert rooms[0]["game"] == "fairy_tableau" and rooms[0]["daily"]
        assert rooms[0]["ranked"] == f"daily:{rooms[0]['daily']}"
        assert rooms[0]["players"] == ["fay"] and rooms[0]["score"] == screen.view["score"], str(rooms[0])
        daily_room = screen.room

        await pilot.press("q", "y")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: "daily" in row_of(app, daily_room), "the room in the list")
        row = row_of(app, daily_room)
        assert "Fairy Tableau" in row and "1/1" in row and "fay" in row and " 7 " in row and "your seat" in row

        # the daily box went off once its room was made: g moves on to Queen's Challenge, c makes a ranked all-time room
        await pilot.press("g", "c")
        await until(pilot, lambda: isinstance(app.screen, QueensScreen) and app.screen.view is not None, "the table")
        queens = next(r for r in await looker.list_rooms() if r["game"] == "queens_challenge")
        assert queens["ranked"] == "all" and queens["players"] == ["fay"] and not queens["scenario"]


async def test_a_daily_deal_lost_at_once_ends_on_the_days_table(server_url: str, redis_url: str) -> None:
    """About one Fairy Tableau deal in 80 is lost before any play: the day's room still seats us, and its end screen,
    over the table at once, ranks the score on today's table (known from ``room_created``, as no listing names the
    room yet), not on the all-time one."""
    redis.Redis.from_url(redis_url).set(DAILY_SECRET, day_secret(lost=True))
    app = CardroomApp(server_url, "gil")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("g", "d", "c")
        await until(pilot, lambda: isinstance(app.screen, SolitaireEndScreen), "the end screen")
        assert isinstance(app.screen_stack[-2], TableauScreen), "the table is under it"
        await until(pilot, lambda: "Rank 1 on today's table" in screen_text(app), "the rank")
        assert "all-time" not in screen_text(app)


async def test_scores_screen_shows_the_server_tables(server_url: str) -> None:
    finisher, _ = await keyed(server_url, "finisher", "finisher-secret-key-0123")  # a key: scores under the name
    async with finisher:
        seat = await finisher.create("fairy_tableau")
        assert isinstance(seat, Seat)
        final = await play_to_the_end(finisher, seat)
        score = final["outcome"]["scores"][0]
        best = await finisher.request("scores", game="fairy_tableau")
        assert [(e["name"], e["room"], e["score"]) for e in best["entries"]] == [("finisher", seat.room, score)]

        app = CardroomApp(server_url, "reader")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.lobby.query_one("#rooms", DataTable).row_count == 1, "the lobby")
            assert f" {score} " in row_of(app, seat.room) and "over" in row_of(app, seat.room)
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, ScoresScreen), "the scores screen")
            screen = app.screen
            assert isinstance(screen, ScoresScreen)
            await until(pilot, lambda: len(screen.tables) == len(TABLES), "every table")
            await pilot.pause(0.1)
            boxes = {key: panel_text(app, f"#{table_id(*key)}").rstrip() for key in TABLES}
            assert boxes[("fairy_tableau", False)] == format_table(best)
            assert f"   1. {score:>6}  finisher" in boxes[("fairy_tableau", False)]
            for key in (("fairy_tableau", True), ("queens_challenge", False), ("queens_challenge", True)):
                assert boxes[key].endswith("no scores yet"), boxes[key]
            assert "today (" in boxes[("queens_challenge", True)] and "all time" in boxes[("queens_challenge", False)]
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back in the lobby")


def test_a_table_with_entries_is_written_rank_score_name_room() -> None:
    table = {"game": "queens_challenge", "table": "daily:2030-01-02", "entries": [
        {"rank": 1, "name": "ada", "room": "a1b2c3", "score": 52},
        {"rank": 2, "name": "", "room": "d4e5f6", "score": 17},
    ]}
    lines = format_table(table).splitlines()
    assert lines[0] == "Queen's Challenge — today (2030-01-02)" and set(lines[1]) == {"-"}, "the game's title"
    assert lines[2].split() == ["1.", "52", "ada", "#a1b2c3"]
    assert lines[3].split() == ["2.", "17", "anonymous", "#d4e5f6"]


async def test_the_lobby_footer_shows_the_keys_to_play_the_computer() -> None:
    from tests.client.helpers import screen_text
    from tests.client.replay import ReplayApp, replay

    app = ReplayApp([])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        footer = screen_text(app).splitlines()[-1]
        assert "b/B vs computer" in footer and "c create" in footer, footer


def test_score_tables_are_headed_with_the_game_title() -> None:
    table = {"game": "fairy_tableau", "table": "all", "entries": []}
    assert format_table(table).splitlines()[0] == "Fairy Tableau — all time"

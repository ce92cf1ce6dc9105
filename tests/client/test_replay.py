"""The replay viewer on a real finished match: stepping, views, duel jumps, the outcome; opened from the end screen,
the leaderboard's history and ``cardroom replay``; a seat's view hides what ``game.view`` hides."""
from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.widgets import OptionList

from client.app import CardroomApp
from client.connection import Client, Seat
from client.identity import IdentityStore
from client.link import address_of
from client.records import fetch_record
from client.replay import Replay
from client.screens import EndScreen, LobbyScreen
from client.screens.end import Ending, result_line
from client.screens.leaderboard import LeaderboardScreen
from client.screens.replay import ReplayScreen, board
from client.viewer import ViewerApp, load_record
from engine import registry
from server.cli import main
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until
from tests.client.test_match_life import QUICK, finish_quick_match, on_table, status
from tests.server.helpers import play_to_end

VIEWER = (80, 24)
OPTIONS = {"hp": 12}
"""A Creature Wars match of a few duels."""


async def played(url: str, *, key_a: str | None = None, ranked: bool = False, seed: int = 11) -> tuple[str, dict[str, Any]]:
    """A Creature Wars match ann and bob played to its end on the server; its room and record. Unranked, ``seed`` is
    the deal's seed too, so the match is the same every run (a dealt seed would give, about once in 300 runs, a
    match of a single duel); a ranked match is dealt from the players' nonces."""
    async with await Client.connect(url, name="ann", key=key_a) as a, \
            await Client.connect(url, name="bob", key="bob-key-" + "0" * 24 if ranked else None) as b:
        sa = await a.create("creature_wars", None if ranked else OPTIONS, ranked=ranked, seed=None if ranked else seed)
        assert isinstance(sa, Seat)
        sb = await b.join(sa.room)
        await play_to_end([(a, sa), (b, sb)], seed=random.Random(seed).randrange(1000))
        await b.wait_view(sb.room, lambda v: v["outcome"] is not None)
    return sa.room, await fetch_record(url, sa.room)


def duels(record: dict[str, Any]) -> list[int]:
    """The decision numbers whose events reveal a duel, found with the engine alone."""
    game = registry.get("creature_wars")
    assert game is not None
    state = game.setup(record["options"], record["seed"])
    found = []
    for n, entry in enumerate(record["decisions"], 1):
        state, events = game.apply(state, entry["seat"], entry["d"])
        if any(e.kind == "reveal" for e in events):
            found.append(n)
    return found


def viewer(app: App[Any]) -> ReplayScreen:
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    return screen


def shown(screen: ReplayScreen) -> str:
    """Everything the viewer shows of its step and view, the part of the table scrolled out of sight included
    (printed wide: a card's text wrapped over two lines would not be found whole)."""
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(board(screen.replay, screen.step, screen.seat))
    return "\n".join([screen.where().plain, console.export_text(), screen.events_text().plain])


def hidden_from_seat_0(replay: Replay, n: int) -> set[str]:
    """Seat 1's hand cards that seat 0 was not shown: not in its view of step ``n``, nor in an event it was told up to
    then (seat 1 may hold a copy of a card just revealed in a duel: its text is no secret)."""
    shown = json.dumps([replay.view(n, 0), [replay.events(k, 0) for k in range(n + 1)]], ensure_ascii=False)
    hand = replay.view(n, 1)["hands"][1]["cards"]
    return {str(card["text"]) for card in hand if str(card["text"]) not in shown}


async def test_step_switch_views_jump_to_a_duel_and_see_the_outcome(server_url: str) -> None:
    _, record = await played(server_url)
    marks = duels(record)
    assert len(marks) >= 2, "the match has several duels"
    last = len(record["decisions"])
    app = ViewerApp(Replay(record))
    async with app.run_test(size=VIEWER) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = viewer(app)
        assert (screen.step, screen.seat) == (0, None)
        assert f"Decision 0/{last}" in screen_text(app) and "The deal." in screen_text(app)
        await pilot.press("right", "right")
        assert screen.step == 2
        await pilot.press("left")
        await until(pilot, lambda: f"Decision 1/{last}" in screen_text(app), "one decision back")
        first = record["decisions"][0]
        assert f"{['ann', 'bob'][first['seat']]} (Player {first['seat'] + 1}): " in screen_text(app)

        await pilot.press("home", "n")  # from the deal: the first duel may be revealed by decision 1 itself
        assert screen.step == marks[0]
        await until(pilot, lambda: "⚔ duel" in screen_text(app) and "Revealed:" in panel_text(app, "#events"), "a duel")
        await pilot.press("n")
        assert screen.step == marks[1]
        await pilot.press("p")
        assert screen.step == marks[0]

        await pilot.press("v")
        await until(pilot, lambda: "ann's view" in screen_text(app), "ann's view")
        assert screen.seat == 0
        await pilot.press("v")
        await until(pilot, lambda: "bob's view" in screen_text(app), "bob's view")
        await pilot.press("v")
        await until(pilot, lambda: "full view" in screen_text(app), "the full view")
        assert screen.seat is None

        await pilot.press("end")
        outcome = record["outcome"]
        words = result_line(Ending(record["room"], "creature_wars", outcome, ("ann", "bob"), None, None, "")).plain
        await until(pilot, lambda: f"Decision {last}/{last}" in screen_text(app) and words in screen_text(app),
                    "the outcome")
        await pilot.press("home")
        assert screen.step == 0


async def test_a_seat_view_shows_no_card_its_view_hides(server_url: str) -> None:
    _, record = await played(server_url, seed=12)
    replay = Replay(record)
    app = ViewerApp(replay)
    async with app.run_test(size=VIEWER) as pilot:
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the viewer")
        screen = viewer(app)
        for n in (0, 1, duels(record)[0]):
            hidden = hidden_from_seat_0(replay, n)
            assert hidden, f"seat 1 holds cards seat 0 does not see at step {n}"
            screen.step, screen.seat = n, None
            await until(pilot, lambda: "full view" in screen_text(app), "the full view")
            missing = sorted(card for card in hidden if card not in shown(screen))
            assert not missing, f"the full view does not show {missing} at step {n}:\n{shown(screen)}"
            screen.seat = 0
            await until(pilot, lambda: "ann's view" in screen_text(app), "ann's view")
            seen = shown(screen) + screen_text(app)
            assert not [card for card in hidden if card in seen], f"step {n}: seat 1's hidden cards shown to seat 0"
            if n == 1 and record["decisions"][0]["seat"] == 1:  # bob's sealed play is not named to ann
                assert "(hidden from this view)" in seen


async def test_the_end_screen_opens_the_replay_of_a_players_only_room(server_url: str, state_dir: Path) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", QUICK, seed=77, replays="players")
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            await finish_quick_match(pilot, app, host, seat)
            assert "v replay" in screen_text(app)
            await pilot.press("v")
            await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay")
            await pilot.press("end")
            await until(pilot, lambda: "Decision 2/2" in screen_text(app) and "guest wins — knockout" in screen_text(app),
                        "the last decision")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "back to the end screen")

        stranger = CardroomApp(server_url, "stranger", spectate=seat.room, guest=True)  # no key: held no seat
        hook = Recorder()
        async with stranger.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: isinstance(stranger.screen, EndScreen), "the end screen of a spectator")
            await pilot.press("v")
            await until(pilot, lambda: any("for its players only" in t for t in hook.toasts()), "the refusal")
            assert not isinstance(stranger.screen, ReplayScreen)


async def test_the_leaderboard_lists_ratings_and_replays_a_match_of_the_history(server_url: str, state_dir: Path) -> None:
    key = IdentityStore(state_dir).key(address_of(server_url))  # the app's own player key
    room, _ = await played(server_url, key_a=key, ranked=True)
    async with await Client.connect(server_url) as reader:
        table = await reader.request("ratings", game="creature_wars")
    assert sorted(e["name"] for e in table["entries"]) == ["ann", "bob"]
    app = CardroomApp(server_url, "ann")
    async with app.run_test(size=VIEWER) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the leaderboard")
        top = table["entries"][0]
        await until(pilot, lambda: top["name"] in panel_text(app, "#ratings-creature_wars"), "the ratings")
        box = panel_text(app, "#ratings-creature_wars")
        assert f"1. {top['rating']:>6.0f}" in box and "ann" in box and "bob" in box
        assert "no rated matches yet" in panel_text(app, "#ratings-fairy_meat")
        await until(pilot, lambda: f"#{room}" in panel_text(app, "#history"), "ann's history")
        history = app.screen.query_one("#history", OptionList)
        history.focus()
        history.highlighted = 0
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen), "the replay of that match")
        assert viewer(app).replay.room == room
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "back to the leaderboard")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back to the lobby")

    guest = CardroomApp(server_url, "", guest=True)
    async with guest.run_test(size=VIEWER) as pilot:
        await until(pilot, lambda: guest.link.client is not None, "the connection")
        await pilot.press("l")
        await until(pilot, lambda: "a guest keeps no history" in panel_text(guest, "#history"), "no history for a guest")
        assert top["name"] in panel_text(guest, "#ratings-creature_wars")


async def test_cardroom_replay_reads_a_file_or_a_server(server_url: str, tmp_path: Path) -> None:
    room, record = await played(server_url, seed=13)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    assert await load_record(str(path), None) == record
    assert (await load_record(room, server_url))["decisions"] == record["decisions"]
    assert await asyncio.to_thread(main, ["replay", str(tmp_path / "missing.json")]) == 1

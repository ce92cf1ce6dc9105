"""Names are plain text everywhere: a name written as markup shows as typed, never styled (so it cannot pose as
another, or hide)."""
from __future__ import annotations

from typing import Any

from client.screens import MatchScreen
from client.screens.end import EndScreen
from client.screens.high_scores import ScoresScreen
from client.screens.leaderboard import ratings_text
from tests.client.helpers import screen_text, settle
from tests.client.replay import ROOM, ReplayApp, replay, room_summary, table_messages

ZOE = "[b]Zoë[/b]"
BOB = "[red]bob[/red]"
LISTING = {"t": "rooms", "rooms": [room_summary("creature_wars", players=[ZOE, BOB], status="playing")]}
CLOCK = {"seats": [{"left": 25.0, "bank": 60.0}, {"left": None, "bank": 58.0}], "limits": {"move": 30, "bank": 60}}


def timed(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**m, "clock": CLOCK} if m["t"] == "view" else m for m in messages]


async def test_the_lobby_shows_markup_in_a_name_as_typed() -> None:
    app = ReplayApp([LISTING])
    async with app.run_test(size=(120, 40)) as pilot:
        await replay(pilot)
        text = screen_text(app)
        assert f"{ZOE}, {BOB}" in text, text


async def test_a_spectator_table_its_clock_and_status_show_names_as_typed() -> None:
    messages = timed(table_messages("creature_wars", None, seed=5, decisions=[(0, 0), (1, 0), (0, 0)]))
    app = ReplayApp([LISTING, *messages])
    async with app.run_test(size=(120, 40)) as pilot:
        await replay(pilot)
        await settle(pilot)
        assert isinstance(app.screen, MatchScreen)
        text = screen_text(app)
        clock = next(line for line in text.splitlines() if "⏱" in line)
        assert ZOE in clock and BOB in clock, clock
        assert f"╭─ {ZOE} ─" in text or f" {ZOE} ─╮" in text or f"─ {ZOE} ─" in text, "the duel box's title"
        assert f"{ZOE} ─ Empire" in text and f"{BOB} ─ Empire" in text
        status = str(app.screen.query_one("#status").render())
        assert f"{ZOE} 🔒 locked in" in status and f"{ZOE} 🔒 locked in" in text


async def test_the_end_screen_and_the_chat_show_names_as_typed() -> None:
    chat = {"t": "chat", "room": ROOM, "name": BOB, "seat": 1, "text": "[i]gg[/i]", "ts": 0}
    over = {"t": "match_over", "room": ROOM, "seed": None, "commitment": "",
            "outcome": {"winner": 1, "reason": "resigned", "scores": [30, 30], "detail": "Seat 0 resigns. Seat 1 wins."}}
    app = ReplayApp([LISTING, *table_messages("creature_wars", 0, seed=5), chat])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        await settle(pilot)
        text = screen_text(app)
        assert f"{BOB} (Player 2): [i]gg[/i]" in text, text
        app.link.handle(over)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        assert f"{BOB} wins" in text or f"│ {BOB} · " in text, text
        assert f"│ {ZOE} (you) · " in text and f"│ {BOB} · " in text, text


async def test_score_tables_and_ratings_show_names_as_typed() -> None:
    app = ReplayApp([])
    async with app.run_test(size=(120, 40)) as pilot:
        screen = ScoresScreen()
        await app.push_screen(screen)
        await settle(pilot)  # (the app's own request fails first: no server)
        screen.put("fairy_tableau", False, {"game": "fairy_tableau", "table": "all", "entries": [
            {"rank": 1, "score": 3004, "name": ZOE, "room": "c0ffee03"}]})
        await settle(pilot)
        assert ZOE in screen_text(app)
    reply = {"entries": [{"rank": 1, "rating": 1500.0, "rd": 50.0, "name": ZOE, "games": 3}]}
    assert ZOE in ratings_text(reply).plain

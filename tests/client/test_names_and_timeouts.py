"""A timeout is not shown as our own move; a forfeit names the rule that applied; the end screen and a spectator's
table name players by their names; "X is back" only follows a real drop."""
from __future__ import annotations

from typing import Any

import pytest

from client.screens import MatchScreen
from client.screens.end import EndScreen
from tests.client.helpers import screen_text, settle
from tests.client.replay import ROOM, ReplayApp, replay, room_summary, table_messages

NAMES = {"t": "rooms", "rooms": [room_summary("creature_wars", players=["alice", "bob"], status="playing")]}
"""The lobby's listing of the room: it gives the players' names."""


def status(app: ReplayApp) -> str:
    return str(app.screen.query_one("#status").render())


async def test_a_timeout_says_the_server_played_for_you() -> None:
    app = ReplayApp(table_messages("creature_wars", 0, seed=5, decisions=[(0, {"kind": "timeout"})]))
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        screen = app.screen
        assert isinstance(screen, MatchScreen) and screen.view is not None
        card = screen.view["locked_card"]["text"]
        assert status(app) == f"time ran out: the server played {card} for you — waiting for the opponent"
        assert "you locked in" not in status(app)


def forfeit(winner: int) -> dict[str, Any]:
    loser = 1 - winner
    return {"t": "match_over", "room": ROOM, "seed": None, "commitment": "",
            "outcome": {"winner": winner, "reason": "forfeit", "scores": [30, 30],
                        "detail": f"Seat {loser} forfeits: its clock ran out too often, or it stayed away too long. "
                                  f"Seat {winner} wins."}}


async def test_the_end_of_a_forfeit_names_the_rule_and_the_players() -> None:
    messages = [*table_messages("creature_wars", 0, seed=5, decisions=[(0, 0)]), NAMES, forfeit(0)]
    app = ReplayApp(messages)
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        await settle(pilot)
        assert isinstance(app.screen, EndScreen)
        text = screen_text(app)
        assert "bob lost by forfeit: the clock ran out 3 times in a row" in text, text
        assert "stayed away" not in text, "one rule, the one that applied: bob was at the table"
        assert "│ alice (you) · " in text and "│ bob · " in text
        for seat_word in ("Seat 0", "Seat 1", "Player 1", "Player 2", "│ —"):
            assert seat_word not in text, seat_word


async def test_an_away_player_who_never_timed_out_forfeits_by_staying_away() -> None:
    away = {"t": "presence", "room": ROOM, "seat": 1, "connected": False}
    app = ReplayApp([*table_messages("creature_wars", 0, seed=5), NAMES, away, forfeit(0)])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        await settle(pilot)
        assert "bob lost by forfeit: stayed away past the grace period" in screen_text(app)


async def test_a_spectator_sees_the_players_names() -> None:
    app = ReplayApp([NAMES, *table_messages("creature_wars", None, seed=5, decisions=[(0, 0), (1, 0), (0, 0)])])
    async with app.run_test(size=(120, 40)) as pilot:
        await replay(pilot)
        await settle(pilot)
        text = screen_text(app)
        assert "alice" in text and "bob" in text
        assert "Player 1" not in text and "Player 2" not in text, text


async def test_is_back_only_after_a_real_drop() -> None:
    joined = {"t": "presence", "room": ROOM, "seat": 1, "connected": True}
    app = ReplayApp([*table_messages("creature_wars", 0, seed=5), NAMES, joined])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        screen = app.screen
        assert isinstance(screen, MatchScreen)
        assert "is back" not in screen_text(app), "a player sitting down is not back"
        app.link.handle({"t": "presence", "room": ROOM, "seat": 1, "connected": False})
        app.link.handle(joined)
        await settle(pilot)
        assert "bob is back" in screen_text(app)


FAIRY_NAMES = {"t": "rooms", "rooms": [room_summary("fairy_meat", players=["carol", "dave"], status="playing")]}
FAIRY_MEAT = [(0, 0), (1, 0), (0, 0), (0, 0), (1, 0), (0, 0), (1, 0), (0, 0), (1, 0)]
"""Decisions of a Fairy Meat match up to the first reveal of sealed Numbered cards (seed 7)."""


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
async def test_a_fairy_meat_spectator_sees_the_players_names(size: tuple[int, int]) -> None:
    app = ReplayApp([FAIRY_NAMES, *table_messages("fairy_meat", None, seed=7, decisions=FAIRY_MEAT)])
    async with app.run_test(size=size) as pilot:
        await replay(pilot)
        await settle(pilot)
        text = screen_text(app)
        assert "carol" in text and "dave" in text, text
        assert "Player 1" not in text and "Player 2" not in text, text
        assert "P1 " not in text and "P2 " not in text, text

"""A finished solitaire has an end screen: the result and the score, its rank on the high-score table it entered
(or why it has none), and a new game or the lobby one key away."""
from __future__ import annotations

from client.app import CardroomApp
from client.screens import ConfirmScreen, LobbyScreen, TableauScreen
from client.screens.solitaire_end import SolitaireEndScreen
from tests.client.helpers import panel_text, screen_text, until
from tests.client.replay import ROOM, ReplayApp, replay, room_summary, table_messages

LOST_AT_ONCE = table_messages("fairy_tableau", 0, seed=4, decisions=[(0, 0)])
"""Fairy Tableau dealt from seed 4: its first move cannot pay for the next enemy, and the game is lost (score 7)."""


async def test_a_practice_deal_ends_on_its_end_screen_with_its_score_and_no_rank() -> None:
    practice = {"t": "rooms", "rooms": [room_summary("fairy_tableau", players=["alice"], seats=1, status="playing")]}
    assert LOST_AT_ONCE[-1]["t"] == "match_over"
    app = ReplayApp([practice, *LOST_AT_ONCE])
    async with app.run_test(size=(80, 24)) as pilot:
        await replay(pilot)
        await until(pilot, lambda: isinstance(app.screen, SolitaireEndScreen), "the end screen")
        text = " ".join(screen_text(app).split())
        assert "Game over — could not pay" in text and "Score 7" in text, text
        assert "Not ranked: a practice deal" in text
        assert "n new game of Fairy Tableau · t high scores · b back to lobby · Esc see the table" in text
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableauScreen), "the final table")
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, SolitaireEndScreen), "the end screen again")
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        assert app.match_screen(ROOM) is None, "the table is left"


async def test_a_ranked_game_played_to_its_end_shows_its_rank_and_n_deals_another(server_url: str) -> None:
    app = CardroomApp(server_url, "fay")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("g", "c")  # Fairy Tableau, a fresh deal: ranked in the all-time table
        # (a deal lost as it is dealt, about one in 80, opens its end screen over the table at once)
        await until(pilot, lambda: any(s.view is not None for s in app.match_screens()), "the table")
        table = app.match_screens()[0]
        assert isinstance(table, TableauScreen)
        def moved(version: int) -> bool:
            return isinstance(app.screen, SolitaireEndScreen | ConfirmScreen) or table.version != version

        for _ in range(80):  # a move that loses ends the game; else the first move: a deal is lost within 30 moves
            if isinstance(app.screen, SolitaireEndScreen):
                break
            version = table.version
            if isinstance(app.screen, ConfirmScreen):  # the move loses the game: play it anyway
                await pilot.press("y")
                await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen), "the losing move played")
            else:
                assert table.view is not None
                legal = list(table.view["legal"])
                losing = next((n for n, entry in enumerate(legal[:9]) if entry.get("loses")), 0)
                await pilot.press(str(losing + 1), "enter")
            await until(pilot, lambda: moved(version), "the move played")  # noqa: B023 (awaited within the turn)
        end = app.screen
        assert isinstance(end, SolitaireEndScreen), "the game did not end within 80 moves"
        score = end.finished.outcome["scores"][0]
        await until(pilot, lambda: "Rank " in panel_text(app, "#result"), "the rank on the all-time table")
        text = " ".join(screen_text(app).split())
        assert f"Score {score}" in text and "on the all-time table" in text, text
        first = table.room
        await pilot.press("n")
        await until(pilot, lambda: [s.room for s in app.match_screens()] not in ([], [first]), "a new deal")
        assert [type(s) for s in app.match_screens()] == [TableauScreen]
        assert app.match_screen(first) is None, "the finished table was left"

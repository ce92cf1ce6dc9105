"""A whole match against the computer through the terminal client: b in the lobby, then keys alone."""
from __future__ import annotations

from client.app import CardroomApp
from client.screens import EndScreen
from client.screens.question import QuestionScreen
from tests.client.helpers import SIZE, until
from tests.client.test_match_life import on_table, status


async def test_a_match_against_the_computer_is_played_with_the_keyboard_to_its_end(server_url: str) -> None:
    app = CardroomApp(server_url, "ada", seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("b")  # Creature Wars, the strong bot
        await until(pilot, lambda: on_table(app), "the table", timeout=20)
        await until(pilot, lambda: isinstance(app.screen, EndScreen) or status(app).startswith("your move")
                    or "choice" in status(app), "the bot to sit", timeout=20)
        moves = 0
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, QuestionScreen):
                await pilot.press("enter")
            elif on_table(app) and status(app).startswith("your move"):
                version = screen.view["version"] if screen.view else -1  # type: ignore[attr-defined]
                await pilot.press("enter")
                moves += 1
                await until(pilot, lambda v=version: isinstance(app.screen, (EndScreen, QuestionScreen))
                            or (on_table(app) and app.screen.view["version"] != v), "the move", timeout=20)  # type: ignore[attr-defined]
            else:
                await pilot.pause(0.05)
        assert isinstance(app.screen, EndScreen), "the match did not end"
        ending = app.screen
        assert moves > 0
        assert "strong bot" in " ".join(str(name) for name in ending.ending.names)  # type: ignore[attr-defined]

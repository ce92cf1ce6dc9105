"""A refused play says why (the engine's reason, from the server's illegal_decision), and the hand marks the cards
that cannot be played before the player tries, with the reason the server sent with the seat's view."""
from __future__ import annotations

from client.app import CardroomApp
from client.connection import Client, Seat
from client.screens import MatchScreen
from tests.client.helpers import panel_text, screen_text, until

CORNFIELD = {
    "first_drawer": 0,
    "hands": [["Lvl.1 Serpent", "Lvl.1 Giant"], ["Lvl.3 Dragon", "Lvl.1 Cornfield Witch"]],
    "deck": [f"Lvl.{n} Holy Skeleton {{3}}" for n in range(1, 7)],
}
"""The guest (seat 1) holds a Cornfield Witch: no creature of its hand may be played while it is held."""


async def test_a_blocked_card_is_marked_and_enter_on_it_says_why(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", CORNFIELD, seed=3)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, MatchScreen) and app.screen.view is not None
                        and bool(app.screen.view["legal"]), "the seat")
            screen = app.screen
            assert isinstance(screen, MatchScreen) and screen.view is not None
            cards = [c["text"] for c in screen.view["hands"][1]["cards"]]
            dragon = next(i for i, text in enumerate(cards) if "Dragon" in text)
            hand = panel_text(app, "#hand").splitlines()
            assert hand[dragon].rstrip().endswith("✗"), hand
            witch = next(i for i, text in enumerate(cards) if "Cornfield" in text)
            assert "✗" not in hand[witch], hand
            held_back = [n + 1 for n, text in enumerate(cards) if "Cornfield" not in text]
            numbers = ", ".join(str(n) for n in held_back)
            why = f"{'card' if len(held_back) == 1 else 'cards'} {numbers}: may not be played while the Cornfield Witch"
            assert any(line.startswith(f"✗ {why}") for line in hand), hand
            await pilot.press(str(dragon + 1), "enter")
            await until(pilot, lambda: "refused" in str(screen.query_one("#status").render()), "the refusal")
            status = str(screen.query_one("#status").render())
            assert "may not be played while the Cornfield Witch is in your hand" in status, status
            assert f"(card {dragon + 1})" in status and "slot" not in status, status
            assert "may not be played while the Cornfield Witch" in screen_text(app)
            await pilot.press(str(witch + 1))
            await until(pilot, lambda: "refused" not in str(screen.query_one("#status").render()), "a key clears it")

"""Two-player rooms are rated by default between identified players: a finished match moves both ratings and
shows on the leaderboard; R makes a room casual, and a guest's room is always casual."""
from __future__ import annotations

import random

from client.app import CardroomApp
from client.connection import Client, Seat
from tests.client.helpers import SIZE, screen_text, until
from tests.server.players import keyed


async def test_a_match_between_identified_players_is_rated_and_on_the_leaderboard(server_url: str) -> None:
    app = CardroomApp(server_url, "fay")  # a player key, kept in the test's state directory
    bob, _ = await keyed(server_url, "bob", "b" * 32)
    rng = random.Random(4)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.link.client is not None, "the connection")
            await pilot.press("c")
            await until(pilot, lambda: len(app.link.seats) == 1, "fay's seat")
            mine = next(iter(app.link.seats.values()))
            assert {r["room"]: r for r in await bob.list_rooms()}[mine.room]["ranked"] == "rated"
            theirs = await bob.join(mine.room)
            client = app.link.client
            assert client is not None
            for _ in range(600):  # fay's moves through the app's own connection, bob's through his
                view = client.views.get(mine.room) or {}
                if view.get("outcome") is not None:
                    break
                moved = False
                for who, seat in ((client, mine), (bob, theirs)):
                    seen = who.views.get(seat.room) or {}
                    if seen.get("legal") and seen.get("outcome") is None:
                        await who.decide(seat, rng.choice(seen["legal"]))
                        moved = True
                if not moved:
                    await pilot.pause(0.02)
            await until(pilot, lambda: (client.views[mine.room].get("outcome") is not None), "the end")
            entries = (await bob.request("ratings", game="creature_wars"))["entries"]
            assert sorted(e["name"] for e in entries) == ["bob", "fay"]
            assert all(e["games"] == 1 for e in entries)
            while app.screen is not app.lobby:
                await pilot.press("escape")
                await pilot.pause(0.1)
            await pilot.press("l")
            await until(pilot, lambda: "fay" in screen_text(app) and "bob" in screen_text(app), "the leaderboard")
    finally:
        await bob.close()


async def test_r_makes_a_room_casual_and_a_guests_room_is_casual(server_url: str) -> None:
    async with await Client.connect(server_url, name="looker") as looker:
        app = CardroomApp(server_url, "fay")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.link.client is not None, "the connection")
            await pilot.press("R", "c")
            await until(pilot, lambda: len(app.link.seats) == 1, "the seat")
        guest = CardroomApp(server_url, "gus", guest=True)
        async with guest.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: guest.link.client is not None, "the connection")
            await pilot.press("c")
            await until(pilot, lambda: len(guest.link.seats) == 1, "the guest's seat")
        rooms = await looker.list_rooms()
        assert sorted((r["players"][0], r["ranked"]) for r in rooms) == [("fay", ""), ("gus", "")]
        assert all(isinstance(seat, Seat) for seat in (*app.link.seats.values(), *guest.link.seats.values()))

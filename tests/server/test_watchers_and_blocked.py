"""Two things a view message carries beside the view: why each card of the seat's own hand may not be played
(``blocked``, that seat's alone), and how many watch (``spectators``, with a ``watchers`` push when it changes)."""
from __future__ import annotations

from client import Client
from tests.server.players import pushed

CORNFIELD = {
    "first_drawer": 0,
    "hands": [["Lvl.1 Serpent", "Lvl.1 Giant"], ["Lvl.3 Dragon", "Lvl.1 Cornfield Witch"]],
    "deck": [f"Lvl.{n} Holy Skeleton {{3}}" for n in range(1, 7)],
}
"""The guest (seat 1) holds a Cornfield Witch: its Dragon may not be played."""


async def test_only_the_seat_is_told_why_its_cards_are_held_back(server_url: str) -> None:
    async with (await Client.connect(server_url, name="host", record_frames=True) as host,
                await Client.connect(server_url, name="guest", record_frames=True) as guest,
                await Client.connect(server_url, name="watcher", record_frames=True) as watcher):
        seat = await host.create("creature_wars", CORNFIELD, seed=3)
        assert not isinstance(seat, str)
        await guest.join(seat.room)
        await watcher.spectate(seat.room)

        def dealt(message: dict[str, object]) -> bool:
            return message.get("t") == "view" and message.get("view") is not None

        theirs = await guest.wait_message(dealt)
        hand = [card["text"] for card in theirs["view"]["hands"][1]["cards"]]
        reasons = dict(zip(hand, theirs["blocked"], strict=True))
        assert reasons["Lvl.3 Dragon {7}"] == "may not be played while the Cornfield Witch is in your hand", reasons
        assert next(why for text, why in reasons.items() if "Cornfield" in text) is None
        mine = await host.wait_message(dealt)
        assert mine["blocked"] == [None] * len(mine["view"]["hands"][0]["cards"])
        watched = await watcher.wait_message(dealt)
        assert watched["blocked"] == [] and watched["spectators"] == 1
        for message in [*host.received(), *watcher.received()]:
            assert "Cornfield" not in str(message.get("blocked")), "nobody else learns what the guest holds"


async def test_players_are_told_how_many_watch(server_url: str) -> None:
    async with (await Client.connect(server_url, name="host") as host,
                await Client.connect(server_url, name="one") as one,
                await Client.connect(server_url, name="two", record_frames=True) as two):
        seat = await host.create("creature_wars", seed=4)
        assert not isinstance(seat, str)
        await one.spectate(seat.room)
        assert (await pushed(host, "watchers", room=seat.room))["spectators"] == 1
        await two.spectate(seat.room)
        assert (await pushed(two, "view", room=seat.room))["spectators"] == 2, "the view says it"
        assert (await pushed(host, "watchers", room=seat.room))["spectators"] == 2
        await pushed(one, "watchers", room=seat.room, spectators=2)  # spectators are told too
        assert "watchers" not in [m["t"] for m in two.received()], "a newcomer reads the count in its view"
        await one.leave(seat.room)
        assert (await pushed(host, "watchers", room=seat.room))["spectators"] == 1
        await two.close()
        assert (await pushed(host, "watchers", room=seat.room))["spectators"] == 0, "a dropped connection counts"


async def test_a_crowd_arriving_is_told_in_a_few_pushes_not_one_per_arrival(server_url: str) -> None:
    """Thirty spectators arriving at once: the players get the count at once and then once a second at most (the
    last push says thirty), not thirty pushes; each spectator is told at most the changes after its own view."""
    async with await Client.connect(server_url, name="host", record_frames=True) as host:
        seat = await host.create("creature_wars", seed=4)
        assert not isinstance(seat, str)
        crowd = [await Client.connect(server_url, record_frames=True) for _ in range(30)]
        try:
            for c in crowd:
                await c.spectate(seat.room)
            await pushed(host, "watchers", room=seat.room, spectators=30)
            told = [m["spectators"] for m in host.received() if m["t"] == "watchers"]
            assert told[-1] == 30 and len(told) <= 4, told
            assert sum(1 for c in crowd for m in c.received() if m["t"] == "watchers") <= 2 * len(crowd)
        finally:
            for c in crowd:
                await c.close()

"""The terminal client across server nodes: it plays, through one node, a room another node owns, and plays on
when that node is killed, without knowing either."""
from __future__ import annotations

from pathlib import Path

from client.app import CardroomApp
from client.connection import Client, Seat
from tests.client.helpers import SIZE, on_table, status, table, until
from tests.server.nodes import nodes, resume_on


async def test_the_terminal_client_plays_on_when_the_node_owning_its_room_is_killed(redis_url: str,
                                                                                    repo_root: Path) -> None:
    async with nodes(redis_url, repo_root) as start:
        proc_a, url_a = await start("A")
        _, url_b = await start("B")
        async with await Client.connect(url_a, name="host") as host:
            seat = await host.create("creature_wars", seed=34)
            assert isinstance(seat, Seat)
            app = CardroomApp(url_b, "guest", join=seat.room)  # node B relays the room to node A
            async with app.run_test(size=SIZE) as pilot:
                await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
                screen = table(app)
                first = app.link.client
                await host.decide(seat, host.views[seat.room]["legal"][0])
                await until(pilot, lambda: "opponent 🔒 locked in" in status(app), "the opponent's lock")

                proc_a.kill()  # SIGKILL: the room's owner dies with the lock acknowledged
                proc_a.wait()
                await until(pilot, lambda: app.link.client not in (None, first) and not screen.notice,
                            "the reconnect and resume, through node B", timeout=30)
                assert app.screen is screen, "the table stays open across the move"
                assert "opponent 🔒 locked in" in status(app), "the acknowledged lock survived"
                again, resumed = await resume_on(url_b, seat)
                async with again:
                    await pilot.press("1", "enter")
                    await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2,
                                "the duel, on the node that took the room over")
                    view = await again.wait_view(resumed.room, lambda v: v["turn"] == 2)
                    assert view["last_duel"]["turn"] == 1

"""What a table says of the room around the match: how many watch it, and that its clocks stand still while the
server is out of reach (only the server keeps time)."""
from __future__ import annotations

from pathlib import Path

from client.app import CardroomApp
from client.connection import Client, Seat
from client.messages import Disconnected
from tests.client.helpers import Recorder, on_table, panel_text, status, table, until
from tests.server.nodes import nodes


async def test_the_table_says_how_many_watch(server_url: str) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", seed=21)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            async with await Client.connect(server_url, name="one") as one, \
                    await Client.connect(server_url, name="two") as two:
                await one.spectate(seat.room)
                await until(pilot, lambda: status(app) == "your move · 1 watching", "one spectator")
                await two.spectate(seat.room)
                await until(pilot, lambda: status(app) == "your move · 2 watching", "two spectators")
                await one.leave(seat.room)
                await until(pilot, lambda: status(app) == "your move · 1 watching", "one left")
            await until(pilot, lambda: status(app) == "your move", "nobody watches")


async def test_the_clocks_stand_still_and_say_so_while_the_server_is_down(redis_url: str, repo_root: Path) -> None:
    hook = Recorder()
    async with nodes(redis_url, repo_root) as start:
        proc, url = await start("A")
        async with await Client.connect(url, name="host") as host:
            seat = await host.create("creature_wars", seed=22)  # the default clock: 30 s a move, a minute's bank
            assert isinstance(seat, Seat)
            app = CardroomApp(url, "guest", join=seat.room)
            async with app.run_test(size=(80, 24), message_hook=hook) as pilot:
                await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
                await until(pilot, lambda: "▶ You" in panel_text(app, "#clocks"), "our clock running")
                assert "reconnecting" not in panel_text(app, "#clocks")
                proc.kill()
                proc.wait()
                await until(pilot, lambda: "reconnecting" in panel_text(app, "#clocks"), "the clocks stopped")
                stopped = panel_text(app, "#clocks")

                def drops() -> int:
                    return sum(isinstance(m, Disconnected) for m in hook.messages)

                seen = drops()
                await until(pilot, lambda: drops() >= seen + 2, "two more failed attempts (over a second)")
                assert panel_text(app, "#clocks") == stopped, "no second went off a clock while the server was down"
                assert table(app).frozen is not None

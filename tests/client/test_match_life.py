"""A two-player match's life in the terminal client, against a real server: resume after a restart, the end screen,
rematch, table talk, resign."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from client.app import CardroomApp, left_behind
from client.chat import ChatInput, TableTalk
from client.connection import Client, Seat
from client.identity import IdentityStore
from client.link import address_of
from client.screens import ConfirmScreen, DuelScreen, EndScreen, LobbyScreen, MatchScreen
from client.screens.name import NameScreen
from client.screens.your_rooms import YourRoomsList
from tests.client.helpers import SIZE, panel_text, screen_text, until

QUICK = {"hp": 1, "first_drawer": 0,
         "deck": ["Lvl.1 Holy Skeleton {3}", "Lvl.2 Holy Skeleton {3}", "Lvl.3 Holy Skeleton {3}",
                  "Lvl.4 Holy Skeleton {3}", "Lvl.5 Holy Skeleton {3}", "Lvl.6 Holy Skeleton {3}"],
         "hands": [["Lvl.1 Holy Wolf {2}"], ["Lvl.6 Fire Dragon {7}"]]}
"""One duel ends it: the Dragon (seat 1) knocks out the Wolf's Empire (1 HP)."""


def table(app: CardroomApp) -> DuelScreen:
    screen = app.screen
    assert isinstance(screen, DuelScreen), f"expected a two-player table, got {screen!r}"
    return screen


def on_table(app: CardroomApp, room: str | None = None) -> bool:
    screen = app.screen
    return isinstance(screen, DuelScreen) and screen.view is not None and (room is None or screen.room == room)


def status(app: CardroomApp) -> str:
    return str(table(app).query_one("#status").render())


async def finish_quick_match(pilot: Pilot[Any], app: CardroomApp, host: Client, seat: Seat) -> None:
    """From the guest's seat of a QUICK match the host created: both play their first card, the duel ends it,
    and the end screen opens."""
    await host.decide(seat, {"kind": "play", "slot": 0})
    await pilot.press("1", "enter")
    await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")


async def test_the_end_screen_shows_the_result_the_names_and_the_seed_check(server_url: str, state_dir: Path) -> None:
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", QUICK, seed=77)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            stored = IdentityStore(state_dir).seats(address_of(server_url))
            assert [(s.room, s.seat) for s in stored] == [(seat.room, 1)], "the granted seat is kept on disk"
            await host.decide(seat, {"kind": "play", "slot": 0})
            await pilot.press("1", "enter")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            text = screen_text(app)
            assert "You win — knockout" in text
            assert "│ host · " in text and "│ guest (you) · " in text, "names, never seats"
            assert "Seat 0" not in text and "Player 1" not in text
            assert "Seed 77 revealed." in text
            assert "server secret 77, salt " in text and "seed from a fixed deal" in text
            assert "✓ matches the commitment published when the room was made" in text
            assert "Press r to ask for a rematch" in text
            assert IdentityStore(state_dir).seats(address_of(server_url)) == [], "over and seen: the token is dropped"

            await pilot.press("escape")
            await until(pilot, lambda: on_table(app), "the final table")
            assert status(app).startswith("match over")
            await pilot.press("e")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen again")
            await pilot.press("b")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "back to the lobby")


async def test_a_restarted_client_takes_its_seat_back_by_itself(server_url: str, state_dir: Path) -> None:
    first = CardroomApp(server_url, "ada", seed=5)
    async with first.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: first.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: on_table(first), "the new table")
        room = table(first).room
        player = first.link.player
        assert first.link.client is not None and first.link.client.player == player
    # the first client is gone; its seat token is on disk only
    assert [(s.room, s.seat) for s in IdentityStore(state_dir).seats(address_of(server_url))] == [(room, 0)]

    async with await Client.connect(server_url, name="bob") as bob:
        await bob.join(room)
        await bob.wait_view(room, lambda view: True)
        listed = next(r for r in await bob.list_rooms() if r["room"] == room)
        assert listed["present"] == [False, True], "ada's seat is held by nobody"
        again = CardroomApp(server_url, "ada")
        async with again.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(again, room), "the seat taken back without a key pressed")
            assert again.link.player == player and player is not None, "the same player key, so the same player"
            screen = table(again)
            assert screen.view is not None and screen.view["seat"] == 0 and not screen.spectator
            await until(pilot, lambda: status(again) == "your move", "the running match")
            await bob.wait_for(lambda: bob.presence.get(room, {}).get(0) is True)  # ada is not away any more
            yours = again.lobby.query_one("#yours", YourRoomsList)
            assert yours.room_ids() == [room] and yours.checked, "and the lobby lists it under your rooms"


def test_only_seats_nobody_holds_in_running_rooms_are_taken_back() -> None:
    def held(room: str, seat: int) -> Seat:
        return Seat(room, seat, "t" * 32, "creature_wars")

    rooms: list[tuple[Seat, dict[str, Any] | None]] = [
        (held("left", 0), {"status": "playing", "present": [False, True]}),
        (held("waits", 0), {"status": "waiting", "present": [False, False]}),
        (held("played", 1), {"status": "playing", "present": [True, True]}),  # another terminal plays it now
        (held("ended", 0), {"status": "over", "present": [False, False]}),
        (held("gone", 0), None),  # the server no longer lists it
    ]
    assert left_behind(rooms) == ["left", "waits"]


async def test_rematch_moves_both_players_to_a_new_room_with_seats_swapped(server_url: str, state_dir: Path) -> None:
    async with await Client.connect(server_url, name="host", key="h" * 32) as host:
        seat = await host.create("creature_wars", QUICK, seed=78)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            await finish_quick_match(pilot, app, host, seat)

            await host.rematch(seat)
            await until(pilot, lambda: "host asks for a rematch: press r to accept" in screen_text(app), "their offer")

            await pilot.press("r")
            await host.wait_for(lambda: seat.room in host.rematches)
            assert host.rematch_offers[seat.room] == {0}
            theirs = host.rematches[seat.room]
            await until(pilot, lambda: on_table(app) and table(app).room == theirs.room, "the rematch table")
            screen = table(app)
            assert screen.view is not None and screen.view["seat"] == 0 and theirs.seat == 1, "seats swapped"
            stored = IdentityStore(state_dir).seats(address_of(server_url))
            assert [(s.room, s.seat) for s in stored] == [(theirs.room, 0)], "the new token kept, the old one gone"
            assert isinstance(screen, MatchScreen)


async def test_table_talk_is_plain_text_and_shows_the_servers_refusals(server_url: str) -> None:
    async with await Client.connect(server_url, name="bob") as bob, await Client.connect(server_url, name="eve") as eve:
        seat = await bob.create("creature_wars", seed=3)
        assert isinstance(seat, Seat)
        await eve.spectate(seat.room)
        app = CardroomApp(server_url, "ada", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app), "the table")
            await pilot.press("c")
            line = app.screen.query_one(ChatInput)
            await until(pilot, lambda: line.has_focus, "the chat line")
            line.value = "[bold]hello[/bold] bob"
            await pilot.press("enter")
            await bob.wait_for(lambda: bool(bob.chats.get(seat.room)))
            said = bob.chats[seat.room][-1]
            assert (said["name"], said["seat"], said["text"]) == ("ada", 1, "[bold]hello[/bold] bob")
            await eve.wait_for(lambda: bool(eve.chats.get(seat.room)))

            await bob.chat(seat.room, "[red]no markup[/red] here")
            await until(pilot, lambda: "[red]no markup[/red] here" in panel_text(app, "#talk"), "bob's line, literally")
            talk = app.screen.query_one(TableTalk)
            assert "bob (Player 1): [red]no markup[/red] here" in talk.texts[-1]
            assert "ada (you): [bold]hello[/bold] bob" in panel_text(app, "#talk")

            # too fast (more than 5 lines in 10 s): the server's refusal is written in the chat log; on a loaded
            # machine typing may be slower than that at first, so lines go on until the refusal shows (bounded)
            for n in range(40):
                if any("rate_limited" in t for t in talk.texts):
                    break
                await pilot.press("c")
                line.value = f"line {n}"
                await pilot.press("enter")
            await until(pilot, lambda: any("rate_limited" in t for t in talk.texts), "the refusal")


async def test_resign_asks_first_then_ends_the_match(server_url: str) -> None:
    async with await Client.connect(server_url, name="bob") as bob:
        seat = await bob.create("creature_wars", seed=4)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "ada", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the running match")
            await pilot.press("R")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            assert "Resign the match" in screen_text(app)
            await pilot.press("n")
            await until(pilot, lambda: on_table(app), "the table again")
            assert seat.room not in bob.over, "no means no"

            await pilot.press("R")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            assert "You lose — you resigned" in screen_text(app)
            await bob.wait_for(lambda: seat.room in bob.over)
            outcome = bob.over[seat.room]["outcome"]
            assert outcome["reason"] == "resigned" and outcome["winner"] == seat.seat


async def test_a_name_bound_to_another_key_is_refused_clearly_and_another_can_be_chosen(server_url: str) -> None:
    async with await Client.connect(server_url, name="ada", key="k" * 32):
        app = CardroomApp(server_url, "ada")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, NameScreen), "the refusal")
            text = screen_text(app)
            assert "The server refused the name 'ada' (name_taken)" in text
            assert "That name belongs to another player on this server" in text
            assert app.link.client is None
            app.screen.query_one("#name", Input).value = "ada the second"
            await pilot.press("enter")
            await until(pilot, lambda: app.link.client is not None, "the connection under the new name")
            assert app.link.client is not None and app.link.client.name == "ada the second"
            assert isinstance(app.screen, LobbyScreen)


async def test_the_clocks_count_down_for_players_and_spectators(server_url: str, tmp_path: Path) -> None:
    async with await Client.connect(server_url, name="bob") as bob:
        seat = await bob.create("creature_wars", seed=6)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "ada", join=seat.room)
        # another player, with an identity of her own (ada's would take ada's seat back on start)
        watcher = CardroomApp(server_url, "eve", spectate=seat.room, state_dir=tmp_path / "eve")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the running match")
            await until(pilot, lambda: "▶ You 0:" in panel_text(app, "#clocks"), "our clock, running")
            line = panel_text(app, "#clocks")
            assert "+ bank 1:00" in line and "▶ bob (opponent) 0:" in line, "both sealed plays are timed"
            assert table(app).clocks is not None and table(app).clocks.limits == {"move": 30, "bank": 60, "increment": 0}
        async with watcher.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(watcher), "the spectator's table")
            await until(pilot, lambda: "▶ bob 0:" in panel_text(watcher, "#clocks"), "the clocks, named")
            assert "▶ ada (away) 0:" in panel_text(watcher, "#clocks"), "ada's client has closed"


async def test_abort_is_offered_then_agreed(server_url: str) -> None:
    async with await Client.connect(server_url, name="bob", record_frames=True) as bob:
        seat = await bob.create("creature_wars", seed=8)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "ada", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the running match")
            await pilot.press("A")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")
            talk = table(app).query_one(TableTalk)
            await until(pilot, lambda: any("You offered to abort" in t for t in talk.texts), "our offer, confirmed")
            assert seat.room not in bob.over
            await bob.abort(seat)
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            assert "Aborted — aborted by both players" in screen_text(app)


async def test_a_guest_keeps_nothing_on_disk(server_url: str, state_dir: Path) -> None:
    app = CardroomApp(server_url, "passer-by", seed=5, guest=True)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: on_table(app), "the new table")
        assert app.link.player is None, "no key was sent"
    assert not state_dir.exists(), "no identity file for a guest"


async def test_cancelling_a_waiting_room_closes_it_for_everyone(server_url: str, state_dir: Path) -> None:
    async with await Client.connect(server_url, name="eve") as eve:
        app = CardroomApp(server_url, "ada", seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.link.client is not None, "the connection")
            await pilot.press("c")
            await until(pilot, lambda: on_table(app), "the new table")
            room = table(app).room
            await eve.spectate(room)
            await until(pilot, lambda: table(app).free_seats == 1, "the empty seat")
            await pilot.press("X")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await eve.wait_for(lambda: eve.closed.get(room) == "cancelled")
            assert IdentityStore(state_dir).seats(address_of(server_url)) == [], "the token of a deleted room is dropped"
            assert room not in app.link.seats


async def test_a_dropped_opponent_is_noted_at_the_table(server_url: str) -> None:
    bob = await Client.connect(server_url, name="bob")
    seat = await bob.create("creature_wars", seed=9)
    assert isinstance(seat, Seat)
    app = CardroomApp(server_url, "ada", join=seat.room)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: on_table(app) and status(app) == "your move", "the running match")
        await until(pilot, lambda: table(app).names[:1] == ("bob",), "the names")
        await bob.close()
        talk = table(app).query_one(TableTalk)
        await until(pilot, lambda: any(t.startswith("— bob dropped") for t in talk.texts), "the notice")
        await until(pilot, lambda: "bob (away)" in panel_text(app, "#clocks"), "the clock line to say so")
        async with await Client.connect(server_url, name="bob") as again:
            await again.resume(seat.room, seat.token)
            await until(pilot, lambda: any(t == "— bob is back." for t in talk.texts), "the return")
            await until(pilot, lambda: "▶ bob (opponent) 0:" in panel_text(app, "#clocks"), "the clock line to say so")


async def test_an_opponent_leaving_after_the_match_is_noted_at_the_table(server_url: str) -> None:
    """Once the match is over, a player who leaves will not ask for a rematch: the table says so."""
    bob = await Client.connect(server_url, name="bob")
    seat = await bob.create("creature_wars", seed=9)
    assert isinstance(seat, Seat)
    app = CardroomApp(server_url, "ada", join=seat.room)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the running match")
            await until(pilot, lambda: table(app).names[:1] == ("bob",), "the names")
            duel = table(app)
            await bob.resign(seat)
            await until(pilot, lambda: duel.ending is not None, "the result")
            await bob.leave(seat.room)
            talk = duel.query_one(TableTalk)
            await until(pilot, lambda: "— bob left." in talk.texts, "the notice")
            assert not any(t.startswith("— bob dropped") for t in talk.texts), "no running clock to speak of"
    finally:
        await bob.close()


async def test_a_table_opened_late_rebuilds_its_log_from_the_recent_events(server_url: str) -> None:
    async with await Client.connect(server_url, name="p1") as p1, await Client.connect(server_url, name="p2") as p2:
        first = await p1.create("creature_wars", seed=21)
        assert isinstance(first, Seat)
        second = await p2.join(first.room)
        for client, seat in ((p1, first), (p2, second)):
            view = await client.wait_view(seat.room, lambda v: bool(v["legal"]))
            await client.decide(seat, view["legal"][0])
        await p1.wait_view(first.room, lambda v: v["turn"] == 2)
        app = CardroomApp(server_url, "late", spectate=first.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app), "the table")
            await until(pilot, lambda: "Revealed: " in panel_text(app, "#log"), "the turn 1 reveal in the log")

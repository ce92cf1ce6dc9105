"""The Textual app against a real server, driven like a player drives it: keys in, screen text out."""
from __future__ import annotations

from textual.widgets import DataTable

from client.app import CardroomApp
from client.connection import Client, Seat
from client.link import address_of
from client.messages import Disconnected
from client.screens import SPECTATOR_BANNER, EndScreen, LobbyScreen
from client.widgets import DuelPanel, HandPanel
from tests.client.helpers import SIZE, Recorder, on_table, panel_text, screen_text, status, table, until


async def test_lobby_lists_rooms_of_other_players(server_url: str) -> None:
    async with await Client.connect(server_url, name="other") as other:
        seat = await other.create("creature_wars", seed=11)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "tester")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.lobby.query_one("#rooms", DataTable).row_count == 1, "the lobby to list the room")
            rooms: DataTable[str] = app.lobby.query_one("#rooms", DataTable)
            assert isinstance(app.screen, LobbyScreen)
            text = screen_text(app)
            assert f"connected to {address_of(server_url)}" in text
            row = next(line for line in text.splitlines() if f"#{seat.room}" in line)
            assert "Creature Wars" in row and "1/2" in row and "waiting" in row
            assert "other, —" in row, "the players' names, a free seat as a dash"

            later = await other.create("creature_wars", seed=12, sit=False)
            assert isinstance(later, str)
            await pilot.press("r")
            await until(pilot, lambda: rooms.row_count == 2, "r to refresh the list")
            row = next(line for line in screen_text(app).splitlines() if f"#{later}" in line)
            assert "0/2" in row and "waiting" in row


async def test_create_sit_and_play_a_turn_with_the_keyboard(server_url: str) -> None:
    hook = Recorder()
    app = CardroomApp(server_url, "alice", seed=5)
    async with app.run_test(size=SIZE, message_hook=hook) as pilot:
        await until(pilot, lambda: app.link.client is not None, "the connection")
        await pilot.press("c")
        await until(pilot, lambda: on_table(app), "the new table")
        screen = table(app)
        room, me = screen.room, screen.view["seat"] if screen.view else None
        assert me == 0
        await until(pilot, lambda: status(app) == "waiting for an opponent to join", "the empty seat to show")

        # the server refuses a play while a seat is empty; its message comes back as a toast
        await pilot.press("enter")
        await until(pilot, lambda: any("waiting for 1 more player" in t for t in hook.toasts()), "the server's error")

        async with await Client.connect(server_url, name="bob") as bob:
            bob_seat = await bob.join(room)
            await until(pilot, lambda: status(app) == "your move", "the opponent to sit")
            assert screen.view is not None
            start_version = screen.version
            mine = screen.view["hands"][me]["cards"]
            played = mine[0]["text"]
            assert played in screen_text(app), "the hand is on screen in notation"

            await pilot.press("1", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view.get("locked_card"), "the lock-in")
            assert hook.decisions()[-1] == {"kind": "play", "slot": 0}
            assert status(app) == f"you locked in {played} — waiting for the opponent"
            opponent_view = await bob.wait_view(room, lambda v: v["locked"][me])
            assert "locked_card" not in opponent_view and "cards" not in opponent_view["hands"][me]

            # locking in twice is refused by the client itself: the view lists no legal play now
            sent = len(hook.decisions())
            await pilot.press("enter")
            await until(pilot, lambda: "You have already locked in a card this turn." in hook.toasts(), "the refusal")
            assert len(hook.decisions()) == sent

            bob_play = opponent_view["legal"][0]
            bob_card = opponent_view["hands"][bob_seat.seat]["cards"][bob_play["slot"]]["text"]
            await bob.decide(bob_seat, bob_play)
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the next turn")

            assert screen.version > start_version
            duel = screen.query_one(DuelPanel).duel
            assert duel is not None and [c["text"] for c in duel["cards"]] == [played, bob_card]
            text = screen_text(app)
            assert "Turn 1 duel" in text and played in text and bob_card in text
            assert duel["summary"] in text
            drawer = "you draw first" if screen.view["first_drawer"] == me else "opponent draws first"
            assert f"turn 2 · {drawer}" in text
            assert f"Revealed: {played} vs {bob_card}." in text
            new_hand = screen.view["hands"][me]["cards"]
            assert [c["text"] for c in screen.query_one(HandPanel).cards] == [c["text"] for c in new_hand]


async def test_spectator_sees_the_banner_and_no_hand_card(server_url: str) -> None:
    async with await Client.connect(server_url, name="p1") as p1, await Client.connect(server_url, name="p2") as p2:
        s1 = await p1.create("creature_wars", seed=21)
        assert isinstance(s1, Seat)
        s2 = await p2.join(s1.room)
        room = s1.room
        await p1.wait_view(room, lambda v: True)
        await p2.wait_view(room, lambda v: True)

        def hidden_cards(public: set[str]) -> list[str]:
            hands = p1.views[room]["hands"][s1.seat]["cards"] + p2.views[room]["hands"][s2.seat]["cards"]
            return [c["text"] for c in hands if c["text"] not in public]

        app = CardroomApp(server_url, "watcher", spectate=room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app), "the spectator's table")
            screen = table(app)
            text = screen_text(app)
            assert SPECTATOR_BANNER in text
            secret = hidden_cards(set())
            assert len(secret) == 12
            assert [card for card in secret if card in text] == []
            assert not screen.query_one(HandPanel).display
            for name in ("p1", "p2"):  # the names the lobby lists, not "Player 1/2"
                await until(pilot, lambda n=name: f"{n} ─ Empire" in screen_text(app), f"{name}'s Empire")
            text = screen_text(app)
            assert text.count("hand 6") == 2

            await p1.decide(s1, p1.views[room]["legal"][0])
            await until(pilot, lambda: "🔒 locked in" in screen_text(app), "the lock glyph")
            await p2.decide(s2, p2.views[room]["legal"][0])
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the next turn")
            await p1.wait_view(room, lambda v: v["turn"] == 2)
            await p2.wait_view(room, lambda v: v["turn"] == 2)

            text = screen_text(app)
            assert SPECTATOR_BANNER in text
            duel = p1.views[room]["last_duel"]
            public = {c["text"] for c in duel["cards"] if c}
            assert all(card in text for card in public), "the revealed cards are public"
            assert [card for card in hidden_cards(public) if card in text] == []
            assert screen.view is not None and all("cards" not in hand for hand in screen.view["hands"])

            # a spectator's Enter sends nothing
            await pilot.press("1", "enter")
            await pilot.pause()
            assert screen.view is not None and screen.view["turn"] == 2 and not screen.view["locked"][0]


async def test_lost_connection_reconnects_and_resumes_the_seat(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", seed=33)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            screen = table(app)
            first = app.link.client
            assert first is not None
            await first.ws.close()
            await until(pilot, lambda: any(isinstance(m, Disconnected) for m in hook.messages), "the drop")
            await until(pilot, lambda: app.link.client not in (None, first) and not screen.notice, "the reconnect")
            assert app.screen is screen, "the table stays open across the reconnect"

            # the resumed seat still plays: both lock in and the duel resolves
            await host.decide(seat, host.views[seat.room]["legal"][0])
            await until(pilot, lambda: "opponent 🔒 locked in" in status(app), "the opponent's lock after resuming")
            await pilot.press("1", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the duel after resuming")
            assert screen.view is not None and screen.view["last_duel"]["turn"] == 1


SCENARIO = {
    "first_drawer": 0,
    "hands": [
        ["Lvl.3 Fire Giant {4}", "Lvl.1 Holy Wolf {2}", "Lvl.2 Ancient Pirate {3}"],
        ["Lvl.3 Fire Giant {4}", "Lvl.2 Cursed Witch {3}", "Lvl.1 Nightmare Serpent {0}"],
    ],
    "deck": ["Lvl.1 Holy Skeleton {3}", "Lvl.2 Holy Skeleton {3}", "Lvl.3 Holy Skeleton {3}",
             "Lvl.4 Holy Skeleton {3}", "Lvl.5 Holy Skeleton {3}", "Lvl.6 Holy Skeleton {3}"],
}
"""Both seats hold a Lvl.3 Fire Giant: playing them ties, and both come back on cooldown."""


async def test_witch_text_cooldown_leave_and_take_the_seat_back(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", SCENARIO, seed=1)
        assert isinstance(seat, Seat)
        room = seat.room
        app = CardroomApp(server_url, "guest", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            screen = table(app)
            assert screen.view is not None and screen.view["seat"] == 1

            # w shows the selected witch's rules in the side panel
            witch = screen.view["hands"][1]["cards"][1]
            assert witch["kind"] == "witch" and witch["rules"]
            await pilot.press("2", "w")
            await until(pilot, lambda: screen.query_one("#witch").display, "the witch panel")
            shown = " ".join(panel_text(app, "#witch").split())
            assert "Cursed Witch" in shown and " ".join(witch["rules"].split()) in shown
            await pilot.press("w")
            await until(pilot, lambda: not screen.query_one("#witch").display, "the panel to close")

            # a tie: both Fire Giants come back with a cooldown, dimmed and not offered
            await pilot.press("1", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view.get("locked_card"), "the lock-in")
            await host.decide(seat, {"kind": "play", "slot": 0})
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the tie")
            hand = screen.view["hands"][1]["cards"]
            slot = next(i for i, c in enumerate(hand) if c["text"] == "Lvl.3 Fire Giant {4}: (1)")
            assert hand[slot]["cooldown"] == 1 and {"kind": "play", "slot": slot} not in screen.view["legal"]
            line = next(line for line in panel_text(app, "#hand").splitlines() if "Fire Giant" in line)
            assert line.split() == [str(slot + 1), *"Lvl.3 Fire Giant {4}: (1) cooldown 1".split()]
            sent = len(hook.decisions())
            await pilot.press(str(slot + 1), "enter")
            await until(pilot, lambda: "refused" in status(app), "the refusal")
            assert f"Lvl.3 Fire Giant {{4}}: (1) (card {slot + 1}) is on cooldown for 1 turn(s)" in status(app), \
                "the server's reason, the card counted from 1"
            assert len(hook.decisions()) == sent + 1, "only the server knows why: the play is sent, and refused"

            # q asks first; n stays, y goes back to the lobby where the seat is marked ours
            await pilot.press("q")
            await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen", "the question")
            await pilot.press("n")
            await until(pilot, lambda: app.screen is screen, "staying at the table")
            await pilot.press("q", "y")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: "your seat" in screen_text(app), "the held seat in the list")

            # Enter on it takes the seat back with the token kept in memory
            await pilot.press("enter")
            await until(pilot, lambda: on_table(app), "the table again")
            back = table(app)
            assert back is not screen and back.room == room
            assert back.view is not None and back.view["seat"] == 1 and back.view["turn"] == 2
            assert status(app) == "your move"


async def test_match_over_shows_the_outcome_and_the_revealed_seed(server_url: str) -> None:
    options = {"hp": 1, "first_drawer": 0, "deck": SCENARIO["deck"],
               "hands": [["Lvl.1 Holy Wolf {2}"], ["Lvl.6 Fire Dragon {7}"]]}
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", options, seed=77)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "guest", join=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_table(app) and status(app) == "your move", "the seat")
            screen = table(app)
            await host.decide(seat, {"kind": "play", "slot": 0})
            await pilot.press("1", "enter")
            await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
            await pilot.press("escape")  # back to the final table
            await until(pilot, lambda: status(app).startswith("match over"), "the end")
            assert status(app) == "match over: Player 2 wins by knockout — you win"
            await until(pilot, lambda: "Seed 77 revealed" in panel_text(app, "#log"), "the seed")
            text = screen_text(app)
            assert "Lvl.6 Fire Dragon {7}" in text and "Lvl.1 Holy Wolf {2}" in text
            # the match is over: q leaves at once, without asking
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert screen.view is not None and screen.view["outcome"]["winner"] == 1

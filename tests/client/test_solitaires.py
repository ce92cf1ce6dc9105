"""The solitaire tables in the app against a real server: Fairy Tableau and Queen's Challenge, played and watched."""
from __future__ import annotations

from typing import Any

from client.app import CardroomApp
from client.connection import Client, Seat
from client.screens import ConfirmScreen, QueensScreen, SolitaireScreen, TableauScreen
from client.screens.solitaire import LOSING_QUESTION
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until

FAIRY_DECK = ["7D", "5C", "KH", "9D", "2C", "10D", "4S", "3S", "6C"]
"""Tableau 7♦ 5♣ K♥ 9♦ 2♣ 10♦ 4♠, then 3♠ 6♣: the first play casts 7♦ at 5♣ and spends all 7 mana."""

QUEENS_SCENARIO: dict[str, Any] = {
    "in_play": ["5H"],
    "challenge": ["KD", "3C"],
    "magic": ["2S", "8D", "JC", "4H", "9S", "6C"],
    "hand": ["7S", "3S", "2H", "9C", "4D"],
    "piles": {"D": ["2D", "5D"]},
}
"""5♥ already in play (spades attack it; the hand holds 7♠ and 3♠); diamonds power 2 (its gift reveals 2♠ 8♦)."""

QUEENS_CLUBS: dict[str, Any] = {
    "challenge": ["KD"],
    "magic": ["3D", "2S", "4S", "5S", "6S", "7S", "8S"],
    "hand": ["9H"],
    "piles": {"C": ["AC", "2C", "3C"]},
}
"""Nothing in play at the start; clubs power 3, and the gift of clubs reveals 3♦: summon it or not."""


def solitaire(app: CardroomApp) -> SolitaireScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, SolitaireScreen)), None)


def on_solitaire(app: CardroomApp) -> bool:
    screen = solitaire(app)
    return screen is not None and screen.view is not None


def status(app: CardroomApp) -> str:
    screen = solitaire(app)
    assert screen is not None
    return str(screen.query_one("#status").render())


def flat(text: str) -> str:
    """Screen text with runs of spaces and line breaks as single spaces (boxes wrap and pad)."""
    return " ".join(text.split())


async def test_fairy_tableau_plays_a_move_and_asks_before_a_losing_one(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        room = await host.create("fairy_tableau", {"deck": FAIRY_DECK}, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "fay", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the tableau")
            screen = solitaire(app)
            assert isinstance(screen, TableauScreen) and screen.view is not None
            view = screen.view
            assert view["mana"] == 7 and view["score"] == 7
            text = screen_text(app)
            assert "Fairy Tableau" in text and "mana 7 · score 7" in text
            assert f"draw pile {view['draw_pile']}" in text and view["draw_pile"] == 2
            tableau = panel_text(app, "#tableau")
            for card in view["tableau"]:
                assert card["face"] in tableau
            assert "enemy" in tableau and "fairy" in tableau and "spell" in tableau and "mana" in tableau
            moves = flat(panel_text(app, "#moves"))
            for n, move in enumerate(view["legal"][:9], 1):
                assert f"{n} {move['label']}" in moves
            assert moves.count("⚠ loses the game") == sum(1 for m in view["legal"] if m.get("loses"))

            first = view["legal"][0]
            assert first["label"] == "Cast 7♦ at 5♣ (-7 mana)" and not first.get("loses")
            await pilot.press("1", "enter")
            await until(pilot, lambda: screen.version == 1, "the play to be applied")
            assert hook.decisions() == [{"kind": "cast", "slot": 0, "target": 1}]
            view = screen.view
            assert view is not None and view["mana"] == 0 and view["score"] == 1000 and view["defeated"] == 1
            text = screen_text(app)
            assert "mana 0 · score 1000" in text and "enemies defeated 1 of 3" in text
            assert "Discard (2): 7♦ 5♣" in text
            assert "You cast 7♦ at 5♣" in text, "the event's log line"

            # a move marked "loses" asks first; n sends nothing
            losing = next(i for i, m in enumerate(view["legal"]) if m.get("loses"))
            await pilot.press(str(losing + 1), "enter")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            assert LOSING_QUESTION in flat(screen_text(app)) and view["legal"][losing]["label"] in flat(screen_text(app))
            await pilot.press("n")
            await until(pilot, lambda: app.screen is screen, "back at the table")
            await pilot.pause(0.2)
            assert len(hook.decisions()) == 1 and screen.version == 1
            assert (await host.list_rooms())[0]["version"] == 1

            # y plays it: the spell cannot be paid for and the game is lost
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question again")
            await pilot.press("y")
            await until(pilot, lambda: status(app).startswith("game over"), "the end")
            assert hook.decisions()[-1] == {k: v for k, v in view["legal"][losing].items() if k not in ("label", "loses")}
            assert status(app).endswith("— you lose")


async def test_spectating_fairy_tableau_shows_the_table_and_no_moves(server_url: str) -> None:
    async with await Client.connect(server_url, name="player") as player:
        seat = await player.create("fairy_tableau", {"deck": FAIRY_DECK})
        assert isinstance(seat, Seat)
        mine = await player.wait_view(seat.room, lambda v: True)
        app = CardroomApp(server_url, "watcher", spectate=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the spectator's table")
            screen = solitaire(app)
            assert isinstance(screen, TableauScreen) and screen.view is not None
            assert screen.view["legal"] == [] and screen.view["tableau"] == mine["tableau"]
            text = screen_text(app)
            assert "spectating: you see only public information" in text
            assert all(card["face"] in panel_text(app, "#tableau") for card in mine["tableau"])
            assert not screen.query_one("#moves-pane").display
            assert status(app) == "spectating · score 7 · 1 watching", "the spectator counts itself"

            await player.decide(seat, mine["legal"][0])
            await until(pilot, lambda: screen.version == 1, "the player's move")
            assert "mana 0 · score 1000" in screen_text(app)
            # a spectator's keys send nothing
            await pilot.press("1", "enter")
            await pilot.pause(0.2)
            assert screen.version == 1


async def test_queens_challenge_plays_an_action_and_orders_the_diamonds_gift(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        room = await host.create("queens_challenge", QUEENS_SCENARIO, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "queen", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the table")
            screen = solitaire(app)
            assert isinstance(screen, QueensScreen) and screen.view is not None
            view = screen.view
            assert "Hand: 7♠ 3♠ 2♥ 9♣ 4♦" in screen_text(app)
            in_play = flat(panel_text(app, "#in-play"))
            assert "5♥" in in_play and "value 5" in in_play and "attack with ♠ spades" in in_play
            piles = flat(panel_text(app, "#piles"))
            assert "♦ diamonds ─╮" in panel_text(app, "#piles") and "5♦" in piles and "power 2" in piles
            moves = flat(panel_text(app, "#moves"))
            assert all(f"{n} {m['label']}" in moves for n, m in enumerate(view["legal"][:9], 1))

            attack = next(i for i, m in enumerate(view["legal"]) if m["kind"] == "attack")
            await pilot.press(str(attack + 1), "enter")
            await until(pilot, lambda: screen.version == 1, "the attack")
            assert hook.decisions() == [{k: v for k, v in view["legal"][attack].items() if k != "label"}]
            view = screen.view
            assert view is not None and view["score"] == 1 and view["in_play"] is None
            assert "score 1 · turn 1" in screen_text(app)
            assert "nothing in play until the next flip" in flat(panel_text(app, "#in-play"))

            # the gift of diamonds: its reordering is a list of legal decisions like any other
            gift = next(i for i, m in enumerate(view["legal"]) if m.get("suit") == "D")
            await pilot.press(str(gift + 1), "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "order", "the order phase")
            view = screen.view
            assert [m["label"] for m in view["legal"]] == ["Top first: 2♠, 8♦", "Top first: 8♦, 2♠"]
            assert "Revealed by the gift of diamonds (top first): 2♠ 8♦" in flat(panel_text(app, "#hand"))
            assert "gift used: ♦ diamonds" in screen_text(app)
            await pilot.press("2", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "actions", "the new order")
            assert hook.decisions()[-1] == {"kind": "order", "cards": ["8D", "2S"]}
            assert "Top of the magic deck (only you know): 8♦ 2♠" in flat(panel_text(app, "#hand"))


async def test_spectating_queens_challenge_shows_no_hand(server_url: str) -> None:
    async with await Client.connect(server_url, name="player") as player:
        seat = await player.create("queens_challenge", QUEENS_SCENARIO)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "watcher", spectate=seat.room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the spectator's table")
            hand = panel_text(app, "#hand")
            assert "Hand: 5 card(s), hidden" in hand
            assert not any(face in screen_text(app) for face in ("7♠", "3♠", "2♥", "9♣", "4♦"))
            assert "5♥" in panel_text(app, "#in-play")


async def test_queens_challenge_offers_the_clubs_gift_card_to_summon_or_not(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        room = await host.create("queens_challenge", QUEENS_CLUBS, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "queen", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the table")
            screen = solitaire(app)
            assert isinstance(screen, QueensScreen) and screen.view is not None
            assert "nothing in play until the next flip" in flat(panel_text(app, "#in-play"))
            gift = next(i for i, m in enumerate(screen.view["legal"]) if m.get("suit") == "C")
            await pilot.press(str(gift + 1), "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "summon", "the choice")
            assert "Revealed by the gift of clubs: 3♦" in flat(panel_text(app, "#hand"))
            moves = flat(panel_text(app, "#moves"))
            assert "1 Summon 3♦ to the diamonds summoning zone" in moves and "2 Do not summon 3♦: discard it" in moves
            await pilot.press("2", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "actions", "the refusal")
            assert hook.decisions()[-1] == {"kind": "decline"}
            assert screen.view["summoned"]["D"] is None and "magic discard 1 (top 3♦)" in screen_text(app)


async def test_queens_challenge_orders_four_revealed_cards_card_by_card(server_url: str) -> None:
    """With 4 revealed cards the moves put one card next from the top; then every order of the last 3 is listed."""
    hook = Recorder()
    options = {"challenge": ["KD"], "magic": ["AS", "2S", "3S", "4S", "5S", "6S"], "hand": ["9H"],
               "piles": {"D": ["AD", "2D", "3D", "4D"]}}
    async with await Client.connect(server_url, name="host") as host:
        room = await host.create("queens_challenge", options, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "queen", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: on_solitaire(app), "the table")
            screen = solitaire(app)
            assert isinstance(screen, QueensScreen) and screen.view is not None
            gift = next(i for i, m in enumerate(screen.view["legal"]) if m.get("suit") == "D")
            await pilot.press(str(gift + 1), "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "order", "the order phase")
            moves = flat(panel_text(app, "#moves"))
            assert "4 Put 4♠ 1st from the top" in moves and "5 Keep this order, top first: A♠, 2♠, 3♠, 4♠" in moves
            await pilot.press("4", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view.get("placed") == 1, "4♠ on top")
            assert "the top 1 placed" in flat(panel_text(app, "#hand"))
            labels = [m["label"] for m in screen.view["legal"]]
            assert len(labels) == 6 and "Top first: 4♠, 3♠, 2♠, A♠" in labels
            await pilot.press(str(labels.index("Top first: 4♠, 3♠, 2♠, A♠") + 1), "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["phase"] == "actions", "the new order")
            assert hook.decisions()[-2:] == [{"kind": "place", "card": "4S"}, {"kind": "order", "cards": ["3S", "2S", "AS"]}]
            assert "Top of the magic deck (only you know): 4♠ 3♠ 2♠ A♠" in flat(panel_text(app, "#hand"))

"""Creature Wars witches in the app: a question opens a modal for the seat asked; the other waits; modifiers show."""
from __future__ import annotations

import re
from typing import Any

from client.app import CardroomApp
from client.connection import Client, Seat
from client.screens import MatchScreen, QuestionScreen
from client.widgets import DuelPanel, ModifiersPanel
from tests.client.helpers import SIZE, Recorder, panel_text, screen_text, until

PICK_A_WITCH: dict[str, Any] = {
    "deck": ["Lvl.1 Skeleton", "Lvl.1 Pirate", "Lvl.1 Vampire", "Lvl.1 Dragon"],
    "hands": [["Lvl.2 Pick a Witch", "Lvl.1 Giant"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]],
    "first_drawer": 0,
}
"""Seat 0 holds Pick a Witch: when it is revealed, seat 0 is asked to keep one of three witches."""

REVEALED = ["Lvl.2 Pick a Witch {3}", "Lvl.1 Serpent {0}"]


def match(app: CardroomApp) -> MatchScreen:
    screen = next((s for s in app.screen_stack if isinstance(s, MatchScreen)), None)
    assert screen is not None, "the table is open"
    return screen


def status(app: CardroomApp) -> str:
    return str(match(app).query_one("#status").render())


def seated(app: CardroomApp) -> bool:
    return any(isinstance(s, MatchScreen) and s.view is not None for s in app.screen_stack)


async def test_the_asked_seat_answers_in_a_modal_and_keeps_the_witch(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        room = await host.create("creature_wars", PICK_A_WITCH, seed=3, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "witcher", join=room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot, \
                await Client.connect(server_url, name="rival") as rival:
            await until(pilot, lambda: seated(app), "the seat")
            screen = match(app)
            assert screen.view is not None and screen.view["seat"] == 0
            rival_seat = await rival.join(room)
            await until(pilot, lambda: status(app) == "your move", "the rival to sit")

            # the selected witch's rules are written under it in the hand
            await pilot.press("1")
            assert "Choose to keep 1 of 3 random Witch cards." in " ".join(panel_text(app, "#hand").split())
            await pilot.press("enter")
            await rival.wait_view(room, lambda v: v["locked"][0])
            await rival.decide(rival_seat, {"kind": "play", "slot": 0})

            await until(pilot, lambda: isinstance(app.screen, QuestionScreen), "the question's modal")
            assert screen.view is not None
            question = screen.view["question"]
            assert len(question["options"]) == 3 and screen.view["waiting_for"] == 0
            text = screen_text(app)
            assert question["prompt"] in text
            for n, option in enumerate(question["options"], 1):
                assert f"{n} {option}" in text
            left = re.search(r"time left: (\d+) s", text)
            assert left is not None and 25 <= int(left.group(1)) <= question["timeout"] == 30
            # under the modal, the duel area shows the two cards the question interrupted
            assert [(c or {}).get("text") for c in screen.query_one(DuelPanel).revealed or []] == REVEALED
            assert status(app).startswith("your choice: Pick a Witch: keep one of these.")
            waiting = await rival.wait_view(room, lambda v: v["waiting_for"] == 0)
            assert "question" not in waiting and waiting["legal"] == []

            await pilot.press("2", "enter")
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the answer to be applied")
            assert hook.decisions()[-1] == {"kind": "choose", "option": 1}
            assert not any(isinstance(s, QuestionScreen) for s in app.screen_stack), "the modal closed"
            chosen = question["options"][1]
            hand = [c["text"] for c in screen.view["hands"][0]["cards"]]
            assert chosen in hand, f"{chosen} kept, hand {hand}"
            assert chosen in panel_text(app, "#hand")
            assert screen.view.get("question") is None and screen.view["revealed"] is None
            assert screen.query_one(DuelPanel).revealed is None and "Turn 1 duel" in screen_text(app)


async def test_the_other_seat_waits_and_sees_the_revealed_cards(server_url: str) -> None:
    hook = Recorder()
    async with await Client.connect(server_url, name="host") as host:
        seat = await host.create("creature_wars", {**PICK_A_WITCH, "answer_seconds": 600}, seed=3)
        assert isinstance(seat, Seat)
        app = CardroomApp(server_url, "rival", join=seat.room)
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await until(pilot, lambda: seated(app) and status(app) == "your move", "the seat")
            screen = match(app)
            await pilot.press("1", "enter")
            await host.wait_view(seat.room, lambda v: v["locked"][1])
            await host.decide(seat, {"kind": "play", "slot": 0})
            await until(pilot, lambda: status(app) == "waiting for the opponent's choice", "the wait")
            assert app.screen is screen, "no modal for the seat not asked"
            duel = panel_text(app, "#duel")
            assert "the duel waits for a witch's question" in duel
            assert all(card in duel for card in REVEALED)
            # nothing else is accepted meanwhile; the client says why without sending anything
            sent = len(hook.decisions())
            await pilot.press("enter")
            await until(pilot, lambda: "A witch's question waits for the opponent's choice." in hook.toasts(),
                        "the refusal")
            assert len(hook.decisions()) == sent

            asked = await host.wait_view(seat.room, lambda v: v.get("question") is not None)
            assert len(asked["question"]["options"]) == 3
            await host.decide(seat, {"kind": "choose", "option": 0})
            await until(pilot, lambda: screen.view is not None and screen.view["turn"] == 2, "the duel to finish")
            assert "the duel waits" not in screen_text(app) and "Turn 1 duel" in screen_text(app)


async def test_modifiers_in_play_say_whose_they_are_and_until_when(server_url: str) -> None:
    options = {**PICK_A_WITCH, "hands": [["Lvl.2 Berserker Witch", "Lvl.1 Giant"], ["Lvl.1 Serpent", "Lvl.2 Serpent"]]}
    async with await Client.connect(server_url, name="rival") as rival:
        room = await rival.create("creature_wars", options, seed=4, sit=False)
        assert isinstance(room, str)
        app = CardroomApp(server_url, "berserker", join=room)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: seated(app), "the seat")
            screen = match(app)
            rival_seat = await rival.join(room)
            await until(pilot, lambda: status(app) == "your move", "the rival")
            assert not screen.query_one(ModifiersPanel).display, "no modifiers, no panel"
            await pilot.press("1", "enter")
            await rival.wait_view(room, lambda v: v["locked"][0])
            await rival.decide(rival_seat, {"kind": "play", "slot": 0})
            await until(pilot, lambda: screen.view is not None and screen.view["modifiers"], "the modifier")
            assert screen.view is not None
            modifier = screen.view["modifiers"][0]
            assert modifier["owner"] == 0 and modifier["until"] == 2
            shown = " ".join(panel_text(app, "#modifiers").split())
            assert shown.startswith("In play")
            assert f"{modifier['text']} (yours) · until turn 2" in shown
            theirs = await rival.wait_view(room, lambda v: bool(v["modifiers"]))
            assert theirs["modifiers"] == screen.view["modifiers"]

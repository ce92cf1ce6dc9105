"""Every card of the hand is on screen, at 80x24, 120x40 and 60x20, with the duel's damage and its reasons, the clock,
and why cards are held back.

A timed Creature Wars table mid-match (a chat notice open, as after "X is back") with a hand of eight
cards, after a duel the player lost while holding a Cursed Witch: the Empire took 4 from the duel and
1 from the witch, and the screen says so. Queen's Challenge at 80x24 shows its four piles and the hand.
"""
from __future__ import annotations

from typing import Any

import pytest

from client.screens import MatchScreen
from client.screens.queens import QueensScreen
from tests.client.helpers import screen_text
from tests.client.replay import ROOM, ReplayApp, replay, table_messages
from tests.client.test_table_snapshots import CREATURE_WARS as CORNFIELD_DRAWN

CURSED = {
    "first_drawer": 0,
    "hands": [["Lvl.1 Cursed Witch", "Lvl.3 Giant", "Lvl.2 Dragon", "Lvl.4 Vampire", "Lvl.5 Skeleton",
               "Lvl.6 Dragon", "Lvl.2 Giant"],
              ["Lvl.3 Dragon", "Lvl.1 Giant"]],
    "deck": [f"Lvl.{n} Holy Skeleton {{3}}" for n in range(1, 7)],
}
"""Turn 1: the Giant {4} (slot 1) loses to the Dragon; the Cursed Witch held deals 1 more at the turn's end."""

CLOCK = {"seats": [{"left": 25.0, "bank": 60.0}, {"left": None, "bank": 58.0}], "limits": {"move": 30, "bank": 60}}


def cursed_table() -> list[dict[str, Any]]:
    messages = table_messages("creature_wars", 0, options=CURSED, seed=1,
                              decisions=[(0, {"kind": "play", "slot": 1}), (1, {"kind": "play", "slot": 0})])
    for message in messages:
        if message["t"] == "view":
            message["clock"] = CLOCK
    messages.append({"t": "presence", "room": ROOM, "seat": 1, "connected": True})
    return messages


SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40"), pytest.param((60, 20), id="60x20")]


@pytest.mark.parametrize("size", SIZES)
async def test_the_whole_hand_the_damage_and_its_reasons_and_the_clock_are_on_screen(size: tuple[int, int]) -> None:
    app = ReplayApp(cursed_table())
    async with app.run_test(size=size) as pilot:
        await replay(pilot)
        screen = app.screen
        assert isinstance(screen, MatchScreen) and screen.view is not None
        cards = [c["text"] for c in screen.view["hands"][0]["cards"]]
        assert len(cards) == 8
        text = screen_text(app)
        missing = [card for card in cards if card not in text]
        assert not missing, f"cards off screen at {size}: {missing}\n{text}"
        for n in range(1, 9):
            assert f" {n}  Lvl." in text, f"the key {n} is shown next to its card"
        assert screen.view["hp"][0] == 25
        if size[0] >= 80:
            assert "takes 5" in text, "the box says what the Empire took: 30 -> 25"
            assert "You take 5: 4 from the duel + 1 Cursed Witch in hand" in text, text
            assert "bank 1:00" in text, "the clock"


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
async def test_queens_challenge_shows_all_four_piles_and_the_hand(size: tuple[int, int]) -> None:
    app = ReplayApp(table_messages("queens_challenge", 0, seed=3))
    async with app.run_test(size=size) as pilot:
        await replay(pilot)
        screen = app.screen
        assert isinstance(screen, QueensScreen) and screen.view is not None
        text = screen_text(app)
        for suit in ("♠ spades", "♥ hearts", "♦ diamonds", "♣ clubs"):
            assert suit in text, f"{suit} at {size}\n{text}"
        faces = [str(c["face"]) for c in screen.view["hand"]["cards"]]
        line = next((line for line in text.splitlines() if "Hand" in line), "")
        assert faces and all(face in line for face in faces), f"the hand at {size}\n{text}"


@pytest.mark.parametrize("size", SIZES)
async def test_the_whole_hand_and_why_its_cards_are_held_back(size: tuple[int, int]) -> None:
    """A Cornfield Witch drawn into an eight-card hand holds back six creatures: every card, its ✗ and the one
    reason line under the hand are on screen, at every size."""
    app = ReplayApp(CORNFIELD_DRAWN)
    async with app.run_test(size=size) as pilot:
        await replay(pilot)
        screen = app.screen
        assert isinstance(screen, MatchScreen) and screen.view is not None
        cards = [c["text"] for c in screen.view["hands"][0]["cards"]]
        text = screen_text(app)
        assert len(cards) == 8 and all(card in text for card in cards), text
        assert sum(line.rstrip().endswith("✗") for line in text.splitlines()) == 6, text
        flat = " ".join(text.split())
        assert "✗ cards 2, 3, 4, 5, 6, 7: may not be played while the Cornfield Witch is in your hand" in flat, text

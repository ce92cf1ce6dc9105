"""Snapshots of every table at 80x24 and 120x40: the whole hand, what the last duel or attack did and why, the clock.

Built like ``test_snapshots.py`` (the server's messages made with the engine, fixed seeds and names), with the
clocks frozen: the client's countdowns read ``client.clock.monotonic``, which stands still in every snapshot
test (tests/client/conftest.py), so a clock shows what the server sent whenever the image is taken. After a
deliberate change of a table: ``scripts/test tests/client/test_table_snapshots.py --snapshot-update``, look at the
new images, commit them.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from tests.client.replay import ROOM, ReplayApp, replay, room_summary, table_messages

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

CLOCK = {"seats": [{"left": 25.0, "bank": 60.0}, {"left": None, "bank": 58.0}], "limits": {"move": 30, "bank": 60}}
"""Our move clock runs (25 s left of 30, the whole bank); the opponent's bank has lost 2 s."""

WATCHED = {"t": "watchers", "room": ROOM, "spectators": 2}


def names(game: str, *players: str) -> dict[str, Any]:
    """The lobby's listing of the replayed room: the players' names."""
    return {"t": "rooms", "rooms": [room_summary(game, players=list(players), seats=len(players), status="playing")]}


CORNFIELD_DRAWN = {
    "first_drawer": 0,
    "hands": [["Lvl.1 Cursed Witch", "Lvl.3 Giant", "Lvl.2 Dragon", "Lvl.4 Vampire", "Lvl.5 Skeleton",
               "Lvl.6 Dragon", "Lvl.2 Giant"],
              ["Lvl.3 Dragon", "Lvl.1 Giant"]],
    "deck": ["Lvl.1 Holy Skeleton {3}", "Lvl.2 Holy Skeleton {3}", "Lvl.3 Holy Skeleton {3}", "Lvl.2 Cornfield Witch",
             "Lvl.4 Holy Skeleton {3}", "Lvl.5 Holy Skeleton {3}", "Lvl.6 Holy Skeleton {3}"],
}
"""Turn 1: our Giant {4} loses to the Dragon and the Cursed Witch held deals 1 more (30 -> 25); turn 2 draws a
Cornfield Witch, which holds back every creature of the eight-card hand."""

CREATURE_WARS = [names("creature_wars", "alice", "bob"),
                 *table_messages("creature_wars", 0, options=CORNFIELD_DRAWN, seed=1, clock=CLOCK,
                                 decisions=[(0, {"kind": "play", "slot": 1}), (1, {"kind": "play", "slot": 0})]),
                 WATCHED]

FAIRY_MEAT = [names("fairy_meat", "alice", "dave"),
              *table_messages("fairy_meat", 0, seed=7, clock=CLOCK,
                              decisions=[(0, 0), (1, 0), (0, 0), (0, 0), (1, 0), (0, 0), (1, 0), (0, 0), (1, 0), (1, 0)]),
              WATCHED]
"""The first attack revealed (its steps and result), and the next combat dealt: our combat hand, our move to declare."""

FAIRY_TABLEAU = table_messages("fairy_tableau", 0, seed=3, decisions=[(0, 0), (0, 0), (0, 0)])
QUEENS_CHALLENGE = table_messages("queens_challenge", 0, seed=3, decisions=[(0, 0)] * 6)


def matches(snap_compare: Any, messages: Iterable[Mapping[str, Any]], size: tuple[int, int]) -> bool:
    return bool(snap_compare(ReplayApp(messages), terminal_size=size, run_before=replay))


@pytest.mark.parametrize("size", SIZES)
def test_creature_wars_hand_reasons_damage_and_clock(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, CREATURE_WARS, size)


@pytest.mark.parametrize("size", SIZES)
def test_fairy_meat_attack_and_clock(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, FAIRY_MEAT, size)


@pytest.mark.parametrize("size", SIZES)
def test_fairy_tableau(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, FAIRY_TABLEAU, size)


@pytest.mark.parametrize("size", SIZES)
def test_queens_challenge(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, QUEENS_CHALLENGE, size)

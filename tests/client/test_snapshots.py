"""Snapshots of the screens at the two sizes a terminal user is likely to have (80x24 and 120x40).

Each screen is built from the messages a server would send (:mod:`tests.client.replay`), with
a fixed seed and a fixed room id, so an image changes only when the screen does. After a
deliberate change of a screen: ``scripts/test tests/client/test_snapshots.py --snapshot-update``,
look at the new images (``snapshot_report.html``), and commit them.

To add one: make the messages (``table_messages(game, seat, options=..., seed=..., decisions=[...])``
plays a match with the engine; a ``match_over`` ends it), then
``assert matches(snap_compare, messages, size)`` under ``@pytest.mark.parametrize("size", SIZES)``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from tests.client.helpers import screen_text
from tests.client.replay import ReplayApp, replay, room_summary, table_messages

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]

LOBBY = [{"t": "rooms", "rooms": [
    room_summary("creature_wars", room="c0ffee01", players=["bob", ""], status="waiting"),
    room_summary("fairy_meat", room="c0ffee02", players=["carol", "dave"], status="playing", spectators=2),
    room_summary("fairy_tableau", room="c0ffee03", players=["erin"], seats=1, status="playing", ranked="daily:2030-01-02",
                 score=3004),
    room_summary("queens_challenge", room="c0ffee04", players=["frank"], seats=1, status="over", ranked="all", score=17),
]}]
"""A lobby listing with a room of every game."""

CREATURE_WARS = table_messages("creature_wars", 0, seed=5, decisions=[(0, 0), (1, 0)])
"""Seat 0's table after the first duel of a default Creature Wars match."""

FAIRY_MEAT = table_messages("fairy_meat", 0, seed=7, decisions=[(0, 0), (1, 0), (0, 0), (0, 0), (1, 0), (0, 0), (1, 0),
                                                                 (0, 0), (1, 0)])
"""Seat 0's table right after the first reveal of sealed Numbered cards in a default Fairy Meat match."""

END = table_messages("creature_wars", 0, options={"hp": 1}, seed=5, decisions=[(0, 0), (1, 0)])
"""Seat 0's table of a one-duel Creature Wars match (1 HP): its end screen opens over the table."""


def matches(snap_compare: Any, messages: Iterable[Mapping[str, Any]], size: tuple[int, int], *,
            press: Iterable[str] = ()) -> bool:
    """Whether the app shown ``messages`` (then the keys ``press``) looks as its stored snapshot does."""
    return bool(snap_compare(ReplayApp(messages), terminal_size=size, run_before=replay, press=tuple(press)))


@pytest.mark.parametrize("size", SIZES)
def test_lobby(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, LOBBY, size)


@pytest.mark.parametrize("size", SIZES)
def test_creature_wars_match(snap_compare: Any, size: tuple[int, int]) -> None:
    assert matches(snap_compare, CREATURE_WARS, size)


@pytest.mark.parametrize("size", SIZES)
def test_fairy_meat_reveal(snap_compare: Any, size: tuple[int, int]) -> None:
    assert any(e["kind"] == "numbered" for m in FAIRY_MEAT if m["t"] == "view" for e in m["events"])
    assert matches(snap_compare, FAIRY_MEAT, size)


async def test_a_countdown_stands_still_while_a_snapshot_is_taken(snap_compare: Any) -> None:
    """However long a loaded machine takes to draw a table, its snapshot shows the seconds the view gave."""
    app = ReplayApp(FAIRY_MEAT)
    async with app.run_test(size=(120, 40)) as pilot:
        await replay(pilot)
        assert "has 30 s" in screen_text(app)
        await pilot.pause(1.2)  # the countdown ticks twice a second
        assert "has 30 s" in screen_text(app), screen_text(app)


@pytest.mark.parametrize("size", SIZES)
def test_end_screen(snap_compare: Any, size: tuple[int, int]) -> None:
    assert END[-1]["t"] == "match_over"
    assert matches(snap_compare, END, size)

"""The replay viewer's views of a Fairy Meat match: a seat sees no combat card its view hides; a bad record is refused."""
from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from client.replay import Replay, ReplayError
from client.screens.replay import board
from tests.client.test_replay_snapshots import FAIRY_MEAT


def drawn(replay: Replay, n: int, seat: int | None) -> str:
    """The viewer's table of step ``n`` for ``seat`` as text, and that view's events."""
    console = Console(width=78, record=True, file=io.StringIO())
    console.print(board(replay, n, seat))
    return console.export_text() + "\n".join(str(e.get("text", "")) for e in replay.events(n, seat))


def test_a_seat_sees_no_combat_card_its_view_hides() -> None:
    replay = Replay(FAIRY_MEAT)
    checked = 0
    for n in range(replay.last + 1):
        other = replay.view(n, 1).get("hand") or []
        shown_to_0 = json.dumps(replay.view(n, 0), ensure_ascii=False) + json.dumps(replay.events(n, 0), ensure_ascii=False)
        hidden = {str(card["face"]) for card in other if str(card["face"]) not in shown_to_0}
        if not hidden:
            continue
        checked += 1
        full = drawn(replay, n, None)
        assert all(face in full for face in hidden), f"step {n}: the full view shows bob's hand"
        leaked = [face for face in hidden if face in drawn(replay, n, 0)]
        assert not leaked, f"step {n}: ann's view shows bob's hidden cards {leaked}"
    assert checked >= 3, "the match has combats with hidden hands"


def test_a_record_the_rules_refuse_is_not_replayed() -> None:
    edited = json.loads(json.dumps(FAIRY_MEAT))
    edited["decisions"][0]["d"] = {"kind": "weapon", "weapon": "no_such_weapon"}
    with pytest.raises(ReplayError, match="decision 1"):
        Replay(edited)
    with pytest.raises(ReplayError, match="unknown game"):
        Replay({**FAIRY_MEAT, "game": "chess"})
    with pytest.raises(ReplayError, match="told after"):
        Replay({**FAIRY_MEAT, "seed": None, "reveal_after": "2030-01-02T00:00:00Z"})

"""Issue 15, points 7-10: each point of the audit, checked against the source line it follows."""
from __future__ import annotations

from engine.fairy_meat import GAME
from tests.engine.fairy_meat.helpers import act, both, decide, start, view

ADD = {"kind": "declare", "direction": "add"}
NONE = {"kind": "trumps", "cards": []}


def card(code: str) -> dict[str, str]:
    return {"kind": "numbered", "card": code}


def test_spoils_heap_is_face_down() -> None:
    """"No player is allowed to look through the Spoils Heap or Fairy Deck cards."

    Every view tells the heap's size and its top card (the heap is a face-up pile: "discarded to
    a common face up pile"), never the cards beneath it.
    """
    deck = ["KH", "2C", "7H", "JH", "3S", "9D", "5H", "QS", "4C", "6D", "8C", "10H"]
    state = start(deck)
    for seat in (None, 0, 1):
        seen = view(state, seat)
        assert seen["spoils"] == 2 and seen["spoils_top"]["code"] == "2C"
        assert "KH" not in str({k: v for k, v in seen.items() if k != "fairies"})
    state, _ = act(state, 0, "attack")
    state, _ = both(state, ADD, ADD)
    state, _ = both(state, NONE, NONE)
    state, _ = both(state, card("7H"), card("6D"))
    state, _ = decide(state, 1, {"kind": "damage", "from": "live"})
    # 7♥ and 6♦ went face up, then the rest of both hands face down on top of them
    assert state.spoils[-2:] == ["7H", "6D"] and len(state.spoils_down) == 6
    for seat in (None, 0, 1):
        seen = view(state, seat)
        assert seen["spoils"] == 10 and seen["spoils_top"] is None
        assert "spoils_face_down" not in seen
        assert not isinstance(seen["spoils"], list), "the heap is not listed"
    assert GAME.view(state, None)["spoils"] == len(state.spoils) + len(state.spoils_down)

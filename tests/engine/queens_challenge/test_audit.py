"""The audit's points on Queen's Challenge (issue 15, points 11-13), each against the line of the source it follows."""
from __future__ import annotations

import itertools
from typing import Any

from engine.queens_challenge import GAME
from engine.queens_challenge.state import State

MAGIC = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]


def codes(cards: list[dict[str, Any]]) -> list[str]:
    return [c["code"] for c in cards]


def test_clubs_gift_is_optional() -> None:
    """Source: "If the card's value is equal to or less than the power of your clubs pile, you may add it to your
    summoning zone. If not, discard the card." "May": the player chooses; a card not summoned is discarded."""
    options = {"challenge": ["KH", "QH"], "magic": ["3D", *MAGIC], "hand": [], "piles": {"C": ["AC", "2C", "3C", "4C"]}}
    state: State = GAME.setup(options, 1)
    state, _ = GAME.apply(state, 0, {"kind": "gift", "suit": "C"})
    view = GAME.view(state, 0)
    assert view["summoned"]["D"] is None, "nothing is summoned before the player chooses"
    assert view["summoning"]["code"] == "3D"
    assert sorted(d["kind"] for d in GAME.legal(state, 0)) == ["decline", "summon"]
    declined, _ = GAME.apply(state, 0, {"kind": "decline"})
    view = GAME.view(declined, None)
    assert view["summoned"]["D"] is None and codes(view["magic_discard"]) == ["3D"] and view["phase"] == "actions"
    summoned, _ = GAME.apply(state, 0, {"kind": "summon"})
    view = GAME.view(summoned, None)
    assert view["summoned"]["D"]["code"] == "3D" and view["magic_discard"] == []


def test_turn_order_draw_actions_flip() -> None:
    """Source: "Gameplay happens in 3 phases-Draw, Actions, and Flip. These phases repeat in order": turn 1 opens
    with its draw and actions; the first challenge card is flipped by turn 1's flip step, not at set-up."""
    state: State = GAME.setup({}, 2026)
    view = GAME.view(state, 0)
    assert view["turn"] == 1 and view["hand"]["count"] == 5 and view["phase"] == "actions"
    assert view["in_play"] is None and view["in_play_stack"] == [] and view["challenge_deck"] == 52
    top = GAME.dump(state)["challenge"][0]
    state, events = GAME.apply(state, 0, {"kind": "end_turn"})
    assert [e.kind for e in events] == ["end_turn", "flip", "turn"], "nothing in play at turn 1's flip: no burn"
    view = GAME.view(state, None)
    assert view["in_play"]["code"] == top and view["challenge_deck"] == 51 and view["magic_discard"] == []
    assert view["turn"] == 2


def _ordering() -> State:
    """The gift of diamonds with power 6: six magic cards revealed."""
    options = {"challenge": ["KH"], "magic": MAGIC, "hand": [],
               "piles": {"D": ["AD", "2D", "3D", "4D", "5D", "6D"]}}
    state: State = GAME.setup(options, 3)
    state, _ = GAME.apply(state, 0, {"kind": "gift", "suit": "D"})
    return state


def test_every_diamonds_order_is_offered() -> None:
    """Source: "Reveal cards from the top of your deck equal to the power of your diamond pile. You may replace them
    in any order." With six revealed, every one of the 720 orders is reachable through the legal decisions."""
    start = _ordering()
    assert GAME.view(start, 0)["phase"] == "order"
    reached: set[tuple[str, ...]] = set()
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for decision in GAME.legal(state, 0):
            after, _ = GAME.apply(state, 0, decision)
            if GAME.view(after, 0)["phase"] == "order":
                frontier.append(after)
            else:
                reached.add(tuple(codes(GAME.view(after, 0)["known_top"])))
    assert reached == set(itertools.permutations(MAGIC[:6]))
    # and any order at once
    for order in (MAGIC[5::-1], ["3S", "6S", "AS", "5S", "2S", "4S"]):
        after, _ = GAME.apply(start, 0, {"kind": "order", "cards": order})
        assert codes(GAME.view(after, 0)["known_top"]) == order

"""Why a card may not be played, told to its holder before it tries: ``blocked`` agrees with ``legal`` card by card,
says what a refused play would say, and says nothing while no play is awaited."""
from __future__ import annotations

import random

import pytest

from engine.creature_wars import GAME
from engine.errors import IllegalDecision
from engine.fairy_meat import GAME as FAIRY_MEAT

CORNFIELD = {
    "first_drawer": 0,
    "hands": [["Lvl.1 Serpent", "Lvl.1 Giant"], ["Lvl.3 Dragon", "Lvl.1 Cornfield Witch"]],
    "deck": [f"Lvl.{n} Holy Skeleton {{3}}" for n in range(1, 7)],
}
"""Seat 1 holds a Cornfield Witch: no creature of its hand may be played while it is held."""


def test_a_held_cornfield_witch_blocks_the_creatures_and_says_so() -> None:
    state = GAME.setup(CORNFIELD, 1)
    assert GAME.blocked(state, 0) == [None] * len(state.hands[0])
    blocked = GAME.blocked(state, 1)
    hand = [card["text"] for card in GAME.view(state, 1)["hands"][1]["cards"]]
    witch = next(i for i, text in enumerate(hand) if "Cornfield" in text)
    dragon = next(i for i, text in enumerate(hand) if "Dragon" in text)
    assert blocked[witch] is None, "the witch itself may be played"
    assert blocked[dragon] == "may not be played while the Cornfield Witch is in your hand"
    with pytest.raises(IllegalDecision) as refused:
        GAME.apply(state, 1, {"kind": "play", "slot": dragon})
    assert str(blocked[dragon]) in refused.value.message, "the same words as the refusal"
    locked, _ = GAME.apply(state, 1, {"kind": "play", "slot": witch})
    assert GAME.blocked(locked, 1) == [], "nothing is awaited of a seat that locked in"


@pytest.mark.parametrize("seed", range(6))
def test_blocked_names_exactly_the_cards_legal_leaves_out(seed: int) -> None:
    chooser = random.Random(seed)
    state = GAME.setup({}, seed)
    checked = 0
    while GAME.outcome(state) is None:
        for seat in (0, 1):
            legal = GAME.legal(state, seat)
            blocked = GAME.blocked(state, seat)
            plays = {d["slot"] for d in legal if d["kind"] == "play"}
            if plays:
                assert len(blocked) == len(state.hands[seat])
                assert {i for i, why in enumerate(blocked) if why is None} == plays
                checked += 1
            elif not any(d["kind"] == "play" for d in legal):
                assert all(why for why in blocked), "no play offered: every card held back says why"
        waiting = [s for s in (0, 1) if GAME.legal(state, s)]
        seat = chooser.choice(waiting)
        state, _ = GAME.apply(state, seat, chooser.choice(list(GAME.legal(state, seat))))
    assert checked > 10
    assert GAME.blocked(state, 0) == [] and GAME.blocked(state, 1) == []


def test_a_game_whose_plays_are_not_hand_cards_blocks_nothing() -> None:
    state = FAIRY_MEAT.setup({}, 1)
    assert FAIRY_MEAT.blocked(state, 0) == [] and FAIRY_MEAT.blocked(state, 1) == []

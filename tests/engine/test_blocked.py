"""Why a card may not be played, told to its holder before it tries: ``blocked`` agrees with ``legal`` card by card,
says what a refused play would say, and says nothing while no play is awaited."""
from __future__ import annotations

import random

import pytest

from engine.creature_wars import GAME
from engine.errors import IllegalDecision
from engine.fairy_meat import GAME as FAIRY_MEAT
from engine.registry import GAMES

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


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(4))
def test_a_card_is_blocked_exactly_when_no_legal_decision_plays_it(name: str, seed: int) -> None:
    """Every seat at every step of a seeded random match, in every game: ``blocked`` names a reason for exactly
    the cards of the hand that no legal decision plays, and is empty while no play from the hand is awaited."""
    game = GAMES[name]
    chooser = random.Random(seed)
    state = game.setup({}, seed)
    seats = range(game.seats({}))
    checked = steps = 0
    while game.outcome(state) is None and steps < 3000:
        for seat in seats:
            legal = game.legal(state, seat)
            blocked = game.blocked(state, seat)
            plays = {d["slot"] for d in legal if d.get("kind") == "play"}
            if blocked:
                assert game.blocked(state, seat) is blocked, "kept with the state: asked again, not computed again"
                assert len(blocked) == len(state.hands[seat])
                assert {i for i, why in enumerate(blocked) if why is None} == plays
                assert all(isinstance(why, str) and why for i, why in enumerate(blocked) if i not in plays)
                checked += 1
            else:
                assert not plays, "a card offered to play is a card of a hand blocked tells of"
        waiting = [s for s in seats if game.legal(state, s)]
        seat = chooser.choice(waiting)
        state, _ = game.apply(state, seat, chooser.choice(list(game.legal(state, seat))))
        steps += 1
    assert game.outcome(state) is not None
    assert all(game.blocked(state, seat) == [] for seat in seats)
    if name == GAME.name:
        assert checked > 10


def test_the_other_seats_reasons_carry_over_a_first_seal() -> None:
    state = GAME.setup({}, 3)
    reasons = GAME.blocked(state, 1)
    sealed, _ = GAME.apply(state, 0, GAME.legal(state, 0)[0])
    assert GAME.blocked(sealed, 1) is reasons and GAME.blocked(sealed, 0) == []


def test_a_game_whose_plays_are_not_hand_cards_blocks_nothing() -> None:
    state = FAIRY_MEAT.setup({}, 1)
    assert FAIRY_MEAT.blocked(state, 0) == [] and FAIRY_MEAT.blocked(state, 1) == []

"""Why a card may not be played, told to its holder before it tries: ``blocked`` agrees with ``legal`` card by card,
says what a refused play would say, and says nothing while no play is awaited."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from engine.creature_wars import GAME
from engine.errors import IllegalDecision
from engine.fairy_meat import GAME as FAIRY_MEAT
from engine.fairy_tableau import GAME as TABLEAU
from engine.interface import Game
from engine.queens_challenge import GAME as QUEENS

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


@pytest.mark.parametrize("seed", range(4))
def test_a_card_is_blocked_exactly_when_no_legal_decision_plays_it(seed: int) -> None:
    """Every seat at every step of a seeded random Creature Wars match: ``blocked`` names a reason for exactly
    the cards of the hand that no legal decision plays, is kept with the state, and is empty while no play from
    the hand is awaited (the other games: their own tests below)."""
    game = GAME
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
    assert checked > 10


def test_the_other_seats_reasons_carry_over_a_first_seal() -> None:
    state = GAME.setup({}, 3)
    reasons = GAME.blocked(state, 1)
    sealed, _ = GAME.apply(state, 0, GAME.legal(state, 0)[0])
    assert GAME.blocked(sealed, 1) is reasons and GAME.blocked(sealed, 0) == []


def test_the_other_seats_plays_carry_over_a_first_seal_and_no_third_seat_is_waited_for() -> None:
    state = GAME.setup({}, 3)
    plays = GAME.legal(state, 1)
    sealed, _ = GAME.apply(state, 0, GAME.legal(state, 0)[0])
    assert GAME.legal(sealed, 1) is plays and GAME.legal(sealed, 0) == []
    assert GAME.blocked(state, 2) == [] and GAME.blocked(state, -1) == []


def test_fairy_meat_blocks_nothing_until_cards_are_chosen() -> None:
    state = FAIRY_MEAT.setup({}, 1)
    assert FAIRY_MEAT.blocked(state, 0) == [] and FAIRY_MEAT.blocked(state, 1) == [], "weapons are chosen, not cards"


def _used(legal: list[dict[str, Any]]) -> set[str]:
    """The cards (codes) the legal decisions play: a card, the cards of a selection, the spells of an attack."""
    return {code for d in legal for code in [d.get("card"), *(d.get("cards") or ()), *(d.get("spells") or ())]
            if isinstance(code, str)}


def _play_out(game: Game, options: dict[str, Any], seed: int, check: Callable[[Any, int], bool]) -> int:
    """A random match of ``game``; ``check(state, seat)`` at every step for every seat; how often it checked."""
    chooser = random.Random(seed)
    state = game.setup(options, seed)
    checked = 0
    while game.outcome(state) is None:
        for seat in range(game.seats(options)):
            checked += check(state, seat)
        waiting = [s for s in range(game.seats(options)) if game.legal(state, s)]
        seat = chooser.choice(waiting)
        decision = dict(chooser.choice(list(game.legal(state, seat))))
        decision.pop("label", None)
        decision.pop("loses", None)
        state, _ = game.apply(state, seat, decision)
    assert all(game.blocked(state, s) == [] for s in range(game.seats(options))), "nothing is blocked once over"
    return checked


@pytest.mark.parametrize(("seed", "band"), [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_fairy_meat_blocked_names_the_combat_cards_legal_leaves_out_with_the_refusals_words(seed: int, band: int) -> None:
    def check(state: Any, seat: int) -> bool:
        blocked = FAIRY_MEAT.blocked(state, seat)
        view = FAIRY_MEAT.view(state, seat)
        if not blocked:
            assert view["phase"] not in ("trumps", "numbered") or not view["legal"]
            return False
        hand = [c["code"] for c in view["hand"]]
        assert len(blocked) == len(hand)
        assert {code for code, why in zip(hand, blocked, strict=True) if why is None} == _used(view["legal"]) & set(hand)
        for code, why in zip(hand, blocked, strict=True):
            if why is not None:
                single = {"kind": "numbered", "card": code} if view["phase"] == "numbered" else \
                    {"kind": "trumps", "cards": [code]}
                with pytest.raises(IllegalDecision) as refused:
                    FAIRY_MEAT.apply(state, seat, single)
                assert refused.value.message == why
        return True

    assert _play_out(FAIRY_MEAT, {"band": band}, seed, check) > 3


@pytest.mark.parametrize("seed", range(4))
def test_queens_challenge_blocked_says_why_a_card_of_the_hand_has_no_move(seed: int) -> None:
    def check(state: Any, seat: int) -> bool:
        blocked = QUEENS.blocked(state, seat)
        view = QUEENS.view(state, seat)
        if view["phase"] != "actions":
            assert blocked == []
            return False
        hand = [c["code"] for c in view["hand"]["cards"]]
        assert len(blocked) == len(hand)
        assert {code for code, why in zip(hand, blocked, strict=True) if why is None} == _used(view["legal"])
        for code, why in zip(hand, blocked, strict=True):
            if why is not None:
                with pytest.raises(IllegalDecision) as refused:
                    QUEENS.apply(state, seat, {"kind": "gather", "card": code})
                assert why.startswith(refused.value.message)
        return any(blocked)

    assert _play_out(QUEENS, {}, seed, check) > 0


@pytest.mark.parametrize(("seed", "fairies"), [(1, 1), (2, 0), (3, 3), (4, 2)])
def test_fairy_tableau_blocked_says_why_a_card_is_used_by_no_play(seed: int, fairies: int) -> None:
    def check(state: Any, seat: int) -> bool:
        blocked = TABLEAU.blocked(state, seat)
        view = TABLEAU.view(state, seat)
        assert len(blocked) == len(view["tableau"])
        used = {p for d in view["legal"] for p in (d.get("slot"), d.get("target"), d.get("spell")) if p is not None}
        assert {slot for slot, why in enumerate(blocked) if why is None} == \
            used | {slot for slot, card in enumerate(view["tableau"]) if card is None}
        return any(blocked)

    _play_out(TABLEAU, {"fairies": fairies}, seed, check)
    assert TABLEAU.blocked(TABLEAU.setup({}, 1), 1) == [], "no seat but the player's"


def test_the_plays_offered_are_maps_shared_by_every_state() -> None:
    """``legal`` offers the same map for the same slot in every state (made once: no caller changes one)."""
    state = GAME.setup({}, 4)
    first = {d["slot"]: d for d in GAME.legal(state, 0)}
    for seat in (0, 1):
        state, _ = GAME.apply(state, seat, GAME.legal(state, seat)[0])
    later = {d["slot"]: d for d in GAME.legal(state, 0)}
    assert all(later[slot] is first[slot] for slot in set(first) & set(later)) and set(first) & set(later)
    assert all(d == {"kind": "play", "slot": slot} for slot, d in later.items())

"""Answers remembered per state: many rooms taking turns keep theirs, and a state's answers stay out of its value."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.cards import Card, PowerType, Tribe
from engine.creature_wars.view import card_view
from engine.memo import KEEP, Values, carry_over, per_state


@dataclass(frozen=True, slots=True)
class Keeps:
    n: int
    memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Bare:
    n: int


def counting() -> tuple[list[tuple[int, int]], Any]:
    calls: list[tuple[int, int]] = []

    @per_state
    def answer(state: Any, seat: int) -> list[int]:
        calls.append((state.n, seat))
        return [state.n, seat]

    return calls, answer


def test_states_with_a_memo_keep_their_answers_however_many_rooms_interleave() -> None:
    calls, answer = counting()
    states = [Keeps(i) for i in range(3 * KEEP)]
    for _ in range(3):
        for state in states:
            for seat in (0, 1):
                assert answer(state, seat) == [state.n, seat]
    assert len(calls) == 2 * len(states)


def test_states_without_a_memo_keep_the_last_answers_by_identity() -> None:
    calls, answer = counting()
    first = Bare(1)
    assert answer(first, 0) is answer(first, 0)
    assert answer(Bare(1), 0) == [1, 0] and len(calls) == 2


def test_a_memo_is_not_part_of_the_value_and_a_changed_copy_starts_empty() -> None:
    _, answer = counting()
    state = Keeps(4)
    answer(state, 0)
    assert state == Keeps(4) and hash(state) == hash(Keeps(4))
    assert replace(state, n=5).memo == {}


def test_carry_over_hands_an_answer_to_a_new_state() -> None:
    calls, answer = counting()
    old, new = Keeps(1), Keeps(2)
    carry_over(answer, old, new, 0)  # nothing known yet: nothing carried
    assert answer(new, 0) == [2, 0]
    answer(old, 1)
    later = Keeps(3)
    carry_over(answer, old, later, 1)
    assert answer(later, 1) == [1, 1] and calls == [(2, 0), (1, 1)]


def test_creature_wars_states_keep_legal_out_of_their_value_and_their_dump() -> None:
    state = GAME.setup({}, 7)
    plays = GAME.legal(state, 0)
    assert GAME.legal(state, 0) is plays
    assert GAME.load(GAME.dump(state)) == state
    assert "memo" not in GAME.dump(state)


def test_values_keep_their_answers_while_a_node_s_rooms_take_turns() -> None:
    """A pile's faces are made once per pile, though 200 rooms' views are built in turn between two of its own."""
    calls: list[tuple[int, ...]] = []
    values = Values()

    def faces(pile: tuple[int, ...]) -> list[str]:
        found: list[str] | None = values.get(pile)
        if found is None:
            calls.append(pile)
            found = values.keep(pile, [str(card) for card in pile])
        return found

    piles = [tuple(range(n)) for n in range(200)]
    for _ in range(3):
        for pile in piles:
            assert faces(pile) == [str(card) for card in pile]
    assert len(calls) == len(piles)
    assert faces(tuple(range(5))) == faces(piles[5]) and len(calls) == len(piles) + 1  # by identity, not equality


def _states_of_a_match(seed: int) -> list[Any]:
    import random

    rng = random.Random(seed)
    state = GAME.setup({}, seed)
    states = [state]
    while GAME.outcome(state) is None:
        seat, decision = rng.choice([(s, d) for s in (0, 1) for d in GAME.legal(state, s)])
        state, _ = GAME.apply(state, seat, decision)
        states.append(state)
    return states


def test_what_every_view_of_a_state_shows_alike_is_made_once() -> None:
    """The seats' and a spectator's views of one state share its public parts (made once per state), and each
    still holds only its own hand and legal decisions."""
    state = _states_of_a_match(3)[5]
    views = [GAME.view(state, seat) for seat in (0, 1, None)]
    for key in ("hp", "locked", "passed", "discard"):
        assert views[0][key] is views[1][key] is views[2][key], key
    assert [v["seat"] for v in views] == [0, 1, None]
    assert "cards" in views[0]["hands"][0] and "cards" not in views[0]["hands"][1]
    assert "cards" in views[1]["hands"][1] and "cards" not in views[1]["hands"][0]
    assert views[2]["legal"] == [] and views[0]["legal"] == list(GAME.legal(state, 0))


def test_a_seal_s_views_are_made_from_the_views_before_it_and_equal_views_made_afresh() -> None:
    """A state one seal past another (the first of a duel) takes what every view shows from the state before it, with
    its version and seals: every seat's and a spectator's view of it equals the view of the same state loaded anew
    (no memo), and what did not change is the very object the view before held."""
    import random

    derived = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.setup({}, seed)
        old = GAME.view(state, None)
        while GAME.outcome(state) is None:
            seat, decision = rng.choice([(s, d) for s in (0, 1) for d in GAME.legal(state, s)])
            sealing = state.sealed == (None, None) and state.pending is None
            state, _ = GAME.apply(state, seat, decision)
            views = [GAME.view(state, seat) for seat in (0, 1, None)]
            fresh = GAME.load(GAME.dump(state))
            assert views == [GAME.view(fresh, seat) for seat in (0, 1, None)]
            if sealing and state.sealed.count(None) == 1:
                derived += 1
                assert views[2]["hp"] is old["hp"] and views[2]["discard"] is old["discard"]
                assert views[2]["version"] == old["version"] + 1 and views[2]["locked"] != old["locked"]
            old = views[2]
    assert derived > 50


def test_a_card_keeps_its_faces_and_an_equal_card_shows_the_same_ones() -> None:
    """A card's face and its holder's view of it are kept with the card object (cards go from state to state):
    made once, the same object at every look and for an equal card made anew (a delta skips it by identity); the
    holder's view is made again when the card's wait changes."""
    card = Card.creature(90, Tribe.GIANT, 4, PowerType.HOLY)
    twin = Card.creature(90, Tribe.GIANT, 4, PowerType.HOLY)
    face = card_view(card)
    assert card.face is face and card_view(card) is face and card_view(twin) is face
    ready = card_view(card, turn=card.ready_turn)
    assert card.held == (0, ready) and card_view(card, turn=card.ready_turn + 3) is ready
    waiting = replace(card, ready_turn=5)
    assert card_view(waiting, turn=4)["cooldown"] == 1 and card_view(waiting, turn=5)["cooldown"] == 0
    assert waiting.held is not None and waiting.held[0] == 0


def test_cards_of_other_matches_that_look_alike_show_the_same_faces() -> None:
    """Faces are kept by what a view shows of a card, not by its uid (each match's cards have their own): a card of
    another match that looks the same shows the very same objects, waiting the same turns whatever its ready turn;
    a card that looks otherwise (a rally, a ban) shows its own, and no face shows a uid."""
    card = Card.creature(90, Tribe.PIRATE, 6, PowerType.FIRE)
    other_match = Card.creature(7, Tribe.PIRATE, 6, PowerType.FIRE)
    assert card != other_match
    assert card_view(other_match) is card_view(card)
    assert card_view(other_match, turn=3) is card_view(card, turn=3)
    waits = replace(card, ready_turn=9)
    assert card_view(replace(other_match, ready_turn=5), turn=3) is card_view(waits, turn=7)  # two turns each
    assert card_view(replace(other_match, ready_turn=5), turn=3)["cooldown"] == 2
    rallied = card.rallied(card.level, True, False, False)
    assert card_view(rallied, turn=3) is not card_view(card, turn=3)
    assert card_view(rallied, turn=3)["rally"] == ["tribe"] and card_view(card, turn=3)["rally"] == []
    assert card_view(replace(card, banned=True)) is not card_view(card)
    assert all("uid" not in face for face in (card_view(card), card_view(card, turn=3)))


def test_views_of_states_with_equal_hp_and_seals_hold_the_very_same_lists() -> None:
    """Each state's HP and its seats' seals (locked in, passed) are shown by one list for each value, whatever the
    match and the state: a view's delta finds them unchanged by identity when the HP or the seals did not change."""
    shown: dict[tuple[str, tuple[Any, ...]], list[Any]] = {}
    for seed in (3, 4):
        for state in _states_of_a_match(seed):
            view = GAME.view(state, None)
            for key in ("hp", "locked", "passed"):
                held = shown.setdefault((key, tuple(view[key])), view[key])
                assert view[key] is held, (key, view[key])
    assert len({value for key, value in shown if key == "hp"}) > 3
    assert {value for key, value in shown if key == "locked"} >= {(False, False), (True, False)}

"""Value classes with a written ``__init__`` (dataclasses' own is interpreted code even in the compiled build): each
takes every field the dataclass declares, by position and by name, and ``dataclasses.replace`` keeps working."""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from engine import registry
from engine.creature_wars import cards
from engine.creature_wars.cards import Card, CardKind, PowerType, Tribe
from engine.creature_wars.effects import Fight, Source
from engine.creature_wars.state import Duel, _card_data
from engine.fairy_meat.combat import Result
from engine.fairy_meat.state import Combat, Fairy, Side
from engine.interface import Event


def _states(game: str) -> list[Any]:
    rules = registry.GAMES[game]
    rng = random.Random(2)
    state = rules.setup({}, 2)
    states = [state]
    while rules.outcome(state) is None and len(states) < 200:
        seat, decision = rng.choice([(s, d) for s in (0, 1) for d in rules.legal(state, s)])
        state, _ = rules.apply(state, seat, decision)
        states.append(state)
    return states


def _made_again(value: Any) -> Any:
    """``value`` made anew from its init fields, by name and then by position."""
    fields = [f for f in dataclasses.fields(value) if f.init]
    by_name = type(value)(**{f.name: getattr(value, f.name) for f in fields})
    by_position = type(value)(*[getattr(value, f.name) for f in fields])
    assert by_name == by_position
    return by_name


CARD = Card(7, CardKind.CREATURE, 3, 4, tribe=Tribe.WOLF)
SAMPLES = [
    CARD, Duel(2, (CARD, None), (7, None), 0, (0, 3), "won"), Event("play", {"text": "x"}, {0: {"a": 1}}, True),
    Source(1, CARD), Fight([CARD, CARD], [5, 6], winner=1), Fairy(live=2, conditions=["web"]),
    Side(1, hand=["3H"], trumps=["AS"]), Combat("attack", 0, 1, 2, sides=[Side(0), Side(1)]), Result([3, None], ["a"]),
]


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_a_value_is_made_again_from_its_fields(value: Any) -> None:
    again = _made_again(value)
    assert again == value and again is not value
    assert dataclasses.replace(value) == value


@pytest.mark.parametrize("game", ["creature_wars", "fairy_meat"])
def test_every_state_of_a_match_is_made_again_from_its_fields(game: str) -> None:
    for state in _states(game):
        again = _made_again(state)
        assert again == state and again.memo == {}, "a state made anew remembers nothing"


def test_defaults_are_fresh_per_value() -> None:
    """A list or map a field defaults to belongs to its value alone, as dataclasses' default factories make it."""
    a, b = Fairy(), Fairy()
    a.conditions.append("web")
    assert b.conditions == [] and Side(0).hand is not Side(0).hand and Fight([], []).returns is not Fight([], []).returns
    assert Event("x", {}).secret == {} and Event("x", {}).secret is not Event("x", {}).secret


def test_the_cards_replace_is_dataclasses_own_field_by_field() -> None:
    """``cards.replace`` (the witches' way of changing a card) changes each field as ``dataclasses.replace`` does,
    refuses a name that is no field, and hands any other value to ``dataclasses.replace``."""
    marked = Card(8, CardKind.CREATURE, 2, 3, Tribe.WOLF, None, None, True, False, False, 4, False, "Raven", (("web", 1),))
    changes: dict[str, Any] = {
        "uid": 9, "kind": CardKind.WITCH, "level": 5, "base": 0, "tribe": Tribe.DRAGON, "ptype": PowerType.FIRE,
        "witch": "Blind Witch", "tribe_rally": False, "type_rally": True, "witch_rally": True, "ready_turn": 7,
        "banned": True, "token": None, "tags": (("ring", 2),),
    }
    assert {f.name for f in dataclasses.fields(Card) if f.init} == set(changes)
    for name, value in changes.items():
        assert cards.replace(marked, **{name: value}) == dataclasses.replace(marked, **{name: value})
    assert cards.replace(marked, **changes) == dataclasses.replace(marked, **changes)
    assert cards.replace(marked) == marked and cards.replace(marked) is not marked
    with pytest.raises(TypeError):
        cards.replace(marked, lvl=3)
    duel = Duel(2, (CARD, None), (7, None), 0, (0, 3), "won")
    assert cards.replace(duel, summary="lost") == dataclasses.replace(duel, summary="lost")
    assert cards.replace(Source(1, CARD), owner=0) == Source(0, CARD), "any other value goes to dataclasses.replace"


def test_a_cards_equality_and_hash_are_its_fields() -> None:
    """Card's written ``__eq__`` and ``__hash__`` answer as a dataclass's would: equal exactly when every field is,
    hashed as the fields' tuple (so sets and dicts of cards keep their order), never equal to another kind."""
    base = Card.creature(7, Tribe.SKELETON, 2, PowerType.NIGHTMARE)
    fields = [f.name for f in dataclasses.fields(Card) if f.init]
    assert base == cards.replace(base) and hash(base) == hash(tuple(getattr(base, n) for n in fields))
    changed = {"uid": 8, "level": 3, "base": 1, "tribe": Tribe.WOLF, "ptype": None, "witch": "x", "tribe_rally": True,
               "type_rally": True, "witch_rally": True, "ready_turn": 4, "banned": True, "token": "t", "tags": (("a", 1),),
               "kind": CardKind.WITCH}
    assert set(changed) == set(fields)
    for name, value in changed.items():
        other = dataclasses.replace(base, **{name: value})
        assert other != base and not other == base, name
        assert hash(other) == hash(tuple(getattr(other, n) for n in fields))
    assert base != (7, "creature") and base.__eq__(object()) is NotImplemented


def test_a_cards_hash_and_notation_made_once_are_those_made_anew() -> None:
    """A card keeps its hash and its notation once made (it never changes): each asked again, in any order and for
    any turn, is what a card made afresh gives the first time."""
    made = [Card(n, CardKind.CREATURE, 1 + n % 5, 3, tribe, ptype, None, n % 2 == 0, n % 3 == 0, False, n % 4, n % 7 == 0)
            for n, (tribe, ptype) in enumerate((t, p) for t in Tribe for p in (None, *PowerType))]
    for card in made:
        asked = [(turn, marks) for turn in (None, 0, 1, 2, 5) for marks in (False, True)]
        first = {(turn, marks): cards.replace(card).notation(turn, marks=marks) for turn, marks in asked}
        for turn, marks in asked + asked[::-1]:
            assert card.notation(turn, marks=marks) == first[turn, marks]
        assert hash(card) == hash(card) == hash(cards.replace(card)) and card == cards.replace(card)
    assert made[2].notation(0) == made[2].notation(0, marks=False) != made[2].notation(0, marks=True)


def test_a_card_is_written_once_into_every_dump_that_holds_it() -> None:
    """A state's dump writes each card as the list it made for that card the first time (cards are values), which holds
    the card's fields; a changed card (a new card) is written anew."""
    game = registry.GAMES["creature_wars"]
    state = game.setup({}, 7)
    first, again = game.dump(state), game.dump(state)
    assert all(a is b for a, b in zip(first["deck"], again["deck"], strict=True))
    card = state.deck[0]
    assert first["deck"][0] == [card.uid, card.kind.value, card.level, card.base,
                                card.tribe.value if card.tribe else None, card.ptype.value if card.ptype else None,
                                card.witch, card.tribe_rally, card.type_rally, card.witch_rally, card.ready_turn,
                                card.banned, card.token, [list(t) for t in card.tags]]
    changed = cards.replace(card, ready_turn=card.ready_turn + 2)  # the same uid, another card
    assert _card_data(changed)[10] == card.ready_turn + 2 and _card_data(card)[10] == card.ready_turn

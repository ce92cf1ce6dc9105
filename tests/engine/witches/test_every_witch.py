"""Every witch of the catalogue is playable: it has an effect, and random matches that cast it keep every invariant."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from engine.creature_wars import GAME
from engine.creature_wars.cards import Card, CardKind, PowerType, Tribe
from engine.creature_wars.effects import EFFECTS, RULES, TOKENS
from engine.creature_wars.state import Modifier, State
from engine.creature_wars.table import _rule_hooks, own_hooks
from engine.creature_wars.witch_catalogue import CATALOGUE, Rarity
from engine.interface import redact_all
from tests.engine.test_properties import check_conservation, check_events, check_view, seen


def test_the_catalogue_holds_141_playable_witches() -> None:
    assert len(CATALOGUE) == 141
    assert [sum(s.rarity is r for s in CATALOGUE) for r in Rarity] == [27, 97, 17]
    assert len({s.name for s in CATALOGUE}) == 141 and len({s.key for s in CATALOGUE}) == 141
    missing = [s.key for s in CATALOGUE if s.key not in EFFECTS]
    assert missing == [], f"witches without an effect: {missing}"
    assert set(EFFECTS) == {s.key for s in CATALOGUE}


def random_card(rnd: random.Random) -> str:
    if rnd.random() < 0.2:
        spec = rnd.choice(CATALOGUE)
        return f"Lvl.{rnd.randint(*spec.rarity.levels)} {spec.name}"
    ptype = rnd.choice([*[p.value + " " for p in PowerType], ""])
    return f"Lvl.{rnd.randint(1, 6)} {ptype}{rnd.choice(list(Tribe)).value}"


def scenario(witch: str, rnd: random.Random) -> dict[str, Any]:
    return {
        "deck": [random_card(rnd) for _ in range(rnd.randint(4, 24))],
        "hands": [[witch] + [random_card(rnd) for _ in range(4)], [random_card(rnd) for _ in range(5)]],
        "first_drawer": rnd.randint(0, 1),
        "hp": rnd.randint(5, 30),
    }


def play_out(state: State, rnd: random.Random, start: State) -> None:
    """Random legal play to the end, checking the invariants at every step."""
    known: dict[int | None, set[str]] = {viewer: seen(start, viewer) | seen(state, viewer) for viewer in (0, 1, None)}
    for _ in range(2000):
        if GAME.outcome(state) is not None:
            return
        waiting = [s for s in (0, 1) if GAME.legal(state, s)]
        assert waiting, "the match is on but nobody may act"
        seat = rnd.choice(waiting)
        state, events = GAME.apply(state, seat, rnd.choice(list(GAME.legal(state, seat))))
        check_conservation(state, start)
        check_events(list(events))
        for viewer in (0, 1, None):
            check_view(state, viewer, known[viewer])
            known[viewer] |= seen(state, viewer)
            redact_all(list(events), viewer)
        assert GAME.load(GAME.dump(state)) == state
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("spec", CATALOGUE, ids=[s.key for s in CATALOGUE])
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(rnd=st.randoms(use_true_random=False))
def test_casting_each_witch_keeps_every_invariant(spec: Any, rnd: random.Random) -> None:
    witch = f"Lvl.{rnd.randint(*spec.rarity.levels)} {spec.name}"
    # a large seed: the check that no RNG state is in a view compares digits
    state: State = GAME.setup(scenario(witch, rnd), rnd.randint(2**40, 2**63))
    start = state
    if GAME.legal(state, 0) and {"kind": "play", "slot": 0} in GAME.legal(state, 0):
        state, events = GAME.apply(state, 0, {"kind": "play", "slot": 0})
        check_events(list(events))
    play_out(state, rnd, start)


def test_a_creature_a_seat_saw_fight_may_be_named_once_back_in_its_owners_hand() -> None:
    """Seductive Witch escapes and sends the creature it fought back to its owner's hand, with a modifier every
    viewer sees: "Player 2 must play <that creature> next turn". The creature is hidden in a hand again, but every
    viewer saw it fight: naming it tells them nothing hidden (a random match's leak check once said otherwise)."""
    deck = ["Lvl.3 Fire Skeleton", "Lvl.5 Ancient Giant", "Lvl.5 Nightmare Giant", "Lvl.1 Holy Giant", "Lvl.6 Dragon",
            "Lvl.3 Fire Skeleton", "Lvl.2 Nightmare Vampire", "Lvl.4 Coven-Calling Witch",
            "Lvl.4 Witch of the Chosen Legion", "Lvl.2 Skeleton", "Lvl.6 Nightmare Vampire", "Lvl.5 Nightmare Skeleton",
            "Lvl.3 Nightmare Skeleton", "Lvl.6 Ancient Pirate", "Lvl.2 Fire Wolf", "Lvl.2 Nightmare Dragon",
            "Lvl.5 Pirate", "Lvl.6 Medusa's Witch", "Lvl.3 Fire Dragon"]
    hands = [["Lvl.4 Seductive Witch", "Lvl.5 Holy Serpent", "Lvl.4 Ancient Giant", "Lvl.1 Ancient Giant",
              "Lvl.1 Wet Witch"],
             ["Lvl.4 Chiquita Witch", "Lvl.1 Nightmare Pirate", "Lvl.4 Nightmare Pirate", "Lvl.5 Skeletal Witch",
              "Lvl.6 Nightmare Vampire"]]
    state: State = GAME.setup({"deck": deck, "hands": hands, "first_drawer": 1, "hp": 10}, 5416095615398077811)
    known = {viewer: seen(state, viewer) for viewer in (0, 1, None)}
    for seat, slot in [(1, 5), (0, 0), (0, 4)]:
        state, _ = GAME.apply(state, seat, {"kind": "play", "slot": slot})
        for viewer in (0, 1, None):
            check_view(state, viewer, known[viewer])
            known[viewer] |= seen(state, viewer)
    named = [m.text for m in state.modifiers]
    assert named == ["Seductive Witch: Player 2 must play Lvl.3 Fire Skeleton {3} next turn."]
    assert all(named[0] in str(GAME.view(state, viewer)["modifiers"]) for viewer in (0, 1, None))


def test_the_hooks_kept_per_name_are_the_effects_own() -> None:
    """The table asks a dict of its own which hooks a card's witch or token and a modifier's rule override (asked
    twice: the second answer comes from the dict), and it answers what the effect, token or rule itself says."""
    for _ in range(2):
        for spec in CATALOGUE:
            assert own_hooks(Card.new_witch(1, spec.name, 3)) == EFFECTS[spec.key].overrides
        for name, made in TOKENS.items():
            assert own_hooks(Card(2, CardKind.CREATURE, 1, 0, token=name)) == made.overrides
        for key, rule in RULES.items():
            assert _rule_hooks(Modifier(key, 0)) == rule.overrides
        assert own_hooks(Card.creature(3, Tribe.WOLF, 2, PowerType.FIRE)) == frozenset()
        assert own_hooks(Card(4, CardKind.CREATURE, 1, 0, token="no such token")) == frozenset()

"""The leak check of the server tests knows what the rules show one seat alone: a question's options (Liberating
Witch offers its caster enemy creatures from the other hand to choose from), a copy of an enemy creature it is
given (Envious Witch), the hand a swap gives it as it came (Witcheroo) and an enemy creature an effect shows it
(Grim Witch) are that seat's to see."""
from __future__ import annotations

from typing import Any

from engine.creature_wars import GAME
from engine.creature_wars.state import State
from engine.interface import redact_all
from protocol import encode
from tests.server.helpers import leaks

LIBERATING = {
    "first_drawer": 0,
    "hands": [["Lvl.4 Liberating Witch", "Lvl.1 Wolf"],
              ["Lvl.3 Fire Dragon {7}", "Lvl.6 Holy Giant", "Lvl.2 Holy Skeleton", "Lvl.5 Nightmare Skeleton"]],
    "deck": [f"Lvl.{n} Fire Serpent {{0}}" for n in range(1, 7)],
}


def test_a_question_shows_its_seat_enemy_cards_and_that_is_no_leak() -> None:
    states = {0: GAME.setup(LIBERATING, 1)}
    hand = [card["text"] for card in GAME.view(states[0], 0)["hands"][0]["cards"]]
    states[1], _ = GAME.apply(states[0], 0, {"kind": "play", "slot": next(i for i, t in enumerate(hand) if "Witch" in t)})
    states[2], _ = GAME.apply(states[1], 1, {"kind": "play", "slot": 0})
    asked = states[2].pending
    assert asked is not None and asked.seat == 0 and any("Holy Giant" in option for option in asked.options)
    frames = [encode({"t": "view", "room": "r", "version": v, "view": GAME.view(state, 0), "events": []})
              for v, state in states.items()]
    assert leaks(frames, states, 0) == []
    # a seat that was not asked has not seen them: the same view sent to it would be a leak
    assert leaks(frames[2:], states, None) != []


def _duel(setup: dict[str, Any], mine: str, theirs: str) -> tuple[dict[int, State], list[dict[str, Any]], list[bytes]]:
    """Seat 0 plays the card of its hand whose text holds ``mine``, seat 1 then ``theirs``: the states by version,
    the events of the duel as seat 0 is told them, and the view frames seat 0 gets."""
    states = {0: GAME.setup(setup, 1)}
    for seat, word in ((0, mine), (1, theirs)):
        before = states[len(states) - 1]
        hand = [card["text"] for card in GAME.view(before, seat)["hands"][seat]["cards"]]
        states[len(states)], events = GAME.apply(before, seat, {"kind": "play", "slot": next(
            i for i, text in enumerate(hand) if word in text)})
    told = redact_all(tuple(events), 0)
    frames = [encode({"t": "view", "room": "r", "version": v, "view": GAME.view(state, 0), "events": told if v == 2 else []})
              for v, state in states.items()]
    return states, told, frames


ENVIOUS = {
    "first_drawer": 0,
    "hands": [["Lvl.2 Envious Witch", "Lvl.4 Holy Dragon", "Lvl.6 Ancient Dragon", "Lvl.1 Fire Dragon"],
              ["Lvl.5 Nightmare Serpent {0}", "Lvl.2 Nightmare Dragon {7}"]],
    "deck": [f"Lvl.{n} Fire Serpent {{0}}" for n in range(1, 7)],
}


def test_a_copy_of_an_enemy_creature_is_named_to_its_new_holder_and_that_is_no_leak() -> None:
    states, told, frames = _duel(ENVIOUS, "Witch", "Serpent")
    assert any(e.get("kind") == "gain" for e in told) and any(e.get("kind") == "rally" for e in told), told
    assert leaks(frames, states, 0) == []


WITCHEROO = {
    "first_drawer": 0,
    "hands": [["Lvl.2 Witcheroo", "Lvl.4 Holy Dragon"],
              ["Lvl.2 Kind Witch", "Lvl.1 Fire Serpent {0}", "Lvl.6 Holy Giant"]],
    # twins of the cards seat 0 takes, still in the deck when Kind Witch has raised the ones it holds
    "deck": ["Lvl.5 Holy Giant", "Lvl.3 Holy Giant", "Lvl.6 Holy Giant", "Lvl.2 Holy Giant", "Lvl.1 Fire Serpent {0}"],
}


def test_a_hand_taken_by_a_swap_is_named_to_its_new_holder_as_it_came_and_that_is_no_leak() -> None:
    states, told, frames = _duel(WITCHEROO, "Witcheroo", "Kind Witch")
    swap = next(e["text"] for e in told if e.get("kind") == "swap")
    assert "Lvl.1 Fire Serpent {0}" in swap and "Lvl.6 Holy Giant {4}" in swap, told
    held = [card["text"] for card in GAME.view(states[2], 0)["hands"][0]["cards"]]
    assert "Lvl.2 Fire Serpent {0}" in held and "Lvl.7 Holy Giant {4}" in held, held  # raised after the swap was told
    assert leaks(frames, states, 0) == []
    # the other seat was not told that hand as it came: the same events sent to it would be a leak
    assert leaks(frames[2:], states, 1) != []


GRIM = {
    "first_drawer": 0,
    "hands": [["Lvl.4 Grim Witch", "Lvl.4 Holy Dragon"], ["Lvl.3 Nightmare Giant", "Lvl.3 Nightmare Pirate"]],
    "deck": [f"Lvl.{n} Fire Serpent {{0}}" for n in range(1, 7)],
}


def test_an_enemy_creature_an_effect_shows_its_caster_alone_is_no_leak() -> None:
    states, told, frames = _duel(GRIM, "Grim", "Giant")
    marked = next(e["card"] for e in told if e.get("kind") == "secret")
    assert marked in {card.notation() for card in states[2].hands[1]}, told  # still in the hand hidden from seat 0
    assert leaks(frames, states, 0) == []
    # a spectator was not shown it: the same events sent to it would be a leak
    assert leaks(frames[2:], states, None) != []

"""The audit's point on Fairy Tableau (issue 15, point 14), against the line of the source it follows."""
from __future__ import annotations

from engine.fairy_tableau import GAME
from engine.fairy_tableau.state import State
from engine.interface import Outcome, OutcomeReason


def deal(*deck: str) -> State:
    state: State = GAME.setup({"deck": list(deck)}, 1)
    return state


def test_a_lost_game_ends() -> None:
    """Source: "Losing: The game ends in defeat if you attempt to cast a spell without sufficient mana or if no legal
    moves remain to remove the remaining enemies." The game ends the moment no play, now or after others, can remove
    another enemy, and is scored then (RULINGS: "Score: enemies defeated, then mana left"), before any Spade pads it."""
    # 5♦ takes 5♣ (7 - 5 = 2 mana); 4♠ would bring 6, and the 9♦ costs 9: 9♣ can never be removed
    state, events = GAME.apply(deal("5D", "5C", "9C", "4S", "9D"), 0, {"kind": "cast", "slot": 0, "target": 1})
    assert GAME.outcome(state) == Outcome(
        None, OutcomeReason.LOST, (1002,),
        "no play, now or later, can defeat another enemy; 1 of 2 enemies defeated, 2 mana left: score 1002")
    assert [e.kind for e in events] == ["cast", "over"] and GAME.legal(state, 0) == []
    assert GAME.view(state, None)["outcome"]["scores"] == [1002]
    # a deal with no way to remove its enemy is lost at once, though its Spade could still be played
    hopeless = deal("9C", "4S", "3S")
    outcome = GAME.outcome(hopeless)
    assert outcome is not None and outcome.reason is OutcomeReason.LOST and outcome.scores == (7,)
    # while the draw pile still brings the mana for the 9♦, play goes on
    state, _ = GAME.apply(deal("5D", "5C", "9C", "4S", "9D", "3S", "2S", "AS"), 0, {"kind": "cast", "slot": 0, "target": 1})
    assert GAME.outcome(state) is None and GAME.view(state, 0)["mana"] == 2

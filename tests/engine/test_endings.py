"""Every game ends on resign, forfeit and agreed abort; both duels take a time-out for any awaited decision."""
from __future__ import annotations

import pytest

from engine import registry
from engine.errors import MatchOver, TooLate
from engine.interface import OutcomeReason


@pytest.mark.parametrize("name", sorted(registry.GAMES))
@pytest.mark.parametrize(("kind", "reason"), [("resign", OutcomeReason.RESIGNED), ("forfeit", OutcomeReason.FORFEIT)])
def test_resign_and_forfeit_end_any_game_for_the_other_seat(name: str, kind: str, reason: OutcomeReason) -> None:
    game = registry.GAMES[name]
    state = next(s for s in (game.setup({}, seed) for seed in range(100)) if game.outcome(s) is None)
    seat = game.seats({}) - 1
    ended, events = game.apply(state, seat, {"kind": kind})
    outcome = game.outcome(ended)
    assert outcome is not None and outcome.reason is reason
    assert outcome.winner == (None if game.seats({}) == 1 else 1 - seat)
    assert game.version(ended) == game.version(state) + 1
    assert [e.kind for e in events] == ["over"] and events[0].public["reason"] == reason.value
    assert all(not game.legal(ended, s) for s in range(game.seats({})))
    assert game.view(ended, seat)["outcome"]["reason"] == reason.value
    # stored and loaded like any state; nothing is accepted afterwards
    assert game.outcome(game.load(game.dump(ended))) == outcome
    with pytest.raises(MatchOver):
        game.apply(ended, seat, {"kind": "resign"})


@pytest.mark.parametrize("name", ["creature_wars", "fairy_meat"])
def test_abort_before_anything_is_resolved_has_no_winner(name: str) -> None:
    game = registry.GAMES[name]
    state = game.setup({}, 3)
    assert game.abortable(state)
    ended, _ = game.apply(state, 1, {"kind": "abort"})
    outcome = game.outcome(ended)
    assert outcome is not None and outcome.reason is OutcomeReason.ABORTED and outcome.winner is None


def test_creature_wars_abort_is_too_late_once_the_first_duel_resolved() -> None:
    game = registry.GAMES["creature_wars"]
    state = game.setup({}, 3)
    state, _ = game.apply(state, 0, game.legal(state, 0)[0])
    assert game.abortable(state)  # one seat locked in: nothing resolved yet
    state, _ = game.apply(state, 1, game.legal(state, 1)[0])
    assert not game.abortable(state)
    with pytest.raises(TooLate):
        game.apply(state, 0, {"kind": "abort"})


def test_creature_wars_timeout_on_a_sealed_play_locks_in_the_lowest_playable_slot() -> None:
    game = registry.GAMES["creature_wars"]
    state = game.setup({}, 3)
    lowest = min(d["slot"] for d in game.legal(state, 1))
    card = state.hands[1][lowest]
    state, events = game.apply(state, 1, {"kind": "timeout"})
    assert [e.kind for e in events] == ["timeout", "locked_in"]
    assert state.sealed[1] == lowest and state.hands[1][lowest] == card
    assert game.legal(state, 1) == []


def test_fairy_meat_timeout_is_taken_on_a_sealed_choice_both_seats_still_make() -> None:
    game = registry.GAMES["fairy_meat"]
    state = game.setup({}, 3)
    assert game.legal(state, 0) and game.legal(state, 1) and game.timer(state) is None
    state, events = game.apply(state, 0, {"kind": "timeout"})
    assert "timeout" in [e.kind for e in events]
    assert game.legal(state, 0) == [] and game.legal(state, 1)

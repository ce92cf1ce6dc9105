"""The random-play benchmark: every game ends its random matches with no crash, no stall and no endless match."""
from __future__ import annotations

import pytest

from bench.random_play import format_report, play_match, run
from engine.registry import GAMES

TWO_PLAYER = [name for name, game in GAMES.items() if game.seats({}) == 2]


def test_the_bench_plays_every_game_and_flags_an_endless_match() -> None:
    """A few matches of each game end with an outcome; a bound below a match's length flags it endless."""
    for name in GAMES:
        report = run(name, matches=3)
        assert report.matches == 3 and report.failures == [], format_report(report)
        assert sum(report.reasons.values()) == 3 and len(report.lengths) == 3
    cut = play_match(GAMES["creature_wars"], seed=1, bound=5)
    assert (cut.end, cut.decisions) == ("endless", 5)
    assert "crashes 0 · stalls 0 · endless 1" in format_report(run("creature_wars", matches=1, bound=5))


def test_a_careful_player_avoids_losing_plays_and_solitaire_scores_are_counted() -> None:
    """With ``careful``, no decision marked ``loses`` is made while another is legal; one-seat scores are kept."""
    careless, careful = run("fairy_tableau", matches=20), run("fairy_tableau", matches=20, careful=True)
    assert len(careless.scores) == len(careful.scores) == 20
    assert sum(careful.lengths) > sum(careless.lengths) and "score (min / median / p95 / max)" in format_report(careful)


@pytest.mark.slow
@pytest.mark.parametrize("name", TWO_PLAYER)
def test_two_thousand_random_matches_end(name: str) -> None:
    """Issue 15: at least 2,000 random matches per two-player game, no crash, no stall, no endless match."""
    report = run(name, matches=2000)
    print(format_report(report))
    assert report.matches == 2000
    assert (report.crashes, report.stalls, report.endless) == (0, 0, 0), format_report(report)

"""Glicko-2 against the worked example of Glickman's paper, to its printed precision."""
from __future__ import annotations

import pytest

from server.players.ratings import SCALE, Rating, update


def test_the_papers_worked_example() -> None:
    """"Example of the Glicko-2 system": r 1500, RD 200, sigma 0.06 against three opponents, tau 0.5, gives
    mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, so r' = 1464.06 and RD' = 151.52. The paper converts its
    rounded mu' back; unrounded, r' is 1464.05, within 0.01 of the printed figure."""
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = update(player, results, tau=0.5)
    assert round((after.r - 1500) / SCALE, 4) == -0.2069
    assert round(after.rd / SCALE, 4) == 0.8722
    assert after.sigma == pytest.approx(0.05999, abs=0.00001)
    assert after.r == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.005)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(Rating(1500, 200, 0.06), [])
    assert after.r == 1500 and after.sigma == 0.06
    assert after.rd == pytest.approx((200**2 + (0.06 * 173.7178) ** 2) ** 0.5, rel=1e-9)


def test_a_win_raises_and_a_loss_lowers() -> None:
    a, b = Rating(), Rating()
    assert update(a, [(b, 1.0)]).r > 1500 > update(b, [(a, 0.0)]).r
    assert update(a, [(b, 0.5)]).r == pytest.approx(1500)

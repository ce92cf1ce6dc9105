"""Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013): one rating period per match.

Pure arithmetic, no I/O: the store keeps each player's (rating, deviation, volatility).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT", "SCALE", "TAU", "Rating", "update"]

SCALE = 173.7178
TAU = 0.5
"""The system constant: how much volatility may change in one period."""
EPSILON = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating ``r``, rating deviation ``rd`` and volatility ``sigma``, on the Glicko scale."""

    r: float = 1500.0
    rd: float = 350.0
    sigma: float = 0.06


DEFAULT = Rating()


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period with ``results`` (opponent, score 1 / 0.5 / 0); no games: RD grows."""
    mu, phi, sigma = (player.r - 1500) / SCALE, player.rd / SCALE, player.sigma
    if not results:
        return Rating(player.r, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    opponents = [((o.r - 1500) / SCALE, o.rd / SCALE, score) for o, score in results]
    v = 1 / sum(_g(phi_j) ** 2 * _e(mu, mu_j, phi_j) * (1 - _e(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)
    delta = v * sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    # the Illinois algorithm of step 5
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = c, f_c
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * sum(_g(phi_j) * (s - _e(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    return Rating(new_mu * SCALE + 1500, new_phi * SCALE, new_sigma)

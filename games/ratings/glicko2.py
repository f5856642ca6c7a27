"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2022) computes it.

Pure arithmetic on the Glicko scale (rating 1500, deviation 350): the site's rules around it
(one game per rating period, the deviation grown by idle time, floor and ceiling) are in
``games.ratings.service``. No maintained library fits: the one on PyPI (``glicko2``) has no
time-based deviation growth and has not been released for years.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's step 2: the Glicko scale divided by this
CENTRE = 1500.0
CONVERGENCE = 0.000001  # step 5's epsilon


@dataclass(frozen=True)
class Glicko:
    """A player's rating, rating deviation and volatility, on the Glicko scale."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06

    @property
    def mu(self) -> float:
        return (self.rating - CENTRE) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True)
class Result:
    """One game of the period against ``opponent``: ``score`` 1 a win, 0.5 a draw, 0 a loss."""

    opponent: Glicko
    score: float


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def grown_phi(phi: float, volatility: float, periods: float) -> float:
    """Step 6: the deviation after ``periods`` rating periods without a game."""
    return math.sqrt(phi * phi + periods * volatility * volatility)


def rate(player: Glicko, results: Iterable[Result], tau: float, periods: float = 1.0) -> Glicko:
    """The player's new rating after one rating period with ``results`` (steps 2 to 8).

    ``periods`` is how many periods step 6 grows the deviation by: 1 in the paper; the site
    grows it by idle time before the game instead and passes 0. A period without games only
    grows the deviation.
    """
    results = list(results)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    if not results:
        return Glicko(player.rating, grown_phi(phi, sigma, periods) * SCALE, sigma)
    # Step 3: the estimated variance v; step 4: the estimated improvement delta.
    v_inverse, improvement = 0.0, 0.0
    for result in results:
        mu_j, phi_j = result.opponent.mu, result.opponent.phi
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * expected * (1 - expected)
        improvement += g * (result.score - expected)
    v = 1 / v_inverse
    delta = v * improvement
    # Step 5: the new volatility, by the Illinois algorithm.
    sigma = _new_volatility(delta, phi, v, sigma, tau)
    # Steps 6 and 7: the new deviation and rating; step 8 back to the Glicko scale.
    phi_star = grown_phi(phi, sigma, periods)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(SCALE * new_mu + CENTRE, SCALE * new_phi, sigma)


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - d) / (2 * d * d) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)

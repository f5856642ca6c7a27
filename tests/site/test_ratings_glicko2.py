"""Glicko-2 as Glickman's "Example of the Glicko-2 system" works it out."""

from __future__ import annotations

import pytest

from games.ratings.glicko2 import Glicko, Result, rate

PLAYER = Glicko(1500, 200, 0.06)
PAPER_RESULTS = [
    Result(Glicko(1400, 30), 1),
    Result(Glicko(1550, 100), 0),
    Result(Glicko(1700, 300), 0),
]


def test_the_papers_worked_example():
    after = rate(PLAYER, PAPER_RESULTS, tau=0.5)
    # The paper rounds its intermediate values: 1464.06, 151.52, 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_grows_the_deviation():
    after = rate(PLAYER, [], tau=0.5)
    assert (after.rating, after.volatility) == (1500, 0.06)
    # Step 6 alone: phi' = sqrt(phi^2 + sigma^2), on the Glicko-2 scale.
    assert after.deviation == pytest.approx(200.2714, abs=0.001)


def test_a_win_against_a_stronger_player_gains_more_than_against_a_weaker_one():
    stronger = rate(PLAYER, [Result(Glicko(1700, 50), 1)], tau=0.5)
    weaker = rate(PLAYER, [Result(Glicko(1300, 50), 1)], tau=0.5)
    assert stronger.rating > weaker.rating > 1500

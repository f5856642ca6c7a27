"""The simulator and the benchmark run from the command line."""

from __future__ import annotations

from games.engine.basilica import Options, replay
from games.engine.basilica.bench import OPTIONS, long_game
from games.engine.basilica.simulate import main, simulate


def test_the_simulator_reports_endings_scores_and_speed(capsys):
    assert main(["--games", "3", "--edition", "2010", "--expansion", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    for line in ("turns per game", "third scoring", "exhaustion", "winner's score", "margin"):
        assert line in out
    assert "games per second" in out


def test_simulated_games_are_reproducible_from_their_seed():
    first = simulate(Options(), 4, seed=9, policy="kind")
    again = simulate(Options(), 4, seed=9, policy="kind")
    assert (first.turns, first.winners, first.losers) == (again.turns, again.winners, again.losers)


def test_the_benchmark_log_is_a_long_game_that_replays():
    seed, log = long_game()
    assert 140 <= len(log) <= 160
    assert replay(OPTIONS, seed, log, check=True).finished

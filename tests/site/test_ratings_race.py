"""A rated game's last move and the sweep's timeout at the same moment: whichever ends the
game, both ratings move exactly once. Two threads, each with its own connection, on a file copy
of the SQLite test database or on the PostgreSQL server (as test_timeout_race.py)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from factories import START, game_from_log, player
from test_concurrency import in_threads, threads_on_a_file_copy

from games import tasks
from games.engine import basilica as engine
from games.models import Game, Rating, RatingChange
from games.play import services, timing

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE = START + timedelta(days=3)
MOMENTS = [timedelta(milliseconds=ms) for ms in (-1000, -30, -3, 0, 3)]


def a_whole_game(options: engine.Options, seed: int) -> list[engine.Action]:
    state, rng, actions = engine.new_game(options, seed), random.Random(seed), []
    while not state.finished:
        actions.append(rng.choice(engine.legal_actions(state)))
        state = engine.apply_action(state, actions[-1])
    return actions


def a_rated_game_one_move_from_its_end() -> tuple[Game, dict]:
    """Every action but the last, all made at START: the last one is due by DEADLINE."""
    options, seed = engine.Options(), 1122
    actions = a_whole_game(options, seed)
    with time_machine.travel(START, tick=False):
        game = game_from_log(
            options,
            seed,
            actions[:-1],
            seat0=player("ann"),
            seat1=player("bob"),
            time_control="3d",
            rated=True,
        )
        timing.refresh_deadline(game)
    return game, actions[-1].to_json()


@pytest.mark.parametrize("offset", MOMENTS, ids=lambda d: f"{d.total_seconds() * 1000:+.0f}ms")
def test_a_rated_games_end_moves_both_ratings_exactly_once_when_move_and_sweep_race(
    tmp_path, offset
):
    game, last = a_rated_game_one_move_from_its_end()
    deciding = game.player(game.to_decide)

    def last_move():
        return services.submit_action(game, deciding, last, game.seq)

    with (
        threads_on_a_file_copy(tmp_path),
        time_machine.travel(DEADLINE + offset, tick=True),
    ):
        moved, swept = in_threads(last_move, tasks.sweep)
        [(after, changes, rows)] = in_threads(
            lambda: (
                Game.objects.get(pk=game.pk),
                list(RatingChange.objects.order_by("seat")),
                {r.user_id: r for r in Rating.objects.all()},
            )
        )

    assert not isinstance(swept, Exception), swept
    assert after.status == Game.Status.FINISHED
    if isinstance(moved, Game):  # the last move landed: the game ended by the rules
        assert after.termination != "timeout"
        assert swept["ended"] == 0
    else:  # the clock ran out first: the move was refused
        assert isinstance(moved, services.StaleMove), moved
        assert after.termination == "timeout"
        assert after.winners == [1 - game.to_decide]
    assert [(c.game_id, c.seat) for c in changes] == [(game.pk, 0), (game.pk, 1)]
    for change in changes:
        won = change.seat in after.winners
        assert change.score == (0.5 if won and len(after.winners) == 2 else float(won))
        assert rows[change.user_id].games == 1
        assert rows[change.user_id].rating == change.rating_after

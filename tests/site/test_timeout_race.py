"""The sweep and a last-second move at the same moment: exactly one outcome. Either the move
lands and the game goes on, or the game is timed out and the move refused; never both, never a
server error. Two threads, each with its own connection, on a file copy of the SQLite test
database or on the PostgreSQL server (``make test-postgres``)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse
from factories import START, client_for, first_legal, player, started_game
from test_concurrency import in_threads, threads_on_a_file_copy

from games import tasks
from games.models import Action, Game
from games.play import services

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE = START + timedelta(days=3)
# When the two meet, around the deadline: the move just before, at, or just after it.
MOMENTS = [timedelta(milliseconds=ms) for ms in (-1000, -30, -3, 0, 3)]


def a_game_ann_must_finish_by_the_deadline() -> Game:
    with time_machine.travel(START, tick=False):
        game = started_game(player("ann"), player("bob"), time_control="3d")
        return services.submit_action(game, game.seat0, first_legal(game), 0)


def the_game_as_it_is(game: Game) -> tuple[Game, list[Action]]:
    [seen] = in_threads(lambda: (Game.objects.get(pk=game.pk), list(game.actions.all())))
    return seen


@pytest.mark.parametrize("offset", MOMENTS, ids=lambda d: f"{d.total_seconds() * 1000:+.0f}ms")
def test_a_sweep_racing_a_last_second_move_gives_exactly_one_outcome(tmp_path, offset):
    game = a_game_ann_must_finish_by_the_deadline()
    move = first_legal(game)

    def last_second_move():
        return services.submit_action(game, game.seat0, move, 1)

    with (
        threads_on_a_file_copy(tmp_path),
        time_machine.travel(DEADLINE + offset, tick=True),
    ):
        moved, swept = in_threads(last_second_move, tasks.sweep)
        after, logged = the_game_as_it_is(game)

    assert not isinstance(swept, Exception), swept
    if isinstance(moved, Game):  # the move landed: the game goes on, nobody timed out
        assert after.status == Game.Status.ACTIVE
        assert after.seq == len(logged) == 2
        assert swept["ended"] == 0
    else:  # the game timed out: the move was refused and is nowhere in the log
        assert isinstance(moved, services.StaleMove), moved
        assert "ann ran out of time: bob wins." in moved.message
        assert (after.status, after.termination, after.winners) == ("finished", "timeout", [1])
        assert after.seq == len(logged) == 1


@pytest.mark.parametrize("offset", MOMENTS, ids=lambda d: f"{d.total_seconds() * 1000:+.0f}ms")
def test_a_move_posted_as_the_sweep_runs_is_answered_never_with_a_server_error(tmp_path, offset):
    game = a_game_ann_must_finish_by_the_deadline()
    form = {"action": json.dumps(first_legal(game)), "seq": 1}
    ann = client_for(game.seat0)

    def post_the_move():
        return ann.post(reverse("games:act", args=[game.pk]), form, HTTP_HX_REQUEST="true")

    with (
        threads_on_a_file_copy(tmp_path),
        time_machine.travel(DEADLINE + offset, tick=True),
    ):
        response, _ = in_threads(post_the_move, tasks.sweep)
        after, logged = the_game_as_it_is(game)

    assert not isinstance(response, Exception), response
    if response.status_code == 200:
        assert (after.status, after.seq, len(logged)) == ("active", 2, 2)
    else:
        assert response.status_code == 409
        assert "ann ran out of time: bob wins." in response.content.decode()
        assert (after.status, after.seq, len(logged)) == ("finished", 1, 1)

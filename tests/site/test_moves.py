"""Moves made through the game page: who may act, and what a refused move shows."""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape
from factories import client_for, first_legal, make_user, play_randomly, started_game

from games.engine import basilica as engine
from games.kinds.basilica import story
from games.models import Action
from games.play import states

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
# The page's move forms swap the whole live region: the board, the market and the log.
FROM_A_MOVE_FORM = {**HTMX, "HTTP_HX_TARGET": "live"}


def post_move(client, game, action, seq, **headers):
    form = {"action": json.dumps(action) if not isinstance(action, str) else action, "seq": seq}
    return client.post(reverse("games:act", args=[game.pk]), form, **headers)


def test_a_move_from_the_page_lands_and_the_browser_goes_back_to_the_board():
    game = started_game()
    response = post_move(client_for(game.seat0), game, first_legal(game), 0)
    assert response.status_code == 302
    assert response.url == game.get_absolute_url()
    assert game.actions.count() == 1


def test_a_move_over_htmx_answers_with_the_live_region_its_form_swaps():
    game = started_game()
    action = first_legal(game)
    names = [game.seat0.username, game.seat1.username]
    response = post_move(client_for(game.seat0), game, action, 0, **FROM_A_MOVE_FORM)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="live">')
    assert 'data-seq="1"' in response.text
    game.refresh_from_db()
    made = engine.view(states.load_state(game), 0)["log"][-1]
    assert made["action"] == action
    assert escape(story.entry_text(made, names)) in response.text  # in the log
    assert escape(story.move_summary([made], names)) in response.text  # as the last move


def test_the_opponent_is_refused_when_it_is_not_their_decision():
    game = started_game()
    response = post_move(client_for(game.seat1), game, first_legal(game), 0, **HTMX)
    assert response.status_code == 403
    assert "it is not your decision now" in response.text
    assert not Action.objects.exists()


def test_someone_outside_the_game_gets_403_on_act():
    game = started_game()
    response = post_move(client_for(make_user()), game, first_legal(game), 0)
    assert response.status_code == 403
    assert not Action.objects.exists()


def test_a_stale_page_gets_409_and_the_board_as_it_is_now():
    game = play_randomly(started_game(), 3)
    mover = game.player(game.to_decide)
    response = post_move(client_for(mover), game, first_legal(game), 2, **HTMX)
    assert response.status_code == 409
    assert "the game has moved on" in response.text
    assert 'data-seq="3"' in response.text
    assert game.actions.count() == 3


def test_an_illegal_move_shows_the_engines_reason_with_400_over_htmx():
    game = started_game()
    wrong = {"type": "vault", "tile": 999, "col": 0, "row": 0}
    response = post_move(client_for(game.seat0), game, wrong, 0, **HTMX)
    assert response.status_code == 400
    assert "that vault is not on offer in the market" in response.text
    assert not Action.objects.exists()


def test_an_illegal_move_without_htmx_shows_the_reason_on_the_full_page():
    game = started_game()
    wrong = {"type": "builder"}
    response = post_move(client_for(game.seat0), game, wrong, 0)
    assert response.status_code == 400
    assert "Place Builder is only possible immediately after Place Vault" in response.text
    assert "<html" in response.text
    assert not Action.objects.exists()


@pytest.mark.parametrize(
    ("form", "reason"),
    [
        ({"action": "{not json", "seq": "0"}, "that form was not a move"),
        ({"action": '{"type": "builder"}'}, "that form was not a move"),
        ({"action": '{"type": "builder"}', "seq": "zero"}, "that form was not a move"),
        ({"seq": "0"}, "that form was not a move"),
        ({"action": "[" * 1100 + "]" * 1100, "seq": "0"}, "that form was not a move"),
        (
            {"action": '{"type": "teleport"}', "seq": "0"},
            "unknown action type &#x27;teleport&#x27;",
        ),
        ({"action": '["vault", 3]', "seq": "0"}, "an action is a JSON object"),
        ({"action": '{"type": "vault", "tile": 1.5}', "seq": "0"}, "tile must be a whole number"),
    ],
)
def test_a_forged_form_gets_a_clear_message_and_no_500(form, reason):
    game = started_game()
    response = client_for(game.seat0).post(reverse("games:act", args=[game.pk]), form, **HTMX)
    assert response.status_code == 400
    assert reason in response.text
    assert not Action.objects.exists()


def test_act_only_takes_posts():
    game = started_game()
    response = client_for(game.seat0).get(reverse("games:act", args=[game.pk]))
    assert response.status_code == 405


def test_acting_in_a_game_that_does_not_exist_is_404():
    response = client_for(make_user()).post(reverse("games:act", args=[999]), {"seq": "0"})
    assert response.status_code == 404


@pytest.mark.django_db(transaction=True)  # moves commit, as they do on the site
@pytest.mark.parametrize("time_control", ["none", "10+5"])
def test_a_move_late_in_a_long_game_reads_no_more_of_the_database_than_an_early_one(time_control):
    # What grows with the game (its log, its clock's decisions) is kept in memory by game: a
    # move's queries stay as many as at the start, and none reads the whole log.
    def queries_of_a_move(game) -> list[str]:
        game.refresh_from_db()
        client, action = client_for(game.player(game.to_decide)), first_legal(game)
        with CaptureQueriesContext(connection) as queries:
            response = post_move(client, game, action, game.seq, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        return [q["sql"] for q in queries.captured_queries]

    def reads_whole_log(sql: str) -> bool:
        return 'FROM "games_action"' in sql and "LIMIT" not in sql and '"seq" >' not in sql

    # A fixed choice of moves (not one by game id): this game is still going after them.
    rng = random.Random(1)
    game = play_randomly(started_game(expansion=True, time_control=time_control), 8, rng)
    early = queries_of_a_move(game)
    game.refresh_from_db()
    late = queries_of_a_move(play_randomly(game, 60, rng))
    assert len(late) <= len(early)
    assert not [sql for sql in late if reads_whole_log(sql)]

"""The queries of a move's path, counted: the mover's request, the opponent's push, the
spectators' push and the game page. Each figure is the most this path asks today (issue 27's
profile, `make profile`, prints them by stage); a change that adds one fails here and must say
why, instead of slowing every move of the site in silence.

Counted in a transactional test: what runs once the move commits (the push's announcement, the
checks it schedules) is counted too, as a server runs it."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from factories import client_for, started_game

from games.live import pushes
from games.live.announce import version
from games.play import services, states

pytestmark = pytest.mark.django_db(transaction=True)

# kind: the lobby's settings of the game, actions played before the counted move
POSITIONS = {
    "basilica": ({"kind": "basilica", "expansion": True}, 30),
    "cathedral": ({"kind": "cathedral"}, 8),
}
# The most queries each step may make (SQLite; PostgreSQL's are the same statements), by kind.
MOST = {
    # the session, the user and their settings, the game; in the transaction the lock (which
    # asks too whether the player is suspended or on vacation), the appended action, the game's
    # row (and Cathedral's prepared lines); after it the header's count of games waiting
    "move": {"basilica": 10, "cathedral": 11},
    "opponent's push": {"basilica": 2, "cathedral": 2},  # the game, their settings
    # the game's row at the announced version, read by the opponent's push; the states are in
    # memory
    "spectators' push": {"basilica": 0, "cathedral": 0},
    # the request's three and the game; the visit noted; the header's count; the player's note
    # and (Cathedral) prepared lines; the clocks' read; the chat: the game's chat turned off or
    # not, its messages, and the player's sanctions (a mute, a suspension, a warning)
    "page": {"basilica": 13, "cathedral": 14},
}


def mid_game(kind: str):
    settings, actions = POSITIONS[kind]
    game = started_game(**settings)
    rng = random.Random(5)
    for _ in range(actions):
        state = states.load_state(game)
        action = rng.choice(game.engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    return game, rng


@pytest.mark.parametrize("kind", POSITIONS)
def test_a_move_and_its_pushes_ask_the_database_no_more_than_today(
    kind, django_assert_max_num_queries
):
    game, rng = mid_game(kind)
    state = states.load_state(game)
    mover, opponent = state.to_decide, 1 - state.to_decide
    client = client_for(game.player(mover))
    url = game.get_absolute_url()
    assert client.get(url).status_code == 200  # the mover's page, open before they move
    action = rng.choice(game.engine.legal_actions(state)).to_json()
    with django_assert_max_num_queries(MOST["move"][kind]):
        response = client.post(
            reverse("games:act", args=[game.pk]),
            {"action": json.dumps(action), "seq": game.seq},
            HTTP_HX_REQUEST="true",
            HTTP_HX_TARGET="live",
        )
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.seq == len(state.history) + 1  # the move landed
    player = type(game.seat0).objects.get(pk=game.player(opponent).pk)
    announced = version(game)  # what the move's announcement tells every socket
    with django_assert_max_num_queries(MOST["opponent's push"][kind]):
        html = pushes.render_push(game.pk, player, opponent, "t" * 64, announced)
    assert f'data-seq="{game.seq}"' in html
    with django_assert_max_num_queries(MOST["spectators' push"][kind]):
        html = pushes.render_push(game.pk, AnonymousUser(), None, "", announced)
    assert f'data-seq="{game.seq}"' in html


@pytest.mark.parametrize("kind", POSITIONS)
def test_the_game_page_asks_the_database_no_more_than_today(kind, django_assert_max_num_queries):
    game, _ = mid_game(kind)
    client = client_for(game.player(game.to_decide))
    client.get(game.get_absolute_url())
    with django_assert_max_num_queries(MOST["page"][kind]):
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200

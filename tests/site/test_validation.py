"""What an attacker posting forged moves meets: a clear refusal, and nothing kept in memory."""

from __future__ import annotations

import gc
import json
import logging
import resource

import pytest
from django.urls import reverse
from factories import client_for, started_game

from games.models import Action
from games.web.validation import MOVE_BODY_MAX

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def resident_mb() -> float:
    gc.collect()
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def post_action(client, game, action: dict):
    form = {"action": json.dumps(action), "seq": game.seq}
    return client.post(reverse("games:act", args=[game.pk]), form, **HTMX)


def test_300_large_illegal_moves_leave_the_process_memory_as_it_was(caplog):
    # pytest keeps every logged warning, and Django's carries the request, body included.
    caplog.set_level(logging.ERROR, logger="django.request")
    game = started_game()
    player = client_for(game.seat0)
    post_action(player, game, {"type": "builder"})  # the view's first use costs its own memory
    before = resident_mb()
    for i in range(300):
        rank = f"{i}" + "x" * 200_000
        response = post_action(player, game, {"type": "promote", "col": 0, "row": 0, "rank": rank})
        assert response.status_code in (400, 413)
    assert resident_mb() - before < 20
    assert not Action.objects.exists()


def test_a_move_larger_than_a_few_kilobytes_is_refused_with_413_and_a_reason():
    game = started_game()
    action = {"type": "promote", "col": 0, "row": 0, "rank": "x" * MOVE_BODY_MAX}
    response = post_action(client_for(game.seat0), game, action)
    assert response.status_code == 413
    assert "too large to be a move" in response.text
    assert not Action.objects.exists()


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"type": "promote", "tile": 0, "col": 0, "row": 0, "rank": "x" * 3000}, "no such rank"),
        ({"type": "jester", "col": 0, "row": 0, "color": "purple"}, "no such color"),
        ({"type": "vault", "tile": 10**30, "col": 0, "row": 0}, "tile is off the board"),
        ({"type": "vault", "tile": 0, "col": 5, "row": 0}, "col is off the board"),
        ({"type": "vault", "tile": 0, "col": 0, "row": -1}, "row is off the board"),
        ({"type": "vault", "tile": 0, "col": 0, "row": 0, "x" * 2000: 1}, "unexpected fields"),
    ],
)
def test_a_well_formed_action_out_of_the_games_bounds_is_refused_with_its_reason(action, reason):
    game = started_game()
    response = post_action(client_for(game.seat0), game, action)
    assert response.status_code == 400
    assert reason in response.text
    assert not Action.objects.exists()

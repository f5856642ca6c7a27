"""The opponent's push drawn by the move's own request when their socket is open in the same
process: it reaches them without waiting for a worker thread, it is exactly their push (their
choices, their token), and it is never anyone else's."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.live import consumers, pushes
from games.live.announce import version
from games.models import Game, GameVisit
from tests.live.test_consumers import (
    first_move,
    is_html,
    receive_until,
    session_cookie,
    socket,
    started_game,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def post_move(game: Game) -> Game:
    """The first player's move as their page sends it: an HTMX POST through the site."""
    client = Client()
    client.force_login(game.seat0)
    response = client.post(
        f"/games/{game.pk}/act/",
        {"action": json.dumps(first_move(game)), "seq": game.seq},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="live",
    )
    assert response.status_code == 200
    return Game.objects.get(pk=game.pk)


def counting_own_drawings(monkeypatch) -> list:
    """The pushes a player's socket draws itself (in a worker thread), counted."""
    drawn = []
    own = consumers.GameConsumer.players_push

    def players_push(self):
        drawn.append(self.seat)
        return own(self)

    monkeypatch.setattr(consumers.GameConsumer, "players_push", players_push)
    return drawn


async def test_the_opponents_push_is_drawn_by_the_move_and_sent_as_drawn(monkeypatch):
    own_drawings = counting_own_drawings(monkeypatch)
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    await receive_until(bobs, lambda message: not is_html(message))

    moved = await database_sync_to_async(post_move)(game)

    [(key, user_id)] = pushes._prepared_turns  # drawn once, before bob's socket heard
    assert key[:4] == (game.pk, version(moved), 1, "abc")  # bob's seat and his page's token
    assert user_id == game.seat1_id
    pushed = await receive_until(bobs, is_html)
    assert own_drawings == [], "bob's socket sent the push drawn by the move"
    assert 'data-seq="1"' in pushed
    assert 'name="csrfmiddlewaretoken" value="abc"' in pushed
    assert 'id="turns"' in pushed  # the header's count of his games comes with it
    await bobs.disconnect()


async def test_a_push_sent_as_prepared_still_marks_the_game_watched(monkeypatch):
    """No "your turn" email for a move the player saw arrive (games.correspondence.notify)."""
    monkeypatch.setattr(consumers, "SEEN_EVERY", 0)
    own_drawings = counting_own_drawings(monkeypatch)
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    await receive_until(bobs, lambda message: not is_html(message))
    visits = GameVisit.objects.filter(user=game.seat1, game=game)
    await database_sync_to_async(visits.delete)()

    await database_sync_to_async(post_move)(game)
    await receive_until(bobs, is_html)
    await bobs.disconnect()  # after the push's own work is done

    assert own_drawings == []
    assert await database_sync_to_async(visits.count)() == 1


async def test_nothing_is_drawn_for_the_movers_own_socket_nor_for_a_spectator():
    game = await database_sync_to_async(started_game)()
    anns = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat0))
    assert (await anns.connect())[0]
    carls = socket(game.pk, None)
    assert (await carls.connect())[0]

    moved = await database_sync_to_async(post_move)(game)

    assert moved.seq == 1
    assert pushes._prepared_turns == {}, "no push drawn for the mover's tab nor for a spectator"
    watched = await receive_until(carls, is_html)
    assert "csrfmiddlewaretoken" not in watched  # a spectator's push holds no player's form
    await anns.disconnect()
    await carls.disconnect()


async def test_a_closed_socket_is_forgotten_and_costs_the_next_move_nothing():
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    await bobs.disconnect()

    await database_sync_to_async(post_move)(game)

    assert pushes._prepared_turns == {}


async def test_a_push_that_cannot_be_drawn_in_advance_leaves_the_move_and_the_push_whole(
    monkeypatch, caplog
):
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    await receive_until(bobs, lambda message: not is_html(message))
    drawn = pushes.render_push
    calls = []

    def fails_the_first_time(*args, **kwargs):
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("a drawing that fails")
        return drawn(*args, **kwargs)

    monkeypatch.setattr(pushes, "render_push", fails_the_first_time)

    moved = await database_sync_to_async(post_move)(game)

    assert moved.seq == 1  # the move stands
    assert "could not prepare the push" in caplog.text
    pushed = await receive_until(bobs, is_html)  # the socket drew its own
    assert 'data-seq="1"' in pushed
    await bobs.disconnect()

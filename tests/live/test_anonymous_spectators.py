"""Watching a public game without an account: the socket accepts a visitor with no session,
pushes them the spectator's view, counts their sockets by address, and still refuses them a
private game."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from test_consumers import first_move, is_html, make_user, receive_until, started_game

from basilica_site.asgi import application
from games.live.consumers import CLOSE_TOO_MANY
from games.models import Game
from games.play import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def visitor(game_id: int, address: str = "203.0.113.5") -> WebsocketCommunicator:
    """A socket with no session cookie, from ``address`` (as daphne puts it in the scope)."""

    async def from_address(scope, receive, send):
        return await application({**scope, "client": [address, 50000]}, receive, send)

    return WebsocketCommunicator(from_address, f"/ws/games/{game_id}/", headers=HEADERS)


async def test_an_anonymous_visitor_receives_the_moves_of_a_public_game():
    game = await database_sync_to_async(started_game)()
    watcher = visitor(game.pk)
    assert (await watcher.connect())[0]
    hello = await watcher.receive_from()
    assert hello == '{"type": "seq", "seq": 0, "status": "active"}'

    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)

    html = await receive_until(watcher, is_html)
    for partial in ("status", "market", "board", "log"):
        assert f'id="{partial}"' in html
    assert 'data-seq="1"' in html
    assert 'method="post"' not in html
    assert "csrfmiddlewaretoken" not in html
    assert 'class="prompt"' not in html
    await watcher.disconnect()


async def test_an_anonymous_visitor_may_not_watch_a_private_game():
    game = await database_sync_to_async(started_game)(private=True)
    connected, _ = await visitor(game.pk).connect()
    assert not connected


async def test_an_anonymous_visitor_of_a_game_not_yet_begun_is_told_only_that_it_began():
    # The waiting page of a public seek is anyone's: its socket says when the game began,
    # never what its board shows (the page then opens the board, as a reload would).
    ann, bob = (
        await database_sync_to_async(make_user)("ann"),
        await database_sync_to_async(make_user)("bob"),
    )
    game = await database_sync_to_async(services.create_game)(
        ann, services.GameSettings(first="me")
    )
    assert game.status == Game.Status.OPEN
    watcher = visitor(game.pk)
    assert (await watcher.connect())[0]
    assert json.loads(await watcher.receive_from()) == {"type": "seq", "seq": 0, "status": "open"}
    await database_sync_to_async(services.accept_game)(game, bob)
    told = await watcher.receive_from()
    assert json.loads(told) == {"type": "seq", "seq": 0, "status": "active"}
    assert await watcher.receive_nothing(timeout=0.5)
    await watcher.disconnect()


async def test_anonymous_sockets_are_capped_per_address(settings):
    settings.WEBSOCKETS_PER_ADDRESS = 2
    game = await database_sync_to_async(started_game)()
    first, second = visitor(game.pk), visitor(game.pk)
    assert (await first.connect())[0]
    assert (await second.connect())[0]
    one_too_many = visitor(game.pk)
    assert (await one_too_many.connect())[0]  # only to be told why it closes at once
    assert (await one_too_many.receive_output())["code"] == CLOSE_TOO_MANY
    await one_too_many.disconnect()
    elsewhere = visitor(game.pk, address="198.51.100.7")
    assert (await elsewhere.connect())[0]
    await first.disconnect()
    again = visitor(game.pk)
    assert (await again.connect())[0]
    for communicator in (second, elsewhere, again):
        await communicator.disconnect()

"""Cathedral over the game's websocket: a placement reaches the opponent and a spectator at once,
drawn for each of them, through the same consumer and pushes as every game."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from test_consumers import is_html, make_user, receive_until, session_cookie, socket

from games.models import Game
from games.play import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def cathedral_game() -> Game:
    ann, bob = make_user("ann"), make_user("bob")
    settings = services.GameSettings(kind="cathedral", first="me")
    game = services.accept_game(services.create_game(ann, settings), bob)
    return Game.objects.select_related("seat0", "seat1").get(pk=game.pk)


async def test_a_placement_is_pushed_to_the_opponent_and_a_spectator():
    game = await database_sync_to_async(cathedral_game)()
    carl = await database_sync_to_async(make_user)("carl")
    bob_socket = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    carl_socket = socket(game.pk, await database_sync_to_async(session_cookie)(carl))
    assert (await bob_socket.connect())[0]
    assert (await carl_socket.connect())[0]
    cathedral = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}
    await database_sync_to_async(services.submit_action)(game, game.seat0, cathedral, 0)

    def pushed(message: str) -> bool:
        return is_html(message) and 'data-seq="1"' in message

    for communicator, prompt in ((bob_socket, "choose one of your buildings"), (carl_socket, "")):
        message = await receive_until(communicator, pushed)
        assert message.count("cell cathedral-piece") == 6
        assert "ann (Light) placed the Cathedral on D4" in message
        assert 'id="hands"' in message
        if prompt:
            assert prompt in message  # bob (Dark) moves next
        else:
            assert "You are watching this game" in message
        await communicator.disconnect()

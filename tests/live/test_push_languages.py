"""Spectators of one game in two languages: each socket is pushed the move in the language its
page was asked for (the browser's Accept-Language, or the language cookie), and a player's push
in the language of their account."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from test_consumers import is_html, make_user, receive_until, session_cookie

from basilica_site.asgi import application
from games.engine import cathedral as engine
from games.models import Game, PlayerSettings
from games.play import services, states

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def cathedral_game() -> Game:
    ann, bob = make_user("ann"), make_user("bob")
    PlayerSettings.objects.create(user=bob, language="pl")
    game = services.create_game(ann, services.GameSettings(kind="cathedral", first="me"))
    game = services.accept_game(game, bob)
    return Game.objects.select_related("seat0", "seat1").get(pk=game.pk)


def spectator(game_id: int, header: tuple[bytes, bytes], address: str) -> WebsocketCommunicator:
    async def from_address(scope, receive, send):
        return await application({**scope, "client": [address, 50000]}, receive, send)

    return WebsocketCommunicator(from_address, f"/ws/games/{game_id}/", headers=[*ORIGIN, header])


def first_placement(game: Game) -> None:
    state = states.load_state(game)
    mover = game.seat0 if state.to_decide == 0 else game.seat1
    services.submit_action(game, mover, engine.legal_actions(state)[0].to_json(), 0)


async def test_two_spectators_and_a_player_each_read_the_move_in_their_language():
    game = await database_sync_to_async(cathedral_game)()
    french = spectator(game.pk, (b"accept-language", b"fr-FR,fr;q=0.9,en;q=0.5"), "203.0.113.7")
    polish = spectator(game.pk, (b"cookie", b"django_language=pl"), "203.0.113.8")
    cookie = await database_sync_to_async(session_cookie)(game.seat1)
    bob = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[*ORIGIN, (b"cookie", cookie)]
    )
    for socket in (french, polish, bob):
        assert (await socket.connect())[0]

    await database_sync_to_async(first_placement)(game)

    seen_in_french = await receive_until(french, is_html)
    seen_in_polish = await receive_until(polish, is_html)
    bobs = await receive_until(bob, is_html)
    assert "a placé la Cathédrale en A1\u2013C4" in seen_in_french
    assert "Vous regardez cette partie" in seen_in_french
    assert "stawia Katedrę na A1\u2013C4" in seen_in_polish
    assert "Oglądasz tę partię" in seen_in_polish
    assert "stawia Katedrę na A1\u2013C4" in bobs  # his account speaks Polish
    assert "Oglądasz" not in bobs
    assert "Cathédrale" not in bobs
    for words in (seen_in_french, seen_in_polish):
        assert 'method="post"' not in words
    for socket in (french, polish, bob):
        await socket.disconnect()

"""The game socket against a crowd and against a script: a hundred watchers share one rendering
of each move; a socket that talks, floods or comes from another site is shut out."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from test_consumers import first_move, is_html, make_user, session_cookie, socket, started_game

from basilica_site.asgi import application
from games.engine import basilica as engine
from games.live import pushes
from games.live.consumers import CLOSE_TALKED, CLOSE_TOO_MANY
from games.play import services, states

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def watcher_of(game, name: str) -> WebsocketCommunicator:
    user = await database_sync_to_async(make_user)(name)
    communicator = socket(game.pk, await database_sync_to_async(session_cookie)(user))
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def next_push(communicator) -> str:
    while True:
        message = await communicator.receive_from(timeout=10)
        if is_html(message):
            return message


async def closed_with(communicator) -> int | None:
    """The close code once the server closes the socket (other messages are skipped)."""
    for _ in range(20):
        output = await communicator.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            return output.get("code")
    return None


async def test_a_socket_that_sends_anything_is_closed():
    game = await database_sync_to_async(started_game)()
    carl = await watcher_of(game, "carl")
    await carl.send_to(text_data='{"type": "move", "action": "anything"}')
    assert await closed_with(carl) == CLOSE_TALKED
    await carl.disconnect()


async def test_a_flooding_socket_is_closed_and_the_game_goes_on_for_the_others():
    game = await database_sync_to_async(started_game)()
    carl, dora = await watcher_of(game, "carl"), await watcher_of(game, "dora")
    for i in range(1000):
        await carl.send_to(text_data=f"flood {i}")
    assert await closed_with(carl) == CLOSE_TALKED
    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)
    assert 'data-seq="1"' in await next_push(dora)
    await dora.disconnect()


@pytest.mark.parametrize("origin", [b"https://evil.example", b"null", None])
async def test_a_socket_opened_from_another_site_is_refused(origin):
    game = await database_sync_to_async(started_game)()
    ann = game.seat0
    headers = [(b"host", b"localhost")]
    if origin:
        headers.append((b"origin", origin))
    headers.append((b"cookie", await database_sync_to_async(session_cookie)(ann)))
    communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    connected, _ = await communicator.connect()
    assert not connected


async def test_one_user_may_hold_only_so_many_sockets():
    game = await database_sync_to_async(started_game)()
    cookie = await database_sync_to_async(session_cookie)(game.seat1)
    tabs = [socket(game.pk, cookie) for _ in range(settings.WEBSOCKETS_PER_USER)]
    for tab in tabs:
        assert (await tab.connect())[0]
    one_too_many = socket(game.pk, cookie)
    assert (await one_too_many.connect())[0]  # only to be told why it closes at once
    assert await closed_with(one_too_many) == CLOSE_TOO_MANY
    await one_too_many.disconnect()
    await tabs[0].disconnect()
    again = socket(game.pk, cookie)
    assert (await again.connect())[0]
    for tab in [*tabs[1:], again]:
        await tab.disconnect()


async def test_a_hundred_spectators_cost_one_rendering_per_move(monkeypatch):
    renderings = []
    render = pushes.render_partials

    def counted(game, user, csrf_token):
        renderings.append(game.seq)
        return render(game, user, csrf_token)

    monkeypatch.setattr(pushes, "render_partials", counted)
    game = await database_sync_to_async(started_game)()
    watchers = [await watcher_of(game, f"watcher{i}") for i in range(100)]

    for seq in (0, 1):
        state = await database_sync_to_async(states.replay_game)(game)
        move = engine.legal_actions(state)[0].to_json()
        game = await database_sync_to_async(services.submit_action)(
            game, game.player(state.to_decide), move, seq
        )
        pushed = await asyncio.gather(*(next_push(w) for w in watchers))
        assert all(f'data-seq="{seq + 1}"' in html for html in pushed)
        assert len(set(pushed)) == 1
    assert renderings == [1, 2]
    for watcher in watchers:
        await watcher.disconnect()


async def test_a_hundred_spectators_cost_one_query_of_the_game_per_move(monkeypatch):
    # The announcement names the version moved to: every watcher but the first finds its
    # rendering without asking the database (or waiting for a worker thread) again.
    trips = []
    render = pushes.render_push

    def counted(game_id, *args, **kwargs):
        trips.append(game_id)
        return render(game_id, *args, **kwargs)

    monkeypatch.setattr(pushes, "render_push", counted)
    game = await database_sync_to_async(started_game)()
    watchers = [await watcher_of(game, f"watcher{i}") for i in range(100)]

    state = await database_sync_to_async(states.replay_game)(game)
    move = engine.legal_actions(state)[0].to_json()
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)
    pushed = await asyncio.gather(*(next_push(w) for w in watchers))
    assert all('data-seq="1"' in html for html in pushed)
    assert trips == [game.pk]
    for watcher in watchers:
        await watcher.disconnect()

"""A socket that talks, breaks or is killed gives its owner's place back: after a hundred of them
in a row, the user and the address that opened them still get in, and no more often than the cap
allows."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from test_consumers import make_user, session_cookie, started_game

from basilica_site.asgi import application
from games.live.consumers import CLOSE_TALKED, CLOSE_TOO_MANY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ADDRESS = "203.0.113.9"
HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.fixture(autouse=True)
def gate_open(settings):
    """What is measured here is the places given back: the gate that refuses a loop of
    misbehaving handshakes (test_socket_gate) is opened, so that every socket reaches its
    consumer."""
    settings.SOCKET_SHUT_OUT_SECONDS = 0
    settings.SOCKET_HANDSHAKES = (10_000, 10)


def as_daphne_serves(app):
    """``app`` behind daphne's end of the socket, as far as a close goes: autobahn lets a server
    close only with 1000 or 3000-4999 and raises in the application's ``send`` otherwise; and
    the client's address is in the scope."""

    async def served(scope, receive, send):
        async def sent(message):
            code = message.get("code") or 1000
            if message["type"] == "websocket.close" and code != 1000 and not 3000 <= code <= 4999:
                raise ValueError(f"invalid close code {code} (must be 1000 or from [3000, 4999])")
            await send(message)

        await app({**scope, "client": [ADDRESS, 50000]}, receive, sent)

    return served


def socket(game_id: int, cookie: bytes | None) -> WebsocketCommunicator:
    headers = [*HEADERS, (b"cookie", cookie)] if cookie else HEADERS
    return WebsocketCommunicator(as_daphne_serves(application), f"/ws/games/{game_id}/", headers)


async def gone(communicator: WebsocketCommunicator) -> None:
    """The client has left: the server tells the application, if it is still there to tell
    (one that raised is only logged)."""
    with contextlib.suppress(Exception):
        await communicator.disconnect(code=1006)


async def talks(communicator: WebsocketCommunicator) -> None:
    await communicator.send_to(text_data='{"type": "move"}')
    with contextlib.suppress(Exception):  # the close, or the error daphne would log
        while (await communicator.receive_output(timeout=3))["type"] != "websocket.close":
            pass
    await gone(communicator)


async def floods(communicator: WebsocketCommunicator) -> None:
    for i in range(50):
        with contextlib.suppress(Exception):
            await communicator.send_to(text_data=f"flood {i}")
    await talks(communicator)


async def is_killed(communicator: WebsocketCommunicator) -> None:
    # Daphne cancels an application that is slow to finish after its client left.
    communicator.future.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await communicator.future


MISBEHAVIOURS = [talks, floods, is_killed, gone]


def layer_fails(monkeypatch):
    """The channel layer (Redis) gone while a socket opens: the consumer raises inside its
    connect, after the place was counted."""

    async def refused(*args, **kwargs):
        raise ConnectionError("the channel layer is unreachable")

    monkeypatch.setattr(get_channel_layer(), "group_send", refused)


async def hundred_breaking_sockets(game_id: int, cookie: bytes | None, monkeypatch) -> None:
    for i in range(100):
        communicator = socket(game_id, cookie)
        if i % 5 == 4:
            with monkeypatch.context() as patched:
                layer_fails(patched)
                with contextlib.suppress(Exception):
                    await communicator.connect()
                await gone(communicator)
            continue
        connected, _ = await communicator.connect()
        assert connected, f"socket {i} was refused"
        await MISBEHAVIOURS[i % 4](communicator)


async def holds_exactly(game_id: int, cookie: bytes | None, places: int) -> None:
    """``places`` more sockets open, and not one more."""
    tabs = [socket(game_id, cookie) for _ in range(places)]
    for tab in tabs:
        assert (await tab.connect())[0]
    one_too_many = socket(game_id, cookie)
    connected, _ = await one_too_many.connect()
    if connected:
        output = await one_too_many.receive_output(timeout=3)
        connected = output["type"] != "websocket.close"
    assert not connected
    await gone(one_too_many)
    for tab in tabs:
        await tab.disconnect()


async def test_a_hundred_broken_sockets_leave_their_user_free_to_watch(monkeypatch):
    game = await database_sync_to_async(started_game)()
    carl = await database_sync_to_async(make_user)("carl")
    cookie = await database_sync_to_async(session_cookie)(carl)
    # A socket that stays open all along: no broken one may give back its place instead of its own.
    steady = socket(game.pk, cookie)
    assert (await steady.connect())[0]
    await hundred_breaking_sockets(game.pk, cookie, monkeypatch)
    await holds_exactly(game.pk, cookie, settings.WEBSOCKETS_PER_USER - 1)
    await steady.disconnect()
    await holds_exactly(game.pk, cookie, settings.WEBSOCKETS_PER_USER)


async def test_a_hundred_broken_sockets_leave_their_address_free_to_watch(monkeypatch):
    game = await database_sync_to_async(started_game)()
    steady = socket(game.pk, None)
    assert (await steady.connect())[0]
    await hundred_breaking_sockets(game.pk, None, monkeypatch)
    await holds_exactly(game.pk, None, settings.WEBSOCKETS_PER_ADDRESS - 1)
    await steady.disconnect()
    await holds_exactly(game.pk, None, settings.WEBSOCKETS_PER_ADDRESS)


async def test_a_socket_that_talks_is_closed_with_a_code_daphne_can_send():
    game = await database_sync_to_async(started_game)()
    communicator = socket(game.pk, None)
    assert (await communicator.connect())[0]
    await communicator.send_to(text_data="hello")
    output = await communicator.receive_output(timeout=3)
    while output["type"] != "websocket.close":
        output = await communicator.receive_output(timeout=3)
    assert 4000 <= output["code"] <= 4999
    assert output["code"] == CLOSE_TALKED
    await communicator.disconnect()


async def test_the_page_knows_why_the_server_closed_it():
    # The page stops and says why after the server's own codes, instead of reconnecting.
    script = (settings.BASE_DIR / "static" / "js" / "game.js").read_text()
    assert f'{{ {CLOSE_TALKED}: "talked", {CLOSE_TOO_MANY}: "tooMany" }}' in script
    for kind in ("basilica", "cathedral"):
        page = (settings.BASE_DIR / "templates" / "games" / kind / "game.html").read_text()
        assert "data-talked=" in page
        assert "data-too-many=" in page

"""The sockets' gate (games.live.gate): a session whose socket talked, or that opens sockets in a
loop, is refused at the handshake for a while; nobody else is."""

from __future__ import annotations

import pytest
import time_machine
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from test_consumers import make_user, session_cookie, socket, started_game

from basilica_site.asgi import application
from games.live.consumers import CLOSE_TALKED
from games.live.gate import CLOSE_WAIT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def opens(communicator: WebsocketCommunicator) -> bool:
    connected, code = await communicator.connect()
    if not connected:
        assert code == CLOSE_WAIT
    return connected


async def talks_and_is_closed(communicator: WebsocketCommunicator) -> None:
    await communicator.send_to(text_data='{"chat": "spam"}')
    while (output := await communicator.receive_output(timeout=3))["type"] != "websocket.close":
        pass
    assert output["code"] == CLOSE_TALKED
    await communicator.disconnect()


async def test_a_session_whose_socket_talked_is_refused_until_its_wait_is_over(settings):
    game = await database_sync_to_async(started_game)()
    carl = await database_sync_to_async(make_user)("carl")
    dora = await database_sync_to_async(make_user)("dora")
    script = await database_sync_to_async(session_cookie)(carl)
    with time_machine.travel("2026-03-02 10:00:00", tick=False) as clock:
        first = socket(game.pk, script)
        assert await opens(first)
        await talks_and_is_closed(first)
        assert not await opens(socket(game.pk, script))
        # The same player on another device, and another watcher, come in as ever.
        phone = socket(game.pk, await database_sync_to_async(session_cookie)(carl))
        other = socket(game.pk, await database_sync_to_async(session_cookie)(dora))
        assert await opens(phone)
        assert await opens(other)
        await phone.disconnect()
        await other.disconnect()
        clock.shift(settings.SOCKET_SHUT_OUT_SECONDS + 1)
        again = socket(game.pk, script)
        assert await opens(again)
        await again.disconnect()


async def test_a_session_opening_sockets_in_a_loop_is_refused_past_the_limit(settings):
    settings.SOCKET_HANDSHAKES = (3, 10)
    game = await database_sync_to_async(started_game)()
    ann = await database_sync_to_async(session_cookie)(game.seat0)
    with time_machine.travel("2026-03-02 10:00:00", tick=False) as clock:
        for _ in range(3):
            tab = socket(game.pk, ann)
            assert await opens(tab)
            await tab.disconnect()
        assert not await opens(socket(game.pk, ann))
        bob = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
        assert await opens(bob)  # his opponent's loop costs Bob nothing
        await bob.disconnect()
        clock.shift(11)
        tab = socket(game.pk, ann)
        assert await opens(tab)
        await tab.disconnect()


async def test_a_visitor_without_a_session_who_talks_is_closed_and_the_address_stays_open():
    game = await database_sync_to_async(started_game)()
    visitor = socket(game.pk, None)
    assert await opens(visitor)
    await talks_and_is_closed(visitor)
    # The same address may be a school's: its other visitors, and its players, still get in.
    neighbour = socket(game.pk, None)
    assert await opens(neighbour)
    await neighbour.disconnect()
    ann = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat0))
    assert await opens(ann)
    await ann.disconnect()


async def test_a_page_of_another_site_does_not_use_up_a_players_handshakes(settings):
    settings.SOCKET_HANDSHAKES = (3, 10)
    game = await database_sync_to_async(started_game)()
    ann = await database_sync_to_async(session_cookie)(game.seat0)
    headers = [(b"origin", b"https://evil.example"), (b"host", b"localhost"), (b"cookie", ann)]
    for _ in range(5):
        forged = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers)
        assert not (await forged.connect())[0]
    tab = socket(game.pk, ann)
    assert await opens(tab)
    await tab.disconnect()

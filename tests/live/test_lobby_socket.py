"""The lists that follow the site without a timer (``games.live.lobby``): the lobby's socket
hears that its open seeks changed, the watch list's that a public game started, moved or ended,
and a waiting page's game socket that its game began or was cancelled. A notice says which list
changed and nothing more; the page asks the view for the rest."""

from __future__ import annotations

import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from test_consumers import first_move, make_user, session_cookie, socket

from basilica_site.asgi import application
from games.live import lobby, pushes
from games.live.consumers import CLOSE_TALKED, CLOSE_TOO_MANY
from games.models import Game
from games.play import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
SEEKS_CHANGED = {"type": "changed", "list": "seeks"}
NOW_CHANGED = {"type": "changed", "list": "now"}


@pytest.fixture(autouse=True)
def fresh_lists(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Ids and stamps come back after a flushed database: nothing may outlive its test.
    pushes.forget_sockets()
    lobby.forget()
    cache.clear()
    yield
    pushes.forget_sockets()
    lobby.forget()
    cache.clear()


@pytest.fixture
def no_quiet_interval(monkeypatch):
    """Every change told at once, for the stories where bursts are not the point."""
    monkeypatch.setattr(lobby, "EVERY", {lobby.SEEKS: 0.0, lobby.NOW: 0.0})


def list_socket(
    path: str, cookie: bytes | None = None, since: float | str | None = None
) -> WebsocketCommunicator:
    headers = list(HEADERS)
    if cookie:
        headers.append((b"cookie", cookie))
    since = time.time() if since is None else since
    return WebsocketCommunicator(application, f"{path}?since={since}", headers=headers)


async def signed_in(name: str) -> tuple:
    user = await database_sync_to_async(make_user)(name)
    return user, await database_sync_to_async(session_cookie)(user)


async def lobby_of(name: str) -> tuple:
    user, cookie = await signed_in(name)
    page = list_socket("/ws/lobby/", cookie)
    assert (await page.connect())[0]
    return user, page


async def notice(page: WebsocketCommunicator) -> dict:
    return json.loads(await page.receive_from(timeout=3))


def open_seek(user, private: bool = False) -> Game:
    return services.create_game(user, services.GameSettings(first="me", private=private))


# -- the lobby's open seeks ---------------------------------------------------------------------


async def test_a_seek_opened_cancelled_or_accepted_is_told_to_the_lobby(no_quiet_interval):
    ann, anns_lobby = await lobby_of("ann")
    bob, bobs_lobby = await lobby_of("bob")

    seek = await database_sync_to_async(open_seek)(ann)
    assert await notice(bobs_lobby) == SEEKS_CHANGED
    assert await notice(anns_lobby) == SEEKS_CHANGED

    await database_sync_to_async(services.cancel_game)(seek, ann)
    assert await notice(bobs_lobby) == SEEKS_CHANGED

    another = await database_sync_to_async(open_seek)(ann)
    assert await notice(bobs_lobby) == SEEKS_CHANGED
    await database_sync_to_async(services.accept_game)(another, bob)
    assert await notice(bobs_lobby) == SEEKS_CHANGED
    assert await bobs_lobby.receive_nothing(timeout=0.3)
    await anns_lobby.disconnect()
    await bobs_lobby.disconnect()


async def test_a_notice_carries_no_html_and_nothing_of_anyone(no_quiet_interval):
    ann, _ = await signed_in("ann")
    _, bobs_lobby = await lobby_of("bob")

    await database_sync_to_async(open_seek)(ann)
    told = await bobs_lobby.receive_from(timeout=3)

    assert json.loads(told) == SEEKS_CHANGED  # these keys, no others
    assert "<" not in told
    assert "ann" not in told
    assert "csrf" not in told.lower()
    await bobs_lobby.disconnect()


async def test_a_private_invitation_is_not_told_to_the_lobby(no_quiet_interval):
    ann, _ = await signed_in("ann")
    bob, bobs_lobby = await lobby_of("bob")

    invitation = await database_sync_to_async(open_seek)(ann, private=True)
    await database_sync_to_async(services.accept_game)(invitation, bob)

    assert await bobs_lobby.receive_nothing(timeout=0.5)
    await bobs_lobby.disconnect()


async def test_a_burst_of_seeks_costs_the_lobby_two_notices_not_one_each():
    ann, _ = await signed_in("ann")
    _, bobs_lobby = await lobby_of("bob")

    for _ in range(5):
        await database_sync_to_async(open_seek)(ann)

    assert await notice(bobs_lobby) == SEEKS_CHANGED  # the first at once
    started = time.monotonic()
    assert await notice(bobs_lobby) == SEEKS_CHANGED  # the rest together, a second later
    assert time.monotonic() - started >= 0.5
    assert await bobs_lobby.receive_nothing(timeout=1.5)
    await bobs_lobby.disconnect()


async def test_a_visitor_who_is_not_signed_in_has_no_lobby_socket():
    # The lobby's page sends them to log in; its socket refuses them before accepting.
    connected, _ = await list_socket("/ws/lobby/").connect()
    assert not connected


async def test_a_lobby_opened_after_a_change_it_missed_is_told_at_once(no_quiet_interval):
    ann, anns_cookie = await signed_in("ann")
    drawn_at = time.time()
    await database_sync_to_async(open_seek)(ann)  # before the page's socket opened

    late = list_socket("/ws/lobby/", anns_cookie, since=drawn_at)
    assert (await late.connect())[0]
    assert await notice(late) == SEEKS_CHANGED

    fresh = list_socket("/ws/lobby/", anns_cookie)  # drawn after it: nothing to catch up
    assert (await fresh.connect())[0]
    assert await fresh.receive_nothing(timeout=0.3)

    garbled = list_socket("/ws/lobby/", anns_cookie, since="soon")  # asks once, not never
    assert (await garbled.connect())[0]
    assert await notice(garbled) == SEEKS_CHANGED
    for page in (late, fresh, garbled):
        await page.disconnect()


async def test_a_lobby_socket_counts_against_the_owners_sockets(settings):
    settings.WEBSOCKETS_PER_USER = 2
    _, cookie = await signed_in("ann")
    first, second = list_socket("/ws/lobby/", cookie), list_socket("/ws/now/", cookie)
    assert (await first.connect())[0]
    assert (await second.connect())[0]

    one_too_many = list_socket("/ws/lobby/", cookie)
    assert (await one_too_many.connect())[0]  # only to be told why it closes at once
    assert (await one_too_many.receive_output())["code"] == CLOSE_TOO_MANY
    await one_too_many.disconnect()

    await first.disconnect()
    again = list_socket("/ws/lobby/", cookie)
    assert (await again.connect())[0]  # a closed socket gives its place back
    await again.disconnect()
    await second.disconnect()


async def test_a_lobby_socket_that_talks_is_closed():
    _, page = await lobby_of("ann")
    await page.send_to(text_data="hello")
    assert (await page.receive_output())["code"] == CLOSE_TALKED
    await page.disconnect()


# -- the games being played now -----------------------------------------------------------------


def public_game_started(private: bool = False) -> Game:
    ann, bob = make_user("ann"), make_user("bob")
    game = open_seek(ann, private=private)
    return Game.objects.select_related("seat0", "seat1").get(pk=services.accept_game(game, bob).pk)


async def test_anyone_hears_that_a_public_game_started_or_moved(no_quiet_interval):
    watcher = list_socket("/ws/now/")  # not signed in: the watch list is anyone's
    assert (await watcher.connect())[0]

    game = await database_sync_to_async(public_game_started)()
    assert await notice(watcher) == NOW_CHANGED

    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)
    assert await notice(watcher) == NOW_CHANGED

    await database_sync_to_async(services.resign)(game, game.seat1)
    assert await notice(watcher) == NOW_CHANGED
    await watcher.disconnect()


async def test_a_private_game_is_never_told_to_the_watch_list(no_quiet_interval):
    watcher = list_socket("/ws/now/")
    assert (await watcher.connect())[0]

    game = await database_sync_to_async(public_game_started)(private=True)
    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)

    assert await watcher.receive_nothing(timeout=0.5)
    await watcher.disconnect()


async def test_the_watch_list_hears_a_busy_site_every_few_seconds_at_most(monkeypatch):
    monkeypatch.setattr(lobby, "EVERY", {lobby.SEEKS: 1.0, lobby.NOW: 1.0})
    watcher = list_socket("/ws/now/")
    assert (await watcher.connect())[0]
    game = await database_sync_to_async(public_game_started)()
    assert await notice(watcher) == NOW_CHANGED

    for _ in range(3):  # moves in the quiet second after that notice
        await database_sync_to_async(lobby.on_game_changed)(game)
    assert await notice(watcher) == NOW_CHANGED
    assert await watcher.receive_nothing(timeout=1.5)
    await watcher.disconnect()


# -- a game waiting for its opponent ------------------------------------------------------------


async def status_told(page: WebsocketCommunicator) -> str:
    told = await page.receive_from(timeout=3)
    assert not told.startswith("<"), "a waiting page is sent no board"
    return json.loads(told)["status"]


async def test_the_waiting_page_hears_that_its_seek_was_accepted():
    ann, anns_cookie = await signed_in("ann")
    bob = await database_sync_to_async(make_user)("bob")
    seek = await database_sync_to_async(open_seek)(ann)
    waiting = socket(seek.pk, anns_cookie)
    assert (await waiting.connect())[0]
    assert await status_told(waiting) == "open"

    await database_sync_to_async(services.accept_game)(seek, bob)

    assert await status_told(waiting) == "active"
    assert await waiting.receive_nothing(timeout=0.5)  # no board, no presence
    await waiting.disconnect()


async def test_the_waiting_page_hears_that_its_seek_was_cancelled():
    ann, anns_cookie = await signed_in("ann")
    seek = await database_sync_to_async(open_seek)(ann)
    waiting = socket(seek.pk, anns_cookie)  # another tab of the player who cancels
    assert (await waiting.connect())[0]
    assert await status_told(waiting) == "open"

    await database_sync_to_async(services.cancel_game)(seek, ann)

    assert await status_told(waiting) == "cancelled"
    await waiting.disconnect()


async def test_a_game_accepted_before_its_waiting_socket_opened_is_told_at_once():
    ann, anns_cookie = await signed_in("ann")
    bob = await database_sync_to_async(make_user)("bob")
    seek = await database_sync_to_async(open_seek)(ann)
    await database_sync_to_async(services.accept_game)(seek, bob)  # while the page loaded

    late = socket(seek.pk, anns_cookie)
    assert (await late.connect())[0]
    assert '"status": "active"' in await late.receive_from(timeout=3)
    await late.disconnect()


async def test_a_stranger_has_no_socket_on_a_private_invitation():
    ann, _ = await signed_in("ann")
    _, carls_cookie = await signed_in("carl")
    invitation = await database_sync_to_async(open_seek)(ann, private=True)

    connected, _ = await socket(invitation.pk, carls_cookie).connect()
    assert not connected  # as its page answers them 404


async def test_a_notice_due_on_a_loop_that_closed_does_not_silence_the_list(monkeypatch):
    # A burst's last notice was due on an event loop that went away (a server shutting down):
    # the next change is told all the same.
    monkeypatch.setattr(lobby, "EVERY", {lobby.SEEKS: 1.0, lobby.NOW: 1.0})
    monkeypatch.setitem(lobby._due_at, lobby.SEEKS, time.monotonic() - 5)
    ann, _ = await signed_in("ann")
    _, bobs_lobby = await lobby_of("bob")

    await database_sync_to_async(open_seek)(ann)

    assert await notice(bobs_lobby) == SEEKS_CHANGED
    await bobs_lobby.disconnect()

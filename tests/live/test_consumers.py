"""The game's websocket, spoken to as a browser would: session cookie, origin, then pushes."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from basilica_site.asgi import application
from games.engine import basilica as engine
from games.live.announce import group_name
from games.models import Game
from games.play import services, states

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def make_user(name: str) -> User:
    return User.objects.create_user(name, f"{name}@example.com", "a long enough password 1")


def session_cookie(user: User) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}; csrftoken=abc".encode()


def started_game(private: bool = False, edition: str = "2022") -> Game:
    ann, bob = make_user("ann"), make_user("bob")
    game = services.create_game(
        ann, services.GameSettings(options={"edition": edition}, first="me", private=private)
    )
    # Loaded with its players, so async tests never touch the database lazily.
    return Game.objects.select_related("seat0", "seat1").get(pk=services.accept_game(game, bob).pk)


def socket(game_id: int, cookie: bytes | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie))
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


async def receive_until(communicator, predicate, limit=10):
    for _ in range(limit):
        message = await communicator.receive_from(timeout=3)
        if predicate(message):
            return message
    raise AssertionError("the expected message never came")


def is_html(message: str) -> bool:
    return not message.startswith("{")


def first_move(game: Game) -> dict:
    state = states.load_state(game)
    return engine.legal_actions(state)[0].to_json()


async def test_a_visitor_without_a_session_may_not_watch_a_private_game():
    game = await database_sync_to_async(started_game)(private=True)
    connected, _ = await socket(game.pk, None).connect()
    assert not connected


async def test_a_stranger_may_not_watch_a_private_game():
    game = await database_sync_to_async(started_game)(private=True)
    carl = await database_sync_to_async(make_user)("carl")
    cookie = await database_sync_to_async(session_cookie)(carl)
    connected, _ = await socket(game.pk, cookie).connect()
    assert not connected


async def test_a_logged_in_spectator_may_watch_a_public_game():
    game = await database_sync_to_async(started_game)()
    carl = await database_sync_to_async(make_user)("carl")
    communicator = socket(game.pk, await database_sync_to_async(session_cookie)(carl))
    connected, _ = await communicator.connect()
    assert connected
    hello = json.loads(await communicator.receive_from())
    assert hello == {"type": "seq", "seq": 0, "status": "active"}
    await communicator.disconnect()


async def test_a_move_is_pushed_to_the_opponent_and_the_spectator_with_its_seq():
    game = await database_sync_to_async(started_game)()
    ann, bob = game.seat0, game.seat1
    carl = await database_sync_to_async(make_user)("carl")
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(bob))
    carls = socket(game.pk, await database_sync_to_async(session_cookie)(carl))
    assert (await bobs.connect())[0]
    assert (await carls.connect())[0]

    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, ann, move, 0)

    for viewer in (bobs, carls):
        html = await receive_until(viewer, is_html)
        for partial in ("status", "market", "board", "log"):
            assert f'id="{partial}"' in html
        assert 'hx-swap-oob="true"' in html
        assert 'data-seq="1"' in html
    await bobs.disconnect()
    await carls.disconnect()


async def test_each_viewer_gets_the_choices_open_to_them_and_nobody_elses():
    game = await database_sync_to_async(started_game)()
    ann, bob = game.seat0, game.seat1
    anns = socket(game.pk, await database_sync_to_async(session_cookie)(ann))
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(bob))
    assert (await anns.connect())[0]
    assert (await bobs.connect())[0]

    # Ann plays until her turn ends (a follow-up such as a second scaffold costs no action).
    for seq in range(12):
        fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
        state = await database_sync_to_async(states.load_state)(fresh)
        if state.to_decide != 0:
            break
        move = engine.legal_actions(state)[-1].to_json()
        await database_sync_to_async(services.submit_action)(fresh, ann, move, seq)
    fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    state = await database_sync_to_async(states.load_state)(fresh)
    assert state.to_decide == 1
    seq_mark = f'data-seq="{fresh.seq}"'

    bob_html = await receive_until(bobs, lambda m: is_html(m) and seq_mark in m)
    assert 'class="prompt"' in bob_html
    assert "choosable" in bob_html or "target" in bob_html
    # Ann's own moves: the answer to her request drew her page; her socket only hears the seq.
    notice = await receive_until(anns, lambda m: f'"seq": {fresh.seq}' in m, limit=40)
    assert not is_html(notice)
    assert '"yours": true' in notice

    # Bob's first action reaches Ann drawn for her: he still decides, so no choices for her.
    move = engine.legal_actions(state)[0].to_json()
    await database_sync_to_async(services.submit_action)(fresh, bob, move, fresh.seq)
    fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert (await database_sync_to_async(states.load_state)(fresh)).to_decide == 1
    seq_mark = f'data-seq="{fresh.seq}"'
    ann_html = await receive_until(anns, lambda m: is_html(m) and seq_mark in m, limit=40)
    assert 'class="prompt"' not in ann_html
    assert "choosable" not in ann_html
    await anns.disconnect()
    await bobs.disconnect()


async def test_no_push_carries_the_stack_below_its_top_or_the_seed():
    game = await database_sync_to_async(started_game)()
    ann, bob = game.seat0, game.seat1
    carl = await database_sync_to_async(make_user)("carl")
    viewers = [
        socket(game.pk, await database_sync_to_async(session_cookie)(user)) for user in (bob, carl)
    ]
    for viewer in viewers:
        assert (await viewer.connect())[0]
    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, ann, move, 0)
    fresh = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    state = await database_sync_to_async(states.load_state)(fresh)
    hidden_ids = set(state.stack[:-1])  # the top lies order side up for everyone to see
    for viewer in viewers:
        html = await receive_until(viewer, is_html)
        assert str(fresh.seed) not in html
        shown_ids = {int(i) for i in re.findall(r'data-tile="(\d+)"', html)}
        assert shown_ids, "the market's tiles are on the page"
        assert not shown_ids & hidden_ids
        assert state.stack[-1] in shown_ids
        await viewer.disconnect()


async def test_the_opponent_is_told_when_the_other_player_arrives():
    game = await database_sync_to_async(started_game)()
    anns = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat0))
    assert (await anns.connect())[0]
    away = await receive_until(anns, lambda m: '"presence"' in m)
    assert "away" in away
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    here = await receive_until(anns, lambda m: '"presence"' in m and "is here" in m)
    assert json.loads(here)["opponent"] is True
    await bobs.disconnect()
    gone = await receive_until(anns, lambda m: '"presence"' in m)
    assert "away" in gone
    await anns.disconnect()


async def test_the_player_who_offered_a_rematch_is_pushed_its_link_when_it_is_accepted():
    game = await database_sync_to_async(started_game)()
    ann, bob = game.seat0, game.seat1
    await database_sync_to_async(services.resign)(game, bob)
    anns = socket(game.pk, await database_sync_to_async(session_cookie)(ann))
    assert (await anns.connect())[0]
    await database_sync_to_async(services.offer_rematch)(game, ann)
    await receive_until(anns, lambda m: is_html(m) and "waiting for your opponent" in m)

    rematch = await database_sync_to_async(services.answer_rematch)(game, bob, accept=True)

    link = f'href="{rematch.get_absolute_url()}"'
    html = await receive_until(anns, lambda m: is_html(m) and link in m)
    assert "waiting for your opponent" not in html
    await anns.disconnect()


async def test_a_page_open_longer_than_the_layer_remembers_its_group_still_hears_moves(settings):
    """A channel layer forgets a group's member after ``group_expiry`` (a day), and a
    correspondence player may keep a game's page open for days: their socket joins again while
    it lives. Here the layer forgets after 2 s, and Bob's page waits 3.5 s for Ann's move."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"group_expiry": 2},
        }
    }
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    await receive_until(bobs, lambda m: json.loads(m).get("type") == "seq")
    await asyncio.sleep(3.5)

    move = await database_sync_to_async(first_move)(game)
    await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)
    assert 'data-seq="1"' in await receive_until(bobs, is_html)
    await bobs.disconnect()
    await asyncio.sleep(1)  # two of its rounds of joining again, had they gone on
    assert not get_channel_layer().groups.get(group_name(game.pk))  # left, and not joined again

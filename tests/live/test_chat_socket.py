"""The chat over the game's socket: each message reaches the pages that may read it, drawn in
their reader's language, and no other."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import override_settings

from games.community import chat, moderation
from games.live import chat as live_chat
from games.models import PlayerSettings, Report
from games.play import services
from tests.live.test_consumers import make_user, session_cookie, socket, started_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def joined(game, user):
    """A page's socket, open and past its greeting (the seq and the presence notices)."""
    communicator = socket(game.pk, await database_sync_to_async(session_cookie)(user))
    assert (await communicator.connect())[0]
    return communicator


async def chat_lines(communicator, wait: float = 1.0) -> list[str]:
    """Every chat push this page receives within ``wait`` seconds."""
    lines = []
    while not await communicator.receive_nothing(timeout=wait):
        message = await communicator.receive_from()
        if not message.startswith("{") and "chat-line" in message:
            lines.append(message)
    return lines


async def test_a_players_message_goes_to_the_opponent_and_never_to_a_spectator():
    game = await database_sync_to_async(started_game)()
    carl = await database_sync_to_async(make_user)("carl")
    anns, bobs, carls = [await joined(game, u) for u in (game.seat0, game.seat1, carl)]

    await database_sync_to_async(chat.post)(game, game.seat0, "players", "<i>hi</i> Bob")

    to_bob = await chat_lines(bobs)
    assert len(to_bob) == 1
    assert 'hx-swap-oob="beforeend:#chat-players-lines"' in to_bob[0]
    assert "&lt;i&gt;hi&lt;/i&gt; Bob" in to_bob[0]
    assert 'data-mine="0"' in to_bob[0]
    assert 'data-seq="' not in to_bob[0]  # never mistaken for a move's push
    to_ann = await chat_lines(anns)
    assert len(to_ann) == 1  # her other tabs hear of it too
    assert 'data-mine="1"' in to_ann[0]
    assert await chat_lines(carls) == []
    for communicator in (anns, bobs, carls):
        await communicator.disconnect()


async def test_a_spectators_message_goes_to_spectators_and_to_no_player_during_the_game():
    game = await database_sync_to_async(started_game)()
    carl, dora = [await database_sync_to_async(make_user)(n) for n in ("carl", "dora")]
    anns, bobs, doras = [await joined(game, u) for u in (game.seat0, game.seat1, dora)]

    await database_sync_to_async(chat.post)(game, carl, "spectators", "Ann wins this")

    to_dora = await chat_lines(doras)
    assert len(to_dora) == 1
    assert "#chat-spectators-lines" in to_dora[0]
    assert "Ann wins this" in to_dora[0]
    assert await chat_lines(anns) == []
    assert await chat_lines(bobs) == []

    await database_sync_to_async(services.resign)(game, game.seat1)
    await database_sync_to_async(chat.post)(game, carl, "spectators", "told you")
    after = [m for m in await chat_lines(anns, wait=2) if "told you" in m]
    assert len(after) == 1  # once the game is over, its players read the watchers
    for communicator in (anns, bobs, doras):
        await communicator.disconnect()


async def test_a_quick_message_is_pushed_in_each_readers_language():
    game = await database_sync_to_async(started_game)()
    await database_sync_to_async(PlayerSettings.objects.update_or_create)(
        user=game.seat1, defaults={"language": "pl"}
    )
    bobs = await joined(game, game.seat1)
    await database_sync_to_async(chat.post)(game, game.seat0, "players", quick="well_played")
    (line,) = await chat_lines(bobs)

    def polish() -> str:
        from django.utils import translation
        from django.utils.translation import pgettext

        with translation.override("pl"):
            return pgettext("quick chat", "Well played")

    assert f'<span class="chat-text quick">{polish()}</span>' in line
    await bobs.disconnect()


@override_settings(CHAT_HIDDEN_WORDS=["potato"])
async def test_a_held_message_is_pushed_to_its_author_alone():
    game = await database_sync_to_async(started_game)()
    anns, bobs = [await joined(game, u) for u in (game.seat0, game.seat1)]
    await database_sync_to_async(chat.post)(game, game.seat0, "players", "potato head")
    (mine,) = await chat_lines(anns)
    assert "waiting for a moderator" in mine
    assert await chat_lines(bobs) == []
    for communicator in (anns, bobs):
        await communicator.disconnect()


@override_settings(CHAT_HIDDEN_WORDS=["potato"])
async def test_a_held_message_a_moderator_releases_then_reaches_the_opponent():
    game = await database_sync_to_async(started_game)()
    anns, bobs = [await joined(game, u) for u in (game.seat0, game.seat1)]
    await database_sync_to_async(chat.post)(game, game.seat0, "players", "potato head")
    assert len(await chat_lines(anns)) == 1
    assert await chat_lines(bobs) == []

    def release():
        moderator = make_user("mod")
        report = Report.objects.get(message__text="potato head")
        moderation.decide(report, moderator, Report.Outcome.RELEASED, "a vegetable")

    await database_sync_to_async(release)()
    (to_bob,) = await chat_lines(bobs)
    assert "potato head" in to_bob
    assert "waiting for a moderator" not in to_bob
    for communicator in (anns, bobs):
        await communicator.disconnect()


async def test_a_watchers_socket_reads_nothing_for_a_line_of_the_players_room(monkeypatch):
    """A flood in the players' room costs its watchers' sockets nothing: the announcement says
    whose room it is. (The message's read is spied on, not replaced.)"""
    game = await database_sync_to_async(started_game)()
    carl = await database_sync_to_async(make_user)("carl")
    anns, bobs, carls = [await joined(game, u) for u in (game.seat0, game.seat1, carl)]
    read = []
    message_row = live_chat.message_row
    monkeypatch.setattr(
        live_chat, "message_row", lambda *args: read.append(args) or message_row(*args)
    )

    for line in ("one", "two", "three"):
        await database_sync_to_async(chat.post)(game, game.seat0, "players", line)

    assert len(await chat_lines(bobs)) == 3
    assert len(await chat_lines(anns)) == 3
    assert await chat_lines(carls) == []
    assert len(read) == 6  # Ann's and Bob's sockets, each line; Carl's none
    for communicator in (anns, bobs, carls):
        await communicator.disconnect()


async def test_a_player_who_turned_the_chat_off_is_sent_nothing():
    game = await database_sync_to_async(started_game)()
    await database_sync_to_async(chat.turn_chat)(game, game.seat1, False)
    bobs = await joined(game, game.seat1)
    await database_sync_to_async(chat.post)(game, game.seat0, "players", "hello?")
    assert await chat_lines(bobs) == []
    await bobs.disconnect()


async def test_a_page_that_sends_a_message_up_the_socket_is_still_cut_off():
    # Messages are posted over HTTP: a socket flooded by a script closes at its first message.
    game = await database_sync_to_async(started_game)()
    anns = await joined(game, game.seat0)
    await anns.send_to(text_data=json.dumps({"chat": "spam"}))
    while True:
        output = await anns.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4008

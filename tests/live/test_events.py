"""A committed change is told to the site through ``games.events``: the push, the
notifications and the computer's reply each listen, in a stated order, and one that fails
neither undoes the move nor keeps the others from hearing of it."""

from __future__ import annotations

import logging

import pytest
from channels.db import database_sync_to_async
from test_computer_live import game_against_the_computer, human_moves
from test_consumers import first_move, is_html, make_user, session_cookie, socket, started_game

from games.correspondence import notify
from games.models import Game
from games.play import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def messages_until(page, predicate, limit=10) -> list[str]:
    received = []
    for _ in range(limit):
        received.append(await page.receive_from(timeout=3))
        if predicate(received[-1]):
            return received
    raise AssertionError(f"the expected message never came: {received}")


async def test_a_move_lands_and_reaches_the_opponent_when_its_notifications_fail(
    monkeypatch, caplog
):
    def broken(*args, **kwargs):
        raise RuntimeError("the mail queue is down")

    monkeypatch.setattr(notify, "due_after", broken)
    game = await database_sync_to_async(started_game)()
    bobs = socket(game.pk, await database_sync_to_async(session_cookie)(game.seat1))
    assert (await bobs.connect())[0]
    move = await database_sync_to_async(first_move)(game)

    with caplog.at_level(logging.ERROR, logger="games.events"):
        moved = await database_sync_to_async(services.submit_action)(game, game.seat0, move, 0)

    assert moved.seq == 1
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.seq == 1
    assert await database_sync_to_async(stored.actions.count)() == 1
    pushed = await messages_until(bobs, lambda m: is_html(m) and 'data-seq="1"' in m)
    assert 'id="board"' in pushed[-1]
    assert any(
        "schedule_checks failed on game" in r.getMessage() and r.exc_info for r in caplog.records
    )
    await bobs.disconnect()


async def test_the_move_is_pushed_before_the_computer_replies_to_it():
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]

    # The task runner runs at once in tests: the bot replies while her move is being told.
    await database_sync_to_async(human_moves)(game)

    received = await messages_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    hers = [i for i, m in enumerate(received) if not is_html(m) and '"seq": 1' in m]
    assert hers, f"her own move was never told to her page: {received}"
    assert hers[0] < len(received) - 1  # her move first, the bot's reply after it
    await page.disconnect()


async def test_the_computer_still_replies_when_the_notifications_fail(monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the mail queue is down")

    monkeypatch.setattr(notify, "due_after", broken)
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    await database_sync_to_async(human_moves)(game)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert stored.seq == 2  # her move, and the bot's answer

"""The bot's moves reach the human's open game page as pushes, like any opponent's: from the
task runner's own process when the channel layer is shared, and from the web process that
asked for the move when it is the in-memory one (`make run`)."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.db import OperationalError
from test_consumers import is_html, make_user, receive_until, session_cookie, socket

from games import events, tasks
from games.live import watch
from games.models import Game
from games.play import computer, services, states

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def game_against_the_computer(human: User) -> Game:
    settings = services.GameSettings(options={}, first="me", private=True, kind="cathedral")
    game = computer.play_the_computer(human, settings, "greedy")
    return Game.objects.select_related("seat0", "seat1").get(pk=game.pk)


def human_moves(game: Game) -> None:
    game = Game.objects.select_related("seat0", "seat1").get(pk=game.pk)
    action = game.engine.legal_actions(states.load_state(game))[0].to_json()
    services.submit_action(game, game.seat0, action, game.seq)


async def test_the_bots_answer_is_pushed_to_the_humans_page():
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]

    await database_sync_to_async(human_moves)(game)  # the bot answers in the task runner

    pushed = await receive_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    assert "Your turn" in pushed or 'class="prompt"' in pushed
    await page.disconnect()


async def test_on_the_in_memory_layer_the_web_process_pushes_what_the_worker_played(
    monkeypatch, settings
):
    # The worker is another process: its task is only queued here, and its own push is lost.
    queued = []
    monkeypatch.setattr(tasks, "computer_move", lambda *args, **kwargs: queued.append(args))
    monkeypatch.setattr(watch, "pushes_stay_in_process", lambda: True)
    settings.COMPUTER_WATCH_INTERVAL = 0.05
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]

    await database_sync_to_async(human_moves)(game)
    await receive_until(page, lambda m: not is_html(m) and '"seq": 1' in m)  # her own move
    assert queued == [(game.pk, 1)]

    await database_sync_to_async(the_bot_moves_in_the_worker)(monkeypatch, game, 1)
    pushed = await receive_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    assert 'class="prompt"' in pushed  # alice's turn again, on the page without a reload
    await page.disconnect()


def the_bot_moves_in_the_worker(monkeypatch, game: Game, seq: int) -> None:
    with monkeypatch.context() as worker:
        worker.setattr(events, "send", lambda *args, **kwargs: None)  # heard only there
        # The tests' in-memory SQLite refuses a write at once while the watcher's thread reads;
        # the worker's task is retried (tasks.computer_move), and so is it here.
        for attempt in range(20):
            try:
                assert computer.move(game.pk, seq) is not None
                return
            except OperationalError:
                if attempt == 19:
                    raise
                time.sleep(0.05)


async def test_a_bot_move_that_waited_long_in_the_queue_is_still_pushed(monkeypatch, settings):
    monkeypatch.setattr(tasks, "computer_move", lambda *args, **kwargs: None)  # the worker is busy
    monkeypatch.setattr(watch, "pushes_stay_in_process", lambda: True)
    settings.COMPUTER_WATCH_INTERVAL = 0.01
    settings.COMPUTER_WATCH_SECONDS = 0.1  # past this the watcher only looks more slowly
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]
    await database_sync_to_async(human_moves)(game)

    await asyncio.sleep(0.5)  # five times the watcher's patience
    await database_sync_to_async(the_bot_moves_in_the_worker)(monkeypatch, game, 1)
    pushed = await receive_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    assert 'class="prompt"' in pushed
    await page.disconnect()


async def test_opening_the_page_watches_for_a_bot_move_nobody_watched_for(monkeypatch, settings):
    # As after a restart of the web process: the bot's move was asked for, nobody watches.
    monkeypatch.setattr(tasks, "computer_move", lambda *args, **kwargs: None)
    monkeypatch.setattr(watch, "pushes_stay_in_process", lambda: True)
    settings.COMPUTER_WATCH_INTERVAL = 0.02
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    with monkeypatch.context() as restarted:
        restarted.setattr(watch, "watch", lambda game: None)
        await database_sync_to_async(human_moves)(game)

    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]
    await database_sync_to_async(the_bot_moves_in_the_worker)(monkeypatch, game, 1)
    pushed = await receive_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    assert 'class="prompt"' in pushed
    await page.disconnect()


async def test_a_busy_database_does_not_stop_the_watch_for_the_bot_move(monkeypatch, settings):
    # SQLite locks a table while the worker writes the bot's move: one look fails, the next sees.
    monkeypatch.setattr(tasks, "computer_move", lambda *args, **kwargs: None)
    monkeypatch.setattr(watch, "pushes_stay_in_process", lambda: True)
    settings.COMPUTER_WATCH_INTERVAL = 0.02
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    real, failed = watch._look, []

    def locked_once(game_id):
        if game_id == game.pk and not failed:
            failed.append(game_id)
            raise OperationalError("database table is locked: games_game")
        return real(game_id)

    monkeypatch.setattr(watch, "_look", locked_once)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]
    await database_sync_to_async(human_moves)(game)
    await database_sync_to_async(the_bot_moves_in_the_worker)(monkeypatch, game, 1)

    pushed = await receive_until(page, lambda m: is_html(m) and 'data-seq="2"' in m)
    assert 'class="prompt"' in pushed
    assert failed == [game.pk]
    await page.disconnect()


async def test_the_humans_page_does_not_call_the_computer_away():
    alice = await database_sync_to_async(make_user)("alice")
    game = await database_sync_to_async(game_against_the_computer)(alice)
    page = socket(game.pk, await database_sync_to_async(session_cookie)(alice))
    assert (await page.connect())[0]

    presence = await receive_until(page, lambda m: '"presence"' in m)

    assert "away" not in presence
    assert "computer" in presence
    await page.disconnect()

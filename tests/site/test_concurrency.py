"""Two submissions of the same move at the same moment: exactly one lands. A player's chat lines
posted at the same moment pass no faster than their bucket allows.

The threads work on a file copy of the test database. The in-memory test database is shared
between connections through SQLite's shared cache, whose table locks fail at once ("database
table is locked") instead of waiting as the site's own file database does with its IMMEDIATE
transactions and timeout; the copy behaves as the site does.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from functools import partial

import pytest
from asgiref.sync import SyncToAsync
from django.db import connection, connections
from django.urls import reverse
from factories import client_for, first_legal, make_user, started_game

from games.models import Action, ChatMessage, Game
from games.play import services

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def threads_on_a_file_copy(directory):
    """New connections (one per thread) open a copy of the database as it is now."""
    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        yield  # a real database file or server: the threads share it as it is
        return
    connection.ensure_connection()
    with sqlite3.connect(directory / "db.sqlite3") as copy:
        connection.connection.backup(copy)
    database = connections.settings["default"]
    in_memory, database["NAME"] = database["NAME"], str(directory / "db.sqlite3")
    asgiref_thread_connections_forgotten()  # it opens the copy too
    try:
        yield
    finally:
        asgiref_thread_connections_forgotten()  # closed while Django still knows it for a file
        database["NAME"] = in_memory


def asgiref_thread_connections_forgotten() -> None:
    """asgiref's one thread for ``sync_to_async`` work (channels' ``database_sync_to_async``
    too) outlives every test, and its connections with it: they are closed (an in-memory
    database's close is ignored) and forgotten, so that its next query opens the database named
    now, not the one it last had."""

    def forget() -> None:
        for alias in connections:
            connections[alias].close()
            del connections[alias]

    SyncToAsync.single_thread_executor.submit(forget).result(timeout=10)


def in_threads(*calls) -> list[object]:
    """Run the calls at the same moment, each in its own thread with its own connection."""
    start = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(i, call):
        try:
            start.wait()
            outcomes[i] = call()
        except Exception as error:
            outcomes[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


def test_two_submissions_of_the_same_seq_land_exactly_once(tmp_path):
    game = started_game()
    move = first_legal(game)

    def submit():
        return services.submit_action(game, game.seat0, move, 0)

    with threads_on_a_file_copy(tmp_path):
        outcomes = in_threads(submit, submit)
        [(seq, logged)] = in_threads(lambda: (Game.objects.get().seq, list(Action.objects.all())))

    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0], services.StaleMove)
    assert seq == 1
    assert [(a.seq, a.data) for a in logged] == [(1, move)]


def test_the_same_move_posted_from_two_tabs_lands_once_and_the_other_tab_gets_409(tmp_path):
    game = started_game()
    form = {"action": json.dumps(first_legal(game)), "seq": 0}
    tabs = [client_for(game.seat0), client_for(game.seat0)]
    url = reverse("games:act", args=[game.pk])

    with threads_on_a_file_copy(tmp_path):
        responses = in_threads(
            *[partial(tab.post, url, form, HTTP_HX_REQUEST="true") for tab in tabs]
        )
        [count] = in_threads(Action.objects.count)

    assert sorted(r.status_code for r in responses) == [200, 409]
    assert count == 1


def test_a_players_lines_posted_at_the_same_moment_pass_no_faster_than_their_bucket(
    tmp_path, settings
):
    """Told apart on PostgreSQL (``make test`` runs this file there too): on SQLite the posts'
    transactions already take turns, each whole."""
    settings.CHAT_BURST, settings.CHAT_EVERY_SECONDS = 3, 60
    game = started_game(make_user("ann"), make_user("bob"))
    url = reverse("games:chat", args=[game.pk])
    tabs = [client_for(game.seat0) for _ in range(8)]  # eight tabs of Ann's, posting together

    def post(tab):
        return tab.post(url, {"room": "players", "text": "hi"}, HTTP_HX_REQUEST="true").status_code

    with threads_on_a_file_copy(tmp_path):
        answers = in_threads(*(partial(post, tab) for tab in tabs))
        [said] = in_threads(lambda: ChatMessage.objects.filter(author=game.seat0).count())
    assert answers.count(200) == 3, answers  # the others told why nothing was sent, or to wait
    assert said == 3

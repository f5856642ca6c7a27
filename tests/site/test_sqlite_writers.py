"""The embedded default's writers in one process take turns on a lock (basilica_site/sqlite):
a move that comes while a chat line is being written waits for that line's commit, and goes on
the moment it is made, instead of sleeping in SQLite's busy handler.

Each test opens its own database file with two connections, as two threads of one server do;
the second connection's SQLite refuses at once to wait for the write lock (``busy_timeout`` 0),
so a writer that reached SQLite while the other held the lock would fail there."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.db import OperationalError
from django.db.utils import ConnectionHandler


@pytest.fixture
def database(tmp_path, django_db_blocker):
    """Not the tests' database: a file of this test's own, on connections of its own."""
    handler = ConnectionHandler(
        {
            "default": {
                "ENGINE": "basilica_site.sqlite",
                "NAME": str(tmp_path / "writers.sqlite3"),
                "OPTIONS": {"timeout": 5, "transaction_mode": "IMMEDIATE"},
            }
        }
    )
    with django_db_blocker.unblock():
        setup = handler["default"]
        with setup.cursor() as cursor:
            cursor.execute("CREATE TABLE line (text TEXT)")
        setup.close()
        yield handler
        handler.close_all()


def impatient(connection):
    """``connection``, opened, with SQLite told never to wait for another writer's lock."""
    connection.ensure_connection()
    connection.connection.execute("PRAGMA busy_timeout = 0")
    return connection


def write(connection, text: str, then=None) -> None:
    connection._start_transaction_under_autocommit()
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO line VALUES (%s)", [text])
    if then is not None:
        then()
    connection.commit()


def lines(handler) -> list[str]:
    with handler["default"].cursor() as cursor:
        cursor.execute("SELECT text FROM line ORDER BY rowid")
        return [row[0] for row in cursor.fetchall()]


def in_a_thread(handler, work) -> threading.Thread:
    def run():
        try:
            work(handler["default"])
        finally:
            handler["default"].close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_writer_waits_for_the_other_s_commit_and_then_writes(database):
    line_begun, let_it_commit = threading.Event(), threading.Event()
    failures = []

    def chat_line(connection):
        write(connection, "a chat line", then=lambda: (line_begun.set(), let_it_commit.wait(5)))

    def move(connection):
        impatient(connection)
        line_begun.wait(5)
        try:
            write(connection, "a move")
        except OperationalError as error:
            failures.append(error)

    writers = [in_a_thread(database, chat_line), in_a_thread(database, move)]
    line_begun.wait(5)
    threading.Timer(0.2, let_it_commit.set).start()  # the move is waiting meanwhile
    for thread in writers:
        thread.join(10)
    assert failures == []
    assert lines(database) == ["a chat line", "a move"]


def test_a_transaction_rolled_back_lets_the_next_writer_in(database):
    first = database["default"]
    write_failed = False
    first._start_transaction_under_autocommit()
    try:
        with first.cursor() as cursor:
            cursor.execute("INSERT INTO line VALUES (%s)", ["never kept"])
            cursor.execute("INSERT INTO nowhere VALUES (1)")
    except OperationalError:
        write_failed = True
        first.rollback()
    assert write_failed
    done = []
    thread = in_a_thread(database, lambda c: (write(impatient(c), "after it"), done.append(1)))
    thread.join(10)
    assert done == [1]
    assert lines(database) == ["after it"]


def test_a_writer_kept_waiting_past_the_timeout_fails_as_sqlite_would(database):
    holder = database["default"]
    holder._start_transaction_under_autocommit()
    failures = []

    def late(connection):
        connection.settings_dict["OPTIONS"]["timeout"] = 0.1
        try:
            write(connection, "too late")
        except OperationalError as error:
            failures.append(str(error))

    in_a_thread(database, late).join(10)
    holder.rollback()
    assert failures == ["database is locked"]
    assert lines(database) == []


def test_without_the_turns_sqlite_itself_refuses_the_impatient_writer(tmp_path):
    """What the first test would meet without the lock: the check that it can fail."""
    path = tmp_path / "plain.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE line (text TEXT)")
    holder.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        other.execute("BEGIN IMMEDIATE")
    holder.execute("ROLLBACK")

"""The embedded default's writers in one process take turns on a lock (basilica_site/sqlite):
a move that comes while a chat line is being written waits for that line's commit, and goes on
the moment it is made, instead of sleeping in SQLite's busy handler.

Each test opens its own database file with two connections, as two threads of one server do;
the second connection's SQLite refuses at once to wait for the write lock (``busy_timeout`` 0),
so a writer that reached SQLite while the other held the lock would fail there."""

from __future__ import annotations

import sqlite3
import threading
import time

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
                "OPTIONS": {"timeout": 1, "transaction_mode": "IMMEDIATE"},
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
    """One line written in a transaction, as Django's ``atomic`` opens and closes one."""
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO line VALUES (%s)", [text])
    if then is not None:
        then()
    connection.commit()
    connection.set_autocommit(True)


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
    line_begun, move_trying, let_it_commit = (threading.Event() for _ in range(3))
    failures, done = [], []

    def chat_line(connection):
        write(connection, "a chat line", then=lambda: (line_begun.set(), let_it_commit.wait(5)))
        done.append("the line committed")

    def move(connection):
        impatient(connection)
        line_begun.wait(5)
        move_trying.set()
        try:
            write(connection, "a move")
            done.append("the move written")
        except OperationalError as error:
            failures.append(error)

    writers = [in_a_thread(database, chat_line), in_a_thread(database, move)]
    move_trying.wait(5)
    time.sleep(0.2)  # the move meanwhile at the lock, not done
    assert done == []
    let_it_commit.set()
    for thread in writers:
        thread.join(10)
    assert failures == []
    assert done == ["the line committed", "the move written"]
    assert lines(database) == ["a chat line", "a move"]


def test_autocommit_turned_on_again_mid_transaction_lets_the_next_writer_in(database):
    """sqlite3 commits what is open when autocommit comes back on, without Django's commit:
    as atomic does after an error it did not roll back."""
    first = database["default"]
    first.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO line VALUES (%s)", ["kept"])
    first.set_autocommit(True)
    failures = []

    def next_writer(connection):
        try:
            write(impatient(connection), "after it")
        except OperationalError as error:
            failures.append(error)

    in_a_thread(database, next_writer).join(10)
    assert failures == []
    assert lines(database) == ["kept", "after it"]


def test_a_transaction_rolled_back_lets_the_next_writer_in(database):
    first = database["default"]
    write_failed = False
    first.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    try:
        with first.cursor() as cursor:
            cursor.execute("INSERT INTO line VALUES (%s)", ["never kept"])
            cursor.execute("INSERT INTO nowhere VALUES (1)")
    except OperationalError:
        write_failed = True
        first.rollback()
        first.set_autocommit(True)
    assert write_failed
    done = []
    thread = in_a_thread(database, lambda c: (write(impatient(c), "after it"), done.append(1)))
    thread.join(10)
    assert done == [1]
    assert lines(database) == ["after it"]


def test_a_writer_kept_waiting_past_the_timeout_fails_as_sqlite_would(database):
    """It waits its timeout (1 s here) for the turn, and is refused as SQLite refuses."""
    holder = database["default"]
    holder.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    failures = []

    def late(connection):
        try:
            write(connection, "too late")
        except OperationalError as error:
            failures.append(str(error))

    in_a_thread(database, late).join(10)
    holder.rollback()
    holder.set_autocommit(True)
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

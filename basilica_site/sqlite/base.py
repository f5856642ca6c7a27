"""Django's SQLite backend, with the writers of one process taking turns on a lock.

The embedded default opens every transaction with ``BEGIN IMMEDIATE`` (settings.py), which takes
SQLite's write lock at once. A second writer that finds it taken is made to wait by SQLite's busy
handler, which does not wake when the lock is let go: it sleeps and tries again, in steps that
grow from 1 ms to 100 ms. One process serves a move in one thread and a chat line in another,
so a move that came a moment after a line slept through steps of 25, 50 and 100 ms, long after
the line had committed: a few such moves were the p99 of `make load`'s chat flood (a quarter of
a second, against 68 ms without the flood).

Here a transaction (Django's ``atomic``) first takes this process's lock for its database file,
which hands the turn to the next writer the moment one commits or rolls back. The lock is held
only while SQLite's own write lock is (from ``BEGIN IMMEDIATE`` to the transaction's end), so it
makes no writer wait that SQLite would not have made wait; a writer waits for it as long as the
configured ``timeout``, then fails as SQLite does ("database is locked"). A single statement
outside a transaction (a plain ``save()``) takes SQLite's lock without this one, for the moment
the statement lasts, and writers in other processes (the task runner's) still meet SQLite's busy
handler.
"""

from __future__ import annotations

import threading

from django.db.backends.sqlite3 import base

_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def _writers_lock(name: str) -> threading.Lock:
    with _locks_lock:
        return _locks.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._writing: threading.Lock | None = None  # this process's lock, while held

    def _start_transaction_under_autocommit(self) -> None:
        self.ensure_connection()  # which reads the transaction mode from the settings
        if self.transaction_mode != "IMMEDIATE" or self._writing is not None:
            return super()._start_transaction_under_autocommit()
        lock = _writers_lock(str(self.settings_dict["NAME"]))
        timeout = self.settings_dict.get("OPTIONS", {}).get("timeout", 5)
        with self.wrap_database_errors:
            if not lock.acquire(timeout=timeout):
                raise base.Database.OperationalError("database is locked")
        self._writing = lock
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._let_go()
            raise

    def _let_go(self) -> None:
        lock, self._writing = self._writing, None
        if lock is not None:
            lock.release()

    def _transaction_over(self) -> bool:
        try:
            return self.connection is None or not self.connection.in_transaction
        except base.Database.ProgrammingError:  # closed
            return True

    def _commit(self):
        try:
            return super()._commit()
        finally:
            if self._transaction_over():  # a commit that failed leaves it open: rolled back next
                self._let_go()

    def _set_autocommit(self, autocommit):
        # Autocommit turned back on commits what is open (sqlite3's isolation_level None), with
        # no call to _commit: after an error that atomic did not roll back, say.
        super()._set_autocommit(autocommit)
        if autocommit and self._transaction_over():
            self._let_go()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._let_go()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._let_go()

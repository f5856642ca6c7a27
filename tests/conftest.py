"""For every test: the task runner runs tasks at once, in the test's own process (huey's
immediate mode, on in-memory storage), instead of queueing them for a worker: the light queue's
and the compute queue's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def tasks_run_at_once():
    from huey.contrib.djhuey import HUEY

    from games.tasks import COMPUTE

    HUEY.immediate = True
    COMPUTE.immediate = True
    return HUEY


@pytest.fixture(autouse=True)
def queues_start_empty(tasks_run_at_once):
    """Nothing one test queued or noted beside a queue (a bot move asked for, a periodic tick
    claimed) is seen by the next."""
    from games.tasks import COMPUTE

    tasks_run_at_once.flush()
    COMPUTE.flush()


@pytest.fixture(autouse=True)
def floods_forgotten():
    """No test starts told to wait because of another's flood (games.community.floods)."""
    from games.community import floods

    floods.forget()


@pytest.fixture(autouse=True)
def async_helpers_connections_closed():
    """An async test's ``sync_to_async`` helpers run in asgiref's one thread for such work, and
    a query there opens that thread's own connection, which nothing closes (a request or a
    consumer's ``database_sync_to_async`` would): on PostgreSQL it stays out of the pool, and
    the test database cannot be dropped at the end while it is open. Closed after each test."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    closing = SyncToAsync.single_thread_executor.submit(connections.close_all)
    try:
        closing.result(timeout=10)
    except TimeoutError:
        pytest.fail("a sync_to_async call of this test still holds asgiref's thread after it")

"""For every test: the task runner runs tasks at once, in the test's own process (huey's
immediate mode, on in-memory storage), instead of queueing them for a worker."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def tasks_run_at_once():
    from huey.contrib.djhuey import HUEY

    HUEY.immediate = True
    return HUEY

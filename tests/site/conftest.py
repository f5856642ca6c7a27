from __future__ import annotations

import pytest
import time_machine
from django.core.cache import cache
from django.utils import translation
from factories import START

from games.play import states


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_state_cache():
    # A rolled-back test gives its game ids back to the next test: a cached state would outlive
    # the game it belonged to.
    states.forget_cached_states()
    yield
    states.forget_cached_states()


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    # The cache outlives a test: one test's sign-ups must not count against the next one's.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def site_language_restored():
    # A request activates its player's language in this thread and leaves it there (a server
    # runs each request in a context of its own): the next test starts in the site's language.
    yield
    translation.deactivate()


@pytest.fixture
def calendar():
    """The site's clock, frozen at START; ``calendar.shift(...)`` lets days go by."""
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller

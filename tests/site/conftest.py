from __future__ import annotations

import pytest
from django.test import Client
from factories import PASSWORD

from games import services


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_state_cache():
    # A rolled-back test gives its game ids back to the next test: a cached state would outlive
    # the game it belonged to.
    services.forget_cached_states()
    yield
    services.forget_cached_states()


def client_for(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client

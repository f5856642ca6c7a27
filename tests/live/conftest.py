"""For every socket test: passwords hashed fast, and no count of open sockets nor rendered push
outliving its test (ids come back after a flushed test database)."""

from __future__ import annotations

import pytest

from games.live import pushes


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_pushes():
    pushes.forget_rendered()
    pushes.forget_sockets()
    yield
    pushes.forget_rendered()
    pushes.forget_sockets()

from __future__ import annotations

import pytest

from games import pushes


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_pushes():
    # Ids come back after a flushed test database: no count or rendering may outlive its test.
    pushes.forget_rendered()
    pushes.forget_sockets()
    yield
    pushes.forget_rendered()
    pushes.forget_sockets()

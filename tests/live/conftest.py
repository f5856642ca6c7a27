"""For every socket test: passwords hashed fast, and no count of open sockets, rendered push nor
chat message read for a push outliving its test (ids come back after a flushed test database)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.community.chat import HIDDEN_WORDS
from games.live import chat, pushes


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fresh_pushes():
    forget_process_state()
    yield
    forget_process_state()


def forget_process_state() -> None:
    pushes.forget_rendered()
    pushes.forget_sockets()
    chat.forget_messages()
    cache.delete(HIDDEN_WORDS)  # a flushed database sends no signal that the list is gone

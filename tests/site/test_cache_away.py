"""The site's Redis cache as production sets it (``basilica_site.cache``): while Redis is away the
front page, the lobby and a chat line work as with an empty cache, and `/health/` says what is
wrong; with Redis there, it is Django's Redis cache, counts and misses alike."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from factories import client_for, make_staff, make_user, open_game, started_game

from basilica_site import cache as site_cache_module
from games.models import ChatMessage
from tests.multiprocess.services_up import ensure_redis

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def redis_not_yet_away(monkeypatch):
    """This process has not yet met Redis away (it remembers for a few seconds, and says so
    once a minute)."""
    monkeypatch.setattr(site_cache_module, "_asked_again_at", float("-inf"))
    monkeypatch.setattr(site_cache_module, "_told_at", float("-inf"))


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nothing listens once the probe is closed


def site_cache(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "basilica_site.cache.ForgivingRedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }


def test_with_redis_away_the_pages_and_a_chat_line_still_work(settings, caplog):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    settings.CACHES = site_cache(url)
    settings.REDIS_URL = url
    ann, bob = make_user("ann"), make_user("bob")
    open_game(make_user("carl"))  # a seek: the lobby and the front page draw its thumbnail
    game = started_game(ann, bob)
    anns = client_for(ann)
    with caplog.at_level(logging.WARNING, logger="basilica_site.cache"):
        assert client_for(bob).get("/").status_code == 200
        assert anns.get(reverse("games:lobby")).status_code == 200
        said = anns.post(reverse("games:chat", args=[game.pk]), {"room": "players", "text": "hi"})
    assert said.status_code == 302
    assert ChatMessage.objects.filter(text="hi").exists()
    assert "Redis away" in caplog.text
    health = client_for(make_staff("admin")).get("/health/")
    assert health.status_code == 503  # the operator is told, though the players were not
    assert health.json()["checks"]["redis"].startswith("ConnectionError")


@pytest.fixture
def hanging_redis():
    """A Redis that takes connections and never answers: the port, and how many it took."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    taken: list[socket.socket] = []

    def take() -> None:
        with contextlib.suppress(OSError):  # closed at the end
            while True:
                taken.append(server.accept()[0])

    taker = threading.Thread(target=take, daemon=True)
    taker.start()
    yield server.getsockname()[1], taken
    with contextlib.suppress(OSError):  # not every system lets a listening socket be shut down
        server.shutdown(socket.SHUT_RDWR)  # wakes the accept() (closing alone would not, on Linux)
    server.close()
    taker.join(timeout=5)
    for connection in taken:
        connection.close()


def test_a_hanging_redis_is_waited_for_once_not_for_every_thumbnail(settings, hanging_redis):
    port, taken = hanging_redis
    settings.CACHES = site_cache(f"redis://127.0.0.1:{port}/0")
    for number in range(4):  # four games in play: four thumbnails, each read then kept
        started_game(make_user(f"first{number}"), make_user(f"second{number}"))
    assert Client().get("/").status_code == 200  # the front page, as a visitor sees it
    assert len(taken) == 1  # one call timed out; the others did not ask


def test_with_redis_there_it_is_djangos_redis_cache(settings):
    problem = ensure_redis()
    if problem:
        pytest.skip(problem)
    settings.CACHES = site_cache("redis://127.0.0.1:6379/9")
    cache.clear()
    assert cache.get("absent", "default") == "default"
    assert cache.add("count", 0, 60)
    assert cache.incr("count") == 1
    assert cache.incr("count") == 2
    with pytest.raises(ValueError):
        cache.incr("never-set")  # as Django's backends say a missing count
    cache.set_many({"a": 1, "b": 2}, 60)
    assert cache.get_many(["a", "b", "c"]) == {"a": 1, "b": 2}
    cache.clear()

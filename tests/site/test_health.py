"""`/health/` for the proxy and the process supervisor: 200 when the database, the cache, Redis
(if the site has one) and the light queue's consumer are well, 503 otherwise, and the reason
told to staff only."""

from __future__ import annotations

import time

import pytest
from factories import client_for, make_staff, make_user
from huey.contrib.djhuey import HUEY

from games import tasks

pytestmark = pytest.mark.django_db


@pytest.fixture
def swept():
    """A light consumer ran its minute sweep just now (immediate mode: here, at once)."""
    tasks.sweep_every_minute()


def test_everything_up_is_healthy(client, swept):
    answer = client.get("/health/")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}
    assert "no-cache" in answer["Cache-Control"]


def test_no_sweep_for_minutes_is_unhealthy(client, settings):
    settings.HEALTH_WORKER_SECONDS = 180
    HUEY.put(tasks.HEARTBEAT, time.time() - 600)
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json() == {"status": "unhealthy"}  # no detail for anonymous callers

    staff = client_for(make_staff("admin"))
    told = staff.get("/health/").json()
    assert told["checks"]["worker"].startswith("the last minute sweep ran 6")
    assert told["checks"]["database"] == "ok"


def test_a_worker_that_never_swept_is_unhealthy(client):
    assert client.get("/health/").status_code == 503


def test_the_proxy_check_leaves_the_worker_out(client):
    # No sweep ever ran, yet this web process can serve players.
    answer = client.get("/health/web/")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}


def test_the_proxy_check_sees_redis_down(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    assert client.get("/health/web/").status_code == 503


def test_redis_down_is_unhealthy(client, settings, swept):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # a port nothing listens on
    answer = client.get("/health/")
    assert answer.status_code == 503
    assert answer.json() == {"status": "unhealthy"}
    told = client_for(make_staff("admin")).get("/health/").json()
    assert told["checks"]["redis"].startswith("ConnectionError")
    assert told["checks"]["worker"] == "ok"


def test_a_player_is_told_no_more_than_anyone(swept, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    answer = client_for(make_user("alice")).get("/health/")
    assert answer.json() == {"status": "unhealthy"}

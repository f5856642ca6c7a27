"""`/health/`, for monitoring and the process supervisor: 200 when the site is well, 503 when it
is not. It looks at the database, the cache, Redis (when the site has one) and the light
queue's consumer, which leaves a heartbeat at every minute sweep (``tasks.sweep_every_minute``).
`/health/web/` leaves the consumer out, for a proxy that asks whether this web process can
serve: a stopped worker is no reason to stop sending players to it.
Anybody may ask; only a staff member is told which part failed and why."""

from __future__ import annotations

import logging
import secrets
import time

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import tasks

log = logging.getLogger(__name__)


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return ""


def _cache() -> str:
    token = secrets.token_hex(8)
    cache.set("health:probe", token, 10)
    return "" if cache.get("health:probe") == token else "what was written could not be read back"


def _redis() -> str:
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    finally:
        client.close()
    return ""


def _worker() -> str:
    beat = tasks.last_heartbeat()
    if beat is None:
        return "no minute sweep has run yet"
    age = time.time() - beat
    if age > settings.HEALTH_WORKER_SECONDS:
        return f"the last minute sweep ran {age:.0f} s ago"
    return ""


def checks(worker: bool = True) -> dict[str, str]:
    """Each part's trouble ("" when it is well); the light consumer's too if ``worker``."""
    parts = {"database": _database, "cache": _cache}
    if worker:
        parts["worker"] = _worker
    if settings.REDIS_URL:
        parts["redis"] = _redis
    found = {}
    for name, check in parts.items():
        try:
            found[name] = check()
        except Exception as error:  # the check's own failure is the trouble it reports
            found[name] = f"{type(error).__name__}: {error}"
        if found[name]:
            log.warning("health: %s: %s", name, found[name])
    return found


@never_cache
@require_GET
def health(request: HttpRequest, worker: bool = True) -> JsonResponse:
    found = checks(worker)
    healthy = not any(found.values())
    body = {"status": "ok" if healthy else "unhealthy"}
    if request.user.is_authenticated and request.user.is_staff:
        body["checks"] = {name: trouble or "ok" for name, trouble in found.items()}
    return JsonResponse(body, status=200 if healthy else 503)

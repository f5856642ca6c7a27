"""`/metrics/`, for Prometheus: this process's own figures, and the site's.

- This process's: every HTTP request's time by view and status class (``measure_requests``,
  the outermost middleware), the time from a move's commit to its push to the opponent's socket
  (``MOVE_TO_PUSH``, observed by ``games.live.consumers``), and the sockets open here
  (``OPEN_SOCKETS``); with prometheus-client's own figures of the process (memory, CPU, files).
- The site's: moves, games in play and ended on time, notifications sent and failed, the task
  queues' lengths and the light consumer's lag, read from the database and the queues by
  ``SiteFigures`` each time Prometheus asks. Every process answers the same, and none keeps
  them in memory shared with the others.

``?part=process`` or ``?part=site`` asks for one part alone (README: scrape every daphne for
the first, one for the second).

Only the addresses of ``METRICS_ALLOWED_IPS`` may ask, or whoever sends ``METRICS_TOKEN`` as a
bearer token; anyone else is answered the site's 404, as if there were nothing here."""

from __future__ import annotations

import ipaddress
import secrets
import time

import prometheus_client
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from prometheus_client import CollectorRegistry, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from games.web import figures

# A counter's or histogram's "_created" series tells when this process first saw a label: it
# doubles what is sent and nobody here reads it.
prometheus_client.disable_created_metrics()

REQUESTS = Histogram(
    "basilica_http_request_duration_seconds",
    "Time to answer an HTTP request in this process, by view (its URL name) and status class; "
    "its _count is the number of requests.",
    ["view", "status"],
)
MOVE_TO_PUSH = Histogram(
    "basilica_move_push_seconds",
    "Time from a move (its game's row written, just before the commit) to its push sent to the "
    "opponent's socket by this process.",
    buckets=(0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10),
)
OPEN_SOCKETS = Gauge(
    "basilica_open_websockets",
    "Websockets open in this process, by the page they serve (game, seeks, now).",
    ["page"],
)


def measure_requests(get_response):
    """Every request's time and answer, first in and last out of the middleware, so that the
    time is the whole of the site's work on it."""

    def middleware(request: HttpRequest):
        started = time.perf_counter()
        response = get_response(request)
        status = f"{response.status_code // 100}xx"
        REQUESTS.labels(view_of(request), status).observe(time.perf_counter() - started)
        return response

    return middleware


# A chat post answered by a gate before any view (games.web.middleware), apart from the chat's
# own answers: under a flood nearly all of them, in microseconds.
TOLD_TO_WAIT = "games:chat told to wait"


def view_of(request: HttpRequest) -> str:
    """The URL's name ("games:detail"): a few dozen labels, never one per game or player."""
    if getattr(request, "told_to_wait", False):
        return TOLD_TO_WAIT
    match = getattr(request, "resolver_match", None)
    if match is not None:
        return match.view_name or "unnamed"
    if request.path_info.startswith(settings.STATIC_URL):
        return "static"  # whitenoise answers before any URL is resolved
    return "unmatched"


def _family(kind, name: str, documentation: str, labels: list[str], counts: dict):
    """A metric family of ``kind`` with one sample for each of ``counts``' label values."""
    family = kind(name, documentation, labels=labels)
    for key, count in counts.items():
        family.add_metric(list(key) if isinstance(key, tuple) else [key], count)
    return family


class SiteFigures:
    """The site's figures, read when Prometheus asks (``figures``: a few aggregate queries)."""

    def collect(self):
        now = figures.totals()
        yield _family(
            CounterMetricFamily,
            "basilica_moves",
            "Moves applied on the site (imported games aside).",
            ["kind"],
            now.moves,
        )
        yield _family(
            GaugeMetricFamily,
            "basilica_games_running",
            "Games in play, by kind and speed.",
            ["kind", "speed"],
            now.running,
        )
        yield _family(
            CounterMetricFamily,
            "basilica_games_ended_on_time",
            "Games ended because a clock ran out (a loss, or no result before a first move).",
            ["kind"],
            now.ended_on_time,
        )
        yield _family(
            CounterMetricFamily,
            "basilica_notifications",
            "Notifications delivered or given up on, by channel (email, push) and outcome.",
            ["channel", "outcome"],
            now.notifications,
        )
        yield _family(
            GaugeMetricFamily,
            "basilica_queue_length",
            "Tasks waiting for a consumer, by queue (light, compute).",
            ["queue"],
            figures.queue_lengths(),
        )
        yield GaugeMetricFamily(
            "basilica_worker_lag_seconds",
            "Seconds since a light consumer last ran its minute sweep (+Inf: never).",
            value=figures.worker_lag(),
        )


# Not prometheus-client's global registry: importing this module asks nothing of the database.
SITE = CollectorRegistry(auto_describe=False)
SITE.register(SiteFigures())
PARTS = {"process": [prometheus_client.REGISTRY], "site": [SITE]}
PARTS[""] = PARTS["process"] + PARTS["site"]


def may_scrape(request: HttpRequest) -> bool:
    """An address of ``METRICS_ALLOWED_IPS`` (a network too: ``10.0.0.0/8``), or the bearer
    of ``METRICS_TOKEN`` when one is set. The address is the connection's, which daphne's
    ``--proxy-headers`` takes from the proxy's ``X-Forwarded-For``."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if secrets.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in ipaddress.ip_network(allowed) for allowed in settings.METRICS_ALLOWED_IPS)


@csrf_exempt  # it changes nothing; a stranger's POST is told 404 as their GET is, not 403
@never_cache
def metrics(request: HttpRequest) -> HttpResponse:
    registries = PARTS.get(request.GET.get("part", ""))
    if not may_scrape(request) or registries is None:
        raise Http404("nothing here")
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    body = b"".join(prometheus_client.generate_latest(registry) for registry in registries)
    return HttpResponse(body, content_type=prometheus_client.CONTENT_TYPE_LATEST)

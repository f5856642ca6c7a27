"""Response headers the site adds to every page, its pages' indentation left out, the answer
when the database is away, and a chat flood's posts answered before anything is read."""

from __future__ import annotations

import logging
import re
import time
from functools import lru_cache
from typing import AnyStr

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.http.cookie import parse_cookie
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers

from games.community import floods
from games.web.converters import GameId
from games.web.metrics import REQUESTS, TOLD_TO_WAIT

log = logging.getLogger(__name__)


def htmx_caching(get_response):
    """A view answers an HTMX request with a partial of the same URL's page: a cache must keep
    the two apart (``Vary: HX-Request``), and a partial is one player's view, never shared."""

    def middleware(request):
        response = get_response(request)
        patch_vary_headers(response, ["HX-Request"])
        if getattr(request, "htmx", False):
            patch_cache_control(response, private=True)
        return response

    return middleware


def chat_flood_gate(get_response):
    """A chat post by htmx from a session this process has just told to wait (``floods``) is
    answered 204 before the session, the user or the form is read: htmx swaps nothing, so the
    form keeps its text and the reason it already shows. Nothing is stored, so the token is not
    checked either. Without JavaScript the post goes on to the view, which says why again.

    Served by daphne, such a post is answered before Django by ``ChatFloodGate``; this one
    answers it where the site is served over WSGI, and in the tests' client."""

    def middleware(request):
        if request.method == "POST" and _told_to_wait(
            request.path,
            request.headers.get("HX-Request") == "true",
            request.COOKIES.get(settings.SESSION_COOKIE_NAME),
        ):
            request.told_to_wait = True  # counted apart (metrics.view_of)
            return HttpResponse(status=204)
        return get_response(request)

    return middleware


def _told_to_wait(path: str, htmx: bool, session: str | None) -> bool:
    """Whether a POST is a chat post by htmx from a session told to wait: the gates' rule."""
    return htmx and _is_chat_post(path) and floods.CHAT_POSTS.reason(session) is not None


class ChatFloodGate:
    """``chat_flood_gate`` in front of Django's ASGI handler: the post is answered on the event
    loop, before Django makes a request of it, reads its body or hands it to a thread of its
    own (some 2 ms of a process's time a post; this, some microseconds). It is counted in the
    requests' figures apart from the chat's own answers, as ``chat_flood_gate``'s are."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            started = time.perf_counter()
            headers = scope["headers"]
            htmx = any(name == b"hx-request" and value == b"true" for name, value in headers)
            if htmx and _told_to_wait(scope["path"], htmx, _session_of(headers)):
                await send({"type": "http.response.start", "status": 204, "headers": []})
                await send({"type": "http.response.body", "body": b""})
                REQUESTS.labels(TOLD_TO_WAIT, "2xx").observe(time.perf_counter() - started)
                return
        await self.app(scope, receive, send)


def _session_of(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The session cookie's value, read as Django's ASGI request reads it (its ``Cookie``
    headers joined by commas), so that the gate knows a session as the site does."""
    cookies = ",".join(value.decode("latin-1") for name, value in headers if name == b"cookie")
    return parse_cookie(cookies).get(settings.SESSION_COOKIE_NAME) if cookies else None


def _is_chat_post(path: str) -> bool:
    return _chat_path().fullmatch(path) is not None


@lru_cache(maxsize=1)
def _chat_path() -> re.Pattern:
    """The chat's URL as a pattern: a flood's every post is matched, and resolving a path
    against the whole URLconf costs as much as the rest of the answer."""
    before, after = reverse("games:chat", args=[0]).split("/0/")
    return re.compile(f"{re.escape(before)}/{GameId.regex}/{re.escape(after)}")


INDENTATION = r"\n[ \t]+"
# Where spaces are the content: preformatted text, and what a text box holds (a player's notes).
KEEPS_ITS_SPACES = r"(<pre\b.*?</pre>|<textarea\b.*?</textarea>)"
# Both as bytes (an answer's body) and as text (a push, before it goes out on its socket), with
# the line break that replaces an indentation.
_PATTERNS = {
    bytes: (
        re.compile(INDENTATION.encode()),
        re.compile(KEEPS_ITS_SPACES.encode(), re.DOTALL),
        b"\n",
    ),
    str: (re.compile(INDENTATION), re.compile(KEEPS_ITS_SPACES, re.DOTALL), "\n"),
}


def compacted(html: AnyStr) -> AnyStr:
    """``html`` without the templates' indentation: a browser reads a line's leading spaces as
    the one space its line break already is, so they are bytes sent for nothing (about a tenth
    of a game page, a twelfth of a push). Preformatted text and a text box's content are kept
    as they are."""
    indentation, kept, newline = _PATTERNS[str if isinstance(html, str) else bytes]
    # split() with a group: the elements kept as they are come as the odd pieces.
    pieces = kept.split(html)
    return html[:0].join(
        piece if index % 2 else indentation.sub(newline, piece)
        for index, piece in enumerate(pieces)
    )


def compact_html(get_response):
    """A page without the templates' indentation (``compacted``)."""

    def middleware(request):
        response = get_response(request)
        if response.get("Content-Type", "").startswith("text/html") and not response.streaming:
            response.content = compacted(response.content)
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response

    return middleware


# What a database that does not answer raises (restarting, failed over, a lock held too long).
DATABASE_AWAY = (OperationalError, InterfaceError)


class DatabaseUnavailable:
    """A view that meets a database that does not answer is answered 503 (``database_away``)
    instead of a server error. Middleware that reads the user before the view catches it
    itself: this one hears only of the view's exceptions."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DATABASE_AWAY):
            return None
        return database_away(request, exception)


def database_away(request, error: Exception) -> HttpResponse:
    """The answer to a request that met a database that does not answer: 503, with a page that
    says so and that nothing was changed (its transaction was rolled back), drawn without a
    query."""
    log.warning("the database did not answer %s %s: %s", request.method, request.path, error)
    response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = "5"
    return response

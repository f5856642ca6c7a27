"""The site's logs: readable lines in development, one JSON object a line in production.

Every line of a request carries its request id and, once the session has said who it is, the
user's id: the middleware below keeps both in context variables for the whole request, and a
filter on the handler adds them to each record. A line about a game says which one and at
which seq (``extra={"game_id": ..., "seq": ...}``); the JSON formatter writes any such extra
field as it is. The request id is the proxy's ``X-Request-ID`` when it sent a sane one, so a
line of the site's log and a line of the proxy's are found together; it goes back to the
browser in the answer's ``X-Request-ID``, and with any error report.
"""

from __future__ import annotations

import logging
import os
import re
import uuid
from contextvars import ContextVar
from functools import wraps

from django.core.signals import request_finished
from django.db import InterfaceError, OperationalError

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
USER_ID: ContextVar[int | None] = ContextVar("user_id", default=None)

# What a proxy's request id looks like (nginx's $request_id is 32 hex digits, others send a
# UUID): anything else, or none, and the site makes its own, so that no header can write
# arbitrary text into the logs.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,128}")


def request_id_of(request) -> str:
    """The proxy's request id when it looks like one, else a new one."""
    given = request.headers.get("X-Request-ID", "")
    if SANE_REQUEST_ID.fullmatch(given):
        return given
    return uuid.uuid4().hex


class RequestContext:
    """The first middleware: the request id for every line logged while the request is served
    (the other middleware's too), and the user's id from the moment the session has told it,
    just before the view."""

    def __init__(self, get_response):
        self.get_response = get_response
        # Django logs an answer of 400 or more ("Not Found: ...") after the last middleware has
        # returned: the ids are forgotten only when the answer is closed, once it is sent.
        request_finished.connect(forget_request, dispatch_uid="basilica_site.logs.forget")

    def __call__(self, request):
        request.request_id = request_id_of(request)
        REQUEST_ID.set(request.request_id)
        USER_ID.set(None)
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        # Nearly every view asks for the user anyway (every page's header does): asking here
        # first costs those no query more. A database that does not answer leaves the lines
        # without the user: the view meets it in its turn and is answered 503, never a 500 here
        # (an exception out of process_view would skip the middleware that answers it).
        user = getattr(request, "user", None)
        try:
            signed_in = user is not None and user.is_authenticated
        except (OperationalError, InterfaceError):
            return
        if signed_in:
            USER_ID.set(user.pk)


def forget_request(**kwargs) -> None:
    """No line logged after a request, by the thread that served it, counts as one of it."""
    REQUEST_ID.set(None)
    USER_ID.set(None)


class RequestFields(logging.Filter):
    """Adds the request id and user id of the request under way (None outside one) to every
    record the handler writes."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.user_id = USER_ID.get()
        return True


def logging_config(debug: bool) -> dict:
    """Django's LOGGING: to the console, readable text when ``debug``, else JSON lines with
    time, level, logger, message, request id, user id and any extra fields (game id, seq)."""
    if debug:
        formatter = {"format": "%(message)s"}
    else:
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": ["levelname", "name", "message"],
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",
        }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request": {"()": "basilica_site.logs.RequestFields"}},
        "formatters": {"site": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request"],
                "formatter": "site",
            }
        },
        "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
        # huey's worker adds a handler of its own unless its logger has one: log once, here.
        "loggers": {
            "huey": {
                "handlers": ["console"],
                "level": os.environ.get("HUEY_LOG_LEVEL", "WARNING"),
                "propagate": False,
            }
        },
    }


def without_move_lines(handle):
    """A command's ``handle`` that prints figures: no line for each move while it runs (they
    would bury the figures), and the move logger as it was afterwards (the tests run such
    commands in their own process)."""

    @wraps(handle)
    def quiet(*args, **kwargs):
        moves = logging.getLogger("games.moves")
        level = moves.level
        moves.setLevel(logging.WARNING)
        try:
            return handle(*args, **kwargs)
        finally:
            moves.setLevel(level)

    return quiet

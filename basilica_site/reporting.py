"""Error reports to Sentry (sentry-sdk), started by the settings only when ``SENTRY_DSN`` is set.

A report must say where the site failed without saying who the players are or what they may not
see. Nothing personal is collected to begin with (``send_default_pii=False``), and ``scrubbed``
goes over every report before it leaves:

- the request keeps its method, address and harmless headers: no body (a move, a password, a
  note), no cookie (the session, the CSRF token), no Authorization or CSRF header, no address of
  the player's machine;
- the user is their id alone: no name, no email;
- an email address anywhere in the report (a message, a log line) is replaced, and so are the
  secret parts of the addresses that hold one (a calendar feed, an invitation, an unsubscribe
  link, a password reset);
- no stack frame carries its local variables: the game's secret seed, the order of the stack and
  the whole state of the engine live in them. They are not collected (``include_local_variables``
  off), and ``scrubbed`` drops any that come all the same.

Each report carries the request id of its request (``basilica_site.logs``), so that the lines
logged around the error are found by it.
"""

from __future__ import annotations

import re

import sentry_sdk
from sentry_sdk.integrations.django import DjangoIntegration
from sentry_sdk.integrations.huey import HueyIntegration

from basilica_site.logs import REQUEST_ID, USER_ID

FILTERED = "[Filtered]"
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# The addresses whose last part is a secret (games.urls, basilica_site.urls, Django's password
# reset): everything after their prefix goes.
SECRET_ADDRESS = re.compile(r"(/(?:calendar|invite|unsubscribe|reset)/)[^\s?#'\"]+")
# Headers that carry who someone is or a secret of theirs.
PRIVATE_HEADER_WORDS = (
    "cookie",
    "authorization",
    "csrf",
    "token",
    "session",
    "forwarded",
    "real-ip",
    "client-ip",
    "connecting-ip",
)
KEPT_REQUEST_FIELDS = ("url", "method", "query_string", "headers")


def start_error_reporting(
    dsn: str, environment: str, traces_sample_rate: float, transport=None
) -> None:
    """Report errors of the web processes and the task runner's consumers to ``dsn``
    (``transport``: where a test collects the reports instead)."""
    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), HueyIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        before_send=scrubbed,
        before_send_transaction=scrubbed,
        transport=transport,
    )


def scrubbed(event: dict, hint: dict | None = None) -> dict:
    """``event`` with nothing personal and nothing hidden of a game left in it (the module's
    docstring says what goes)."""
    request = event.get("request")
    if isinstance(request, dict):
        kept = {key: request[key] for key in KEPT_REQUEST_FIELDS if key in request}
        if isinstance(kept.get("headers"), dict):
            kept["headers"] = {
                name: value
                for name, value in kept["headers"].items()
                if not any(word in name.lower() for word in PRIVATE_HEADER_WORDS)
            }
        event["request"] = kept
    user_id = USER_ID.get()
    user = event.get("user") or {}
    if user_id is None and "id" in user:
        user_id = user["id"]
    if user_id is None:
        event.pop("user", None)
    else:
        event["user"] = {"id": str(user_id)}
    request_id = REQUEST_ID.get()
    if request_id is not None:
        event.setdefault("tags", {})["request_id"] = request_id
    _drop_local_variables(event)
    return _without_secrets(event)


def _drop_local_variables(event: dict) -> None:
    for exception in (event.get("exception") or {}).get("values") or []:
        for frame in (exception.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)
    for thread in (event.get("threads") or {}).get("values") or []:
        for frame in (thread.get("stacktrace") or {}).get("frames") or []:
            frame.pop("vars", None)


def _without_secrets(value):
    """``value`` with every email address and secret address part in its text replaced."""
    if isinstance(value, str):
        return SECRET_ADDRESS.sub(rf"\g<1>{FILTERED}", EMAIL.sub(FILTERED, value))
    if isinstance(value, dict):
        return {key: _without_secrets(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_without_secrets(item) for item in value]
    return value

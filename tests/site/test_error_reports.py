"""An error on a page reaches the operator's error reports (Sentry) without anything personal in
it and without anything hidden of the game: the reports are collected here instead of sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest
import sentry_sdk
from asgiref.sync import sync_to_async
from factories import first_legal, make_user, post_through_asgi, session_of, started_game
from sentry_sdk.transport import Transport

from basilica_site.reporting import scrubbed, start_error_reporting

ROOT = Path(__file__).resolve().parents[2]
SECRET_SEED = 3_141_592_653_589_793
EMAIL = "annabel.secret@example.org"
CSRF_TOKEN = "csrfTokenOfAnnabel0123456789abcd"  # a CSRF secret: 32 letters and digits
BEARER = "Bearer annabels-own-token-42"


class CollectedReports(Transport):
    """Keeps each report the SDK would send, in this process, instead of sending it."""

    def __init__(self, options=None):
        super().__init__(options)
        self.events: list[dict] = []

    def capture_envelope(self, envelope) -> None:
        event = envelope.get_event()
        if event is not None:
            self.events.append(event)


@pytest.fixture
def reports():
    """Error reporting started as SENTRY_DSN starts it; stopped afterwards, so that no other test
    runs with the SDK started."""
    collected = CollectedReports()
    start_error_reporting(
        "https://public@errors.invalid/1",
        environment="test",
        traces_sample_rate=0,
        transport=collected,
    )
    yield collected.events
    sentry_sdk.get_client().close()
    sentry_sdk.get_global_scope().set_client(None)
    assert not sentry_sdk.is_initialized()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_failing_move_is_reported_without_the_player_their_secrets_or_the_hidden_game(
    reports, monkeypatch
):
    annabel = await sync_to_async(make_user)("annabel_the_builder", email=EMAIL)
    game = await sync_to_async(started_game)(seat0=annabel, seed=SECRET_SEED)
    action = await sync_to_async(first_legal)(game)
    session_key = await sync_to_async(session_of)(annabel)

    def rules_fault(state, action):
        # A stand-in for a fault in the rules engine (unit test): like the engine's own
        # functions, it fails holding the game's secret seed and its whole state.
        seed = SECRET_SEED  # noqa: F841
        raise RuntimeError("the rules engine lost a tile")

    monkeypatch.setattr(game.engine, "apply_action", rules_fault)
    body = {"action": json.dumps(action), "seq": 0, "csrfmiddlewaretoken": CSRF_TOKEN}

    response = await post_through_asgi(
        f"/games/{game.pk}/act/",
        body,
        {
            "Cookie": f"sessionid={session_key}; csrftoken={CSRF_TOKEN}",
            "X-CSRFToken": CSRF_TOKEN,
            "Authorization": BEARER,
            "X-Request-ID": "proxy-request-7f3a",
        },
    )

    assert response["status"] == 500
    [report] = [event for event in reports if event.get("exception")]
    [error] = report["exception"]["values"]
    assert error["type"] == "RuntimeError"
    assert error["value"] == "the rules engine lost a tile"
    frames = error["stacktrace"]["frames"]
    assert frames[-1]["function"] == "rules_fault"
    assert all("vars" not in frame for frame in frames)
    assert report["request"]["method"] == "POST"
    assert report["request"]["url"] == f"http://testserver/games/{game.pk}/act/"
    assert "data" not in report["request"]
    assert "cookies" not in report["request"]
    assert report["user"] == {"id": str(annabel.pk)}
    assert report["tags"]["request_id"] == response["headers"]["x-request-id"]
    assert report["tags"]["request_id"] == "proxy-request-7f3a"

    told = json.dumps(report)
    for secret in (
        EMAIL,
        annabel.username,
        session_key,
        CSRF_TOKEN,
        BEARER,
        json.dumps(action),
        urlencode(body),
        str(SECRET_SEED),
    ):
        assert secret not in told, secret


def test_a_report_loses_email_addresses_and_the_secret_parts_of_addresses():
    event = {
        "message": "no account for someone@example.org",
        "request": {
            "url": "https://basilica.example/calendar/Zq81xYtoken.ics",
            "method": "GET",
            "headers": {"Referer": "https://basilica.example/games/invite/abcDEF123/"},
            "env": {"REMOTE_ADDR": "203.0.113.9"},
        },
        "user": {"id": "7", "username": "annabel", "email": "a@example.org"},
    }
    told = json.dumps(scrubbed(event))
    for secret in ("someone@example.org", "Zq81xYtoken", "abcDEF123", "203.0.113.9", "annabel"):
        assert secret not in told
    assert "/calendar/[Filtered]" in told
    assert '"user": {"id": "7"}' in told


def reporting_started_by_the_settings(**env: str) -> bool:
    """Whether the settings, read with ``env``, start error reporting: the SDK is not even
    imported when they do not."""
    probe = (
        "import sys, django; django.setup();"
        "print('sentry_sdk' in sys.modules and sys.modules['sentry_sdk'].is_initialized())"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    result = subprocess.run(
        [sys.executable, "-c", probe],
        env={**clean, "DJANGO_SETTINGS_MODULE": "basilica_site.settings", **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout.strip() == "True"


def test_the_settings_start_error_reporting_only_when_sentry_dsn_is_set():
    assert reporting_started_by_the_settings(SENTRY_DSN="https://public@errors.invalid/1")
    assert not reporting_started_by_the_settings()
    assert not sentry_sdk.is_initialized()  # nor in this test run

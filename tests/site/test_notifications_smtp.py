"""A "your turn" email through a real SMTP conversation: a local server started in the test,
Django's SMTP backend, and the move made through the game page with real commits, as in
production (only the task runner works in the test's own process)."""

from __future__ import annotations

import email
import email.policy
import json
import re
import socket

import pytest
from aiosmtpd.controller import Controller
from django.urls import reverse
from factories import client_for, make_user, play, started_game

from games.engine import basilica as engine
from games.models import Notification
from games.play import states

pytestmark = pytest.mark.django_db(transaction=True)


class Mailbox:
    """An SMTP server's handler that keeps every message it is given."""

    def __init__(self):
        self.envelopes = []

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"


class Refusing:
    """An SMTP server's handler that refuses every message."""

    async def handle_DATA(self, server, session, envelope):
        return "554 Transaction failed: not today"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(autouse=True)
def smtp_settings(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = free_port()  # nothing listens here until a test starts a server
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    settings.SITE_URL = "http://basilica.example"
    settings.NOTIFY_DELAY_SECONDS = 0
    settings.NOTIFY_RETRY_DELAY_SECONDS = 0
    return settings


@pytest.fixture
def smtp_server(smtp_settings):
    """Start a local SMTP server with ``handler`` on the port the site sends to."""
    running = []

    def start(handler):
        controller = Controller(handler, hostname="127.0.0.1", port=smtp_settings.EMAIL_PORT)
        controller.start()
        running.append(controller)
        return handler

    yield start
    for controller in running:
        controller.stop()


def alice_to_her_last_opening_action(alice, bob):
    """A correspondence game in which alice has played her opening but its last action, which
    hands the decision to bob. Returns the game and that last action."""
    game = started_game(alice, bob, time_control="3d")
    state, opening = states.load_state(game), []
    while state.to_decide == 0:
        opening.append(engine.legal_actions(state)[0])
        state = engine.apply_action(state, opening[-1])
    return play(game, [a.to_json() for a in opening[:-1]]), opening[-1].to_json()


def alice_plays_on_the_page(game, alice, action):
    return client_for(alice).post(
        reverse("games:act", args=[game.pk]), {"action": json.dumps(action), "seq": game.seq}
    )


@pytest.fixture
def alice():
    return make_user("alice", email="alice@example.com")


@pytest.fixture
def bob():
    return make_user("bob", email="bob@example.com")


def test_bobs_your_turn_email_arrives_at_the_smtp_server(smtp_server, alice, bob):
    mailbox = smtp_server(Mailbox())
    game, last = alice_to_her_last_opening_action(alice, bob)
    assert alice_plays_on_the_page(game, alice, last).status_code == 302
    [envelope] = [e for e in mailbox.envelopes if e.rcpt_tos == ["bob@example.com"]]
    message = email.message_from_bytes(envelope.content, policy=email.policy.default)
    assert message["Subject"] == f"Your turn against alice (game {game.pk})"
    assert message["To"] == "bob@example.com"
    assert message.get_content_type() == "text/plain"
    body = message.get_content()
    assert f"http://basilica.example/games/{game.pk}/" in body
    unsubscribe = re.search(r"Stop these emails: (\S+)", body)[1]
    # The long header arrives folded onto a second line; a mail client unfolds and trims it.
    assert message["List-Unsubscribe"].strip() == f"<{unsubscribe}>"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_delivered_email_is_recorded_as_sent(smtp_server, alice, bob):
    smtp_server(Mailbox())
    game, last = alice_to_her_last_opening_action(alice, bob)
    alice_plays_on_the_page(game, alice, last)
    note = Notification.objects.get(user=bob)
    assert (note.kind, note.game_id, note.outcome, note.attempts) == (
        "your_turn",
        game.pk,
        "sent",
        1,
    )


def test_a_mail_server_that_refuses_leaves_the_move_made_and_the_email_recorded_as_failed(
    smtp_server, alice, bob, settings
):
    smtp_server(Refusing())
    game, last = alice_to_her_last_opening_action(alice, bob)
    response = alice_plays_on_the_page(game, alice, last)
    assert response.status_code == 302
    assert game.actions.last().data == last
    game.refresh_from_db()
    assert game.to_decide == 1
    note = Notification.objects.get(user=bob)
    assert note.outcome == Notification.Outcome.FAILED
    assert note.attempts == settings.NOTIFY_RETRIES + 1
    assert "554" in note.error


def test_a_mail_server_that_is_down_leaves_the_move_made_and_the_email_recorded_as_failed(
    alice, bob, settings
):
    game, last = alice_to_her_last_opening_action(alice, bob)
    response = alice_plays_on_the_page(game, alice, last)
    assert response.status_code == 302
    assert game.actions.last().data == last
    game.refresh_from_db()
    assert game.to_decide == 1
    note = Notification.objects.get(user=bob)
    assert note.outcome == Notification.Outcome.FAILED
    assert note.attempts == settings.NOTIFY_RETRIES + 1
    assert "ConnectionRefusedError" in note.error

"""What a script guessing passwords or mass-creating accounts, mails and games runs into."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from factories import PASSWORD, client_for, lobby_form, make_staff, make_user, staff_client_for

from games.models import Game

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str, password: str, address: str = "203.0.113.7"):
    form = {"username": username, "password": password}
    return client.post(reverse("login"), form, REMOTE_ADDR=address)


def test_the_sixth_wrong_password_in_a_row_is_refused_and_so_is_the_right_one_after_it():
    player = make_user("alice")
    client = Client()
    for _ in range(5):
        response = log_in(client, "alice", "not my password")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.text
    sixth = log_in(client, "alice", "still not it")
    assert sixth.status_code == 429
    assert "Logging in is paused after 6 wrong passwords in a row" in sixth.text
    assert "Try again in 15 minutes" in sixth.text
    assert log_in(client, "alice", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    player.refresh_from_db()
    assert player.last_login is None


def test_the_lockout_holds_for_the_account_from_another_address():
    make_user("alice")
    for _ in range(6):
        log_in(Client(), "alice", "guess", address="203.0.113.7")
    assert log_in(Client(), "alice", PASSWORD, address="198.51.100.9").status_code == 429


def test_an_address_guessing_many_accounts_is_locked_out_too():
    for name in ("ann", "ben", "cat", "dan", "eve", "fay", "gus"):
        make_user(name)
    for name in ("ann", "ben", "cat", "dan", "eve", "fay"):
        log_in(Client(), name, "guess")
    assert log_in(Client(), "gus", PASSWORD).status_code == 429


def test_a_right_password_clears_the_count_of_wrong_ones():
    make_user("alice")
    for _ in range(5):
        log_in(Client(), "alice", "guess")
    assert log_in(Client(), "alice", PASSWORD).status_code == 302
    for _ in range(5):
        log_in(Client(), "alice", "guess")
    assert log_in(Client(), "alice", PASSWORD).status_code == 302


def test_the_staff_see_lockouts_in_the_admin():
    make_user("alice")
    for _ in range(6):
        log_in(Client(), "alice", "guess")
    response = staff_client_for(make_staff()).get(reverse("admin:axes_accessattempt_changelist"))
    assert response.status_code == 200
    assert "alice" in response.text
    assert "203.0.113.7" in response.text


def sign_up(username: str, address: str = "203.0.113.7"):
    form = {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("signup"), form, REMOTE_ADDR=address)


def test_sign_ups_from_one_address_stop_at_the_limit_with_a_clear_page(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "signup": (3, 3600)}
    assert [sign_up(f"new{i}").status_code for i in range(3)] == [302, 302, 302]
    refused = sign_up("new3")
    assert refused.status_code == 429
    assert "This address has opened 3 new accounts in 60 minutes" in refused.text
    assert not type(make_user()).objects.filter(username="new3").exists()
    assert sign_up("new4", address="198.51.100.9").status_code == 302


def test_password_reset_mails_from_one_address_stop_at_the_limit(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "password_reset": (2, 3600)}
    make_user("alice", email="alice@example.com")
    client = Client()
    for _ in range(2):
        response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
        assert response.status_code == 302
    refused = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert refused.status_code == 429
    assert "password-reset emails" in refused.text
    assert len(mail.outbox) == 2


def test_game_creation_from_one_address_stops_at_the_limit(settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create_game": (2, 3600)}
    client = client_for(make_user())
    for _ in range(3):
        response = client.post(
            reverse("games:create"), lobby_form(edition="2022", first="me", time_control="3d")
        )
    assert response.status_code == 429
    assert "new games" in response.text
    assert Game.objects.count() == 2

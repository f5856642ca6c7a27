"""Signing in through the site's password backend (Django's, its user read compiled once):
who stays signed in, who is let in, and how often a password is checked."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client
from django.urls import reverse
from factories import PASSWORD, make_user

from basilica_site import backends

pytestmark = pytest.mark.django_db

BEFORE = "django.contrib.auth.backends.ModelBackend"  # what sessions signed in before name


def signed_in_as(client: Client) -> str:
    """The name the header shows, or "" for a visitor."""
    page = client.get(reverse("games:mine"))
    if page.status_code != 200:
        return ""
    return page.context["user"].username


def test_a_password_login_signs_in_through_the_compiled_backend_and_stays_signed_in():
    make_user("alice")
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_backend"] == backends.PATH
    assert signed_in_as(client) == "alice"


def test_a_session_signed_in_before_the_compiled_backend_stays_signed_in():
    alice = make_user("alice")
    client = Client()
    client.force_login(alice, backend=BEFORE)
    assert client.session["_auth_user_backend"] == BEFORE
    assert signed_in_as(client) == "alice"


def test_a_signed_up_player_is_signed_in_through_the_compiled_backend():
    client = Client()
    form = {
        "username": "newcomer",
        "password1": "a long enough password 1",
        "password2": "a long enough password 1",
        "time_zone": "Europe/Paris",
    }
    assert client.post(reverse("signup"), form).status_code == 302
    assert client.session["_auth_user_backend"] == backends.PATH
    assert signed_in_as(client) == "newcomer"


def test_a_deactivated_account_is_signed_out_of_its_open_session():
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    assert signed_in_as(client) == "alice"
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert signed_in_as(client) == ""


def test_a_changed_password_signs_out_the_other_sessions():
    alice = make_user("alice")
    client = Client()
    client.force_login(alice)
    alice.set_password("another long password 2")
    alice.save()
    assert signed_in_as(client) == ""


@pytest.mark.parametrize("username", ["alice", "nobody"])
def test_a_wrong_password_is_hashed_once_not_once_per_backend(settings, monkeypatch, username):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    make_user("alice")
    hashed = []
    real_encode = PBKDF2PasswordHasher.encode

    def counted(self, password, salt, iterations=None):
        hashed.append(password)
        return real_encode(self, password, salt, iterations)

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", counted)
    response = Client().post(reverse("login"), {"username": username, "password": "not it"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.text
    assert hashed == ["not it"]

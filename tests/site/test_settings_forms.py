"""The settings page's forms, each sent to its own address: a bad value or a page from before
changes nothing and says why."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user

from games.models import PlayerSettings

pytestmark = pytest.mark.django_db


def test_a_bad_choice_of_play_shows_the_page_again_with_its_error_and_saves_nothing():
    bob = make_user("bob")
    client = client_for(bob)
    before = PlayerSettings.of(bob).confirm_moves
    response = client.post(reverse("settings-play"), {"confirm_moves": "sometimes"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.text
    assert 'id="play-settings"' in response.text  # the whole page, the form in its place
    assert PlayerSettings.of(bob).confirm_moves == before


def test_a_form_sent_from_a_page_of_before_is_refused_with_a_message():
    bob = make_user("bob")
    response = client_for(bob).post(
        reverse("settings"), {"what": "play", "confirm_moves": "never"}, follow=True
    )
    assert "reload the page" in response.text
    assert PlayerSettings.of(bob).confirm_moves != "never"


def test_a_visitor_who_is_not_signed_in_is_sent_to_sign_in():
    for name in ("settings-emails", "settings-play", "vacation-start", "vacation-end"):
        response = Client().post(reverse(name), {"days": 2})
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_forms_only_take_a_post():
    client = client_for(make_user("bob"))
    for name in ("settings-emails", "settings-play", "vacation-start", "vacation-end"):
        assert client.get(reverse(name)).status_code == 405

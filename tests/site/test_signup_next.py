"""A visitor who signs up on the way to something (the home page's play-now grid) gets there."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "nave, apse and transept"


def form(username: str, **extra) -> dict:
    return {
        "username": username,
        "email": "",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **extra,
    }


def test_the_signup_page_keeps_where_the_visitor_was_going():
    page = Client().get(reverse("signup"), {"next": "/#play-now"}).text
    assert '<input type="hidden" name="next" value="/#play-now">' in page


def test_a_new_player_lands_where_they_were_going():
    response = Client().post(reverse("signup"), form("ann", next="/#play-now"))
    assert response.status_code == 302
    assert response.url == "/#play-now"


def test_a_next_page_on_another_site_is_ignored():
    response = Client().post(reverse("signup"), form("bob", next="https://evil.example/"))
    assert response.url == reverse("games:lobby")


def test_the_home_pages_sign_up_button_comes_back_to_the_grid():
    page = Client().get("/").text
    assert f'href="{reverse("signup")}?next=/%23play-now"' in page

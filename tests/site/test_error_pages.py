"""A missing page says what is missing and where to go instead, and reads the same for a
private game as for no game; a server error has a page of its own."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from factories import client_for, make_user, started_game

pytestmark = pytest.mark.django_db

production = override_settings(DEBUG=False)


def said(response, number: int) -> str:
    """What the 404 page says, the game's number left out."""
    section = response.text.split('<section class="not-found">')[1].split("</section>")[0]
    return re.sub(rf"\b{number}\b", "N", section)


def ways_on(text: str) -> bool:
    return reverse("games:lobby") in text and reverse("games:now") in text


@production
def test_an_unknown_game_is_a_friendly_404():
    response = client_for(make_user()).get("/games/424242/")
    assert response.status_code == 404
    assert "No game 424242 here" in response.text
    assert ways_on(response.text)
    assert reverse("games:mine") in response.text
    assert "<header" in response.text  # the site's own page, not Django's


@production
def test_a_private_game_reads_to_a_stranger_as_no_game():
    game = started_game(private=True)
    for client in (Client(), client_for(make_user())):
        private = client.get(game.get_absolute_url())
        nothing = client.get("/games/999999/")
        assert private.status_code == nothing.status_code == 404
        assert said(private, game.pk) == said(nothing, 999999)


@production
def test_an_unknown_address_is_a_friendly_404_for_an_anonymous_visitor():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    assert "There is no page at this address." in response.text
    assert ways_on(response.text)
    assert reverse("games:mine") not in response.text


def test_an_unknown_player_is_named_on_the_404():
    response = client_for(make_user()).get(reverse("profile", args=["nobody"]))
    assert response.status_code == 404
    assert "No player called nobody." in response.text
    assert ways_on(response.text)


@production
def test_an_unknown_players_name_is_escaped():
    name = "<b>x</b>"
    response = client_for(make_user()).get(f"/players/{name}/")
    assert response.status_code == 404  # the converter refuses it: still the friendly page
    assert "<b>x</b>" not in response.text
    assert "&lt;b&gt;x&lt;/b&gt;" in response.text


def test_a_strange_but_valid_name_is_escaped_on_the_profiles_404():
    response = client_for(make_user()).get(reverse("profile", args=["a+b@c.d"]))
    assert "No player called a+b@c.d." in response.text


@production
def test_an_unknown_edition_says_which_there_are():
    response = Client().get(reverse("rules-edition", args=["1999"]))
    assert response.status_code == 404
    assert "there are the 2010 and 2022 editions" in response.text


def test_the_server_error_page_needs_no_context():
    html = render_to_string("500.html")
    assert "Something went wrong on our side" in html
    assert "/games/" in html
    assert "<script" not in html

"""The invitation link, ready to hand on: a read-only field and a "Copy link" button worked by
the site's own script, which the content policy allows; without JavaScript, the field alone."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from factories import client_for, make_user, open_game
from test_headers import inline_code, policy

pytestmark = pytest.mark.django_db


def copy_field(page: str) -> str:
    found = re.search(r'<input type="text" id="invitation-link"[^>]*>', page)
    assert found, "no invitation field"
    return found.group(0)


def test_the_creator_gets_the_link_with_a_copy_button():
    game = open_game(private=True)
    response = client_for(game.seat0).get(game.get_absolute_url())
    page = response.text
    link = "http://testserver" + reverse("games:invitation", args=[game.invite_token])
    field = copy_field(page)
    assert f'value="{link}"' in field
    assert "readonly" in field
    assert re.search(
        r'<button type="button"[^>]*data-copy-target="invitation-link"[^>]*hidden>', page
    )
    assert "Copy link" in page
    assert '<script src="/static/js/copy.js" defer></script>' in page
    assert inline_code(page) == []
    assert policy(response)["script-src"] == ["'self'"]
    assert finders.find("js/copy.js")


def test_the_creator_finds_the_same_field_on_the_invitation_page():
    game = open_game(private=True)
    url = reverse("games:invitation", args=[game.invite_token])
    page = client_for(game.seat0).get(url).text
    assert f'value="http://testserver{url}"' in copy_field(page)
    assert "js/copy.js" in page


def test_the_invited_friend_sees_no_copy_field_but_an_accept_button():
    game = open_game(private=True)
    page = client_for(make_user()).get(reverse("games:invitation", args=[game.invite_token])).text
    assert 'id="invitation-link"' not in page
    assert "js/copy.js" not in page
    assert ">Accept</button>" in page


def test_a_public_seek_has_no_invitation_field():
    game = open_game()
    page = client_for(game.seat0).get(game.get_absolute_url()).text
    assert 'id="invitation-link"' not in page

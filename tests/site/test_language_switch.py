"""The footer's language switcher (POST /language/): a visitor's choice kept in a cookie, their
browser's Accept-Language heard on a first visit; a signed-in player's choice kept on their
account, so that it follows them to another device; a forged language refused; the form
guarded against cross-site requests like every other."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user

from games.models import PlayerSettings

pytestmark = pytest.mark.django_db

SWITCH = "/language/"


def language_of_page(response) -> str:
    assert response.status_code == 200
    return re.search(r'<html lang="(\w+)">', response.content.decode())[1]


def stored_language(user) -> str:
    row = PlayerSettings.objects.filter(user=user).first()
    return row.language if row else ""


# -- a visitor ----------------------------------------------------------------------------------


def test_every_page_has_the_switcher_in_its_footer_naming_the_three_languages():
    page = Client().get("/").content.decode()
    footer = page.split('<footer class="site">', 1)[1]
    assert f'action="{SWITCH}"' in footer
    assert 'name="language"' in footer
    for code in ("en", "fr", "pl"):
        assert f'<option value="{code}"' in footer


def test_a_first_visit_is_in_the_language_the_browser_asks_for():
    visitor = Client()
    response = visitor.get("/", HTTP_ACCEPT_LANGUAGE="pl-PL,pl;q=0.9,en;q=0.5")
    assert language_of_page(response) == "pl"
    assert response["Content-Language"] == "pl"
    assert "Zagraj teraz" in response.content.decode()
    assert "Accept-Language" in response["Vary"]


def test_a_browser_asking_for_a_language_the_site_lacks_gets_english():
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert language_of_page(response) == "en"
    assert "Play now" in response.content.decode()


def test_a_visitor_chooses_french_and_keeps_it_over_their_browsers_language():
    visitor = Client()
    answer = visitor.post(SWITCH, {"language": "fr", "next": reverse("leaderboards")})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("leaderboards")
    cookie = visitor.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr"
    assert cookie["samesite"] == "Lax"
    later = visitor.get("/", HTTP_ACCEPT_LANGUAGE="pl")
    assert language_of_page(later) == "fr"
    assert "Jouer maintenant" in html.unescape(later.content.decode())


def test_the_switcher_never_sends_a_visitor_to_another_site():
    answer = Client().post(SWITCH, {"language": "pl", "next": "https://elsewhere.example/"})
    assert answer.status_code == 302
    assert answer["Location"] == "/"


def test_a_forged_language_is_refused_and_nothing_is_kept():
    visitor = Client()
    answer = visitor.post(SWITCH, {"language": "xx", "next": "/"})
    assert answer.status_code == 400
    assert settings.LANGUAGE_COOKIE_NAME not in visitor.cookies
    assert language_of_page(visitor.get("/")) == "en"


def test_the_switcher_answers_only_a_post():
    assert Client().get(SWITCH, {"language": "fr"}).status_code == 405


# -- a signed-in player -------------------------------------------------------------------------


def test_a_players_choice_is_kept_on_their_account_and_follows_them_to_another_device():
    ann = make_user("ann")
    laptop = client_for(ann)
    assert laptop.post(SWITCH, {"language": "pl", "next": "/"}).status_code == 302
    assert stored_language(ann) == "pl"
    # Another device: a fresh session, no language cookie, a browser that asks for French.
    phone = client_for(ann)
    phone.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    assert phone.session.session_key != laptop.session.session_key
    assert settings.LANGUAGE_COOKIE_NAME not in phone.cookies
    page = phone.get(reverse("games:lobby"))
    assert language_of_page(page) == "pl"
    assert "Otwarte propozycje" in page.content.decode()


def test_a_players_stored_language_wins_over_a_cookie_left_by_another_choice():
    ann = make_user("ann")
    PlayerSettings.objects.update_or_create(user=ann, defaults={"language": "fr"})
    client = client_for(ann)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    assert language_of_page(client.get("/")) == "fr"


def test_a_forged_language_leaves_a_players_choice_as_it_was():
    ann = make_user("ann")
    PlayerSettings.objects.update_or_create(user=ann, defaults={"language": "fr"})
    client = client_for(ann)
    answer = client.post(SWITCH, {"language": "fr-xx", "next": "/"})
    assert answer.status_code == 400
    assert stored_language(ann) == "fr"
    assert language_of_page(client.get("/")) == "fr"


# -- cross-site requests ------------------------------------------------------------------------


def token_of(page) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())[1]


def test_a_choice_without_the_pages_csrf_token_is_refused():
    ann = make_user("ann")
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(ann)
    answer = guarded.post(SWITCH, {"language": "pl", "next": "/"})
    assert answer.status_code == 403
    assert stored_language(ann) == ""


def test_the_footers_form_carries_the_token_that_lets_the_choice_through():
    ann = make_user("ann")
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(ann)
    token = token_of(guarded.get("/"))
    answer = guarded.post(SWITCH, {"language": "pl", "next": "/", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert stored_language(ann) == "pl"


def test_choosing_a_language_keeps_a_new_players_vacation_allowance():
    ann = make_user("ann")
    assert not PlayerSettings.objects.filter(user=ann).exists()
    client_for(ann).post(SWITCH, {"language": "fr", "next": "/"})
    row = PlayerSettings.objects.get(user=ann)
    assert row.language == "fr"
    assert row.vacation_days == settings.VACATION_START_DAYS
    assert row.vacation_earned_at is not None

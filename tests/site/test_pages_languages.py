"""The pages around the games in the reader's language: a missing page, the server's error, the
rate limit, and the referee's pages in the staff member's own."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from factories import make_staff, play_randomly, staff_client_for, started_game

from games.models import PlayerSettings

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"
APOSTROPHE = "\u2019"


def in_language(language: str, client: Client | None = None) -> Client:
    client = client or Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@override_settings(DEBUG=False)
def test_a_missing_page_in_polish_says_where_to_go():
    page = in_language("pl").get("/games/424242/").text
    assert "<h1>Nie znaleziono</h1>" in page
    assert "Szukany adres: <span" in page
    assert "Poczekalnia</a>: załóż partię" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Un problème est survenu de notre côté"),
        ("pl", "Coś poszło nie tak po naszej stronie"),
    ],
)
def test_the_server_error_page_in_the_readers_language(language, words):
    with translation.override(language):
        page = render_to_string("500.html")
    assert f'<html lang="{language}">' in page
    assert words in page


def test_the_referees_form_in_french():
    staff = make_staff()
    PlayerSettings.objects.create(user=staff, language="fr")
    game = started_game()
    page = staff_client_for(staff).get(reverse("admin:games_game_referee", args=[game.pk])).text
    assert f"Décision d{APOSTROPHE}arbitrage sur la partie {game.pk}" in page
    assert f"Annuler la partie{NBSP}: pas de résultat" in page
    assert "Motif" in page
    assert f"Retour à la partie {game.pk}" in page


def test_the_review_in_polish_counts_its_actions_and_names_the_seats():
    staff = make_staff()
    PlayerSettings.objects.create(user=staff, language="pl")
    game = play_randomly(started_game(), 5)
    page = staff_client_for(staff).get(reverse("admin:games_game_review", args=[game.pk])).text
    assert f"Przegląd partii nr {game.pk} po akcji {game.seq}" in page
    assert f"Ziarno: {game.seed}" in page
    assert "(miejsce 0)" in page
    assert "Czasy ruchów" in page
    referee = staff_client_for(staff).get(reverse("admin:games_game_referee", args=[game.pk])).text
    assert f"{game.seq} {polish_actions(game.seq)}" in referee


def polish_actions(count: int) -> str:
    """1 akcja, 2-4 akcje (but 12-14 akcji), 5 and more akcji."""
    if count == 1:
        return "akcja"
    if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14):
        return "akcje"
    return "akcji"

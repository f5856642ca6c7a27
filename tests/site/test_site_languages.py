"""The platform's pages in French and Polish: the lobby, My games, a profile and the home page
read in the player's language, with the counts in each language's plural forms (Polish has
three: 1 minuta, 2 minuty, 5 minut, 22 minuty, 25 minut) and French typography."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from factories import client_for, finished_game, make_user, started_game

from games.models import Game, PlayerSettings

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 2, 10, 12, 0, tzinfo=UTC)
COUNTS = (1, 2, 5, 22, 25)


def speaking(language: str, name: str = "ann"):
    """A player whose account speaks ``language``."""
    user = make_user(name)
    PlayerSettings.objects.update_or_create(user=user, defaults={"language": language})
    return user


def read(response) -> str:
    """The page as a reader sees its words: entities undone."""
    assert response.status_code == 200
    return html.unescape(response.content.decode())


# -- the lobby --------------------------------------------------------------------------------

LOBBY = {
    "fr": [
        "<h1>Salon</h1>",
        "Propositions ouvertes",
        "Partie personnalisée",
        "Jouer contre l'ordinateur",
        "Qui commence",
        "3 jours par coup",
        "Parties en cours",
    ],
    "pl": [
        "<h1>Poczekalnia</h1>",
        "Otwarte propozycje",
        "Partia na własnych warunkach",
        "Zagraj z komputerem",
        "Kto zaczyna",
        "3 dni na ruch",
        "Trwające partie",
    ],
}
# When the games being played last moved, as the lobby's list says it.
MOVED = {
    "fr": ["il y a 1 minute", "il y a 2 minutes", "il y a 5 minutes", "il y a 22 minutes",
           "il y a 25 minutes"],
    "pl": ["1 minutę temu", "2 minuty temu", "5 minut temu", "22 minuty temu", "25 minut temu"],
}  # fmt: skip


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_lobby_speaks_the_players_language_and_counts_minutes_in_its_plurals(language):
    with time_machine.travel(NOW, tick=False):
        for minutes in COUNTS:
            game = started_game(make_user(), make_user())
            Game.objects.filter(pk=game.pk).update(updated_at=NOW - timedelta(minutes=minutes))
        page = read(client_for(speaking(language)).get(reverse("games:lobby")))
    for words in LOBBY[language] + MOVED[language]:
        assert words in page
    for english in ("Open seeks", "Custom game", "Play the computer", "minutes ago"):
        assert english not in page
    assert f'<html lang="{language}">' in page


# -- My games -----------------------------------------------------------------------------------

TIME_LEFT = {
    "fr": ["1 minute", "2 minutes", "5 minutes", "22 minutes", "25 minutes"],
    "pl": ["1 minuta", "2 minuty", "5 minut", "22 minuty", "25 minut"],
}
MY_GAMES = {
    "fr": [
        "<h1>Mes parties</h1>",
        "Temps restant",
        "Expire le",
        "à vous",
        "1 jour par coup",
        ">10 février, 12:01 UTC</time>",
    ],
    "pl": [
        "<h1>Moje partie</h1>",
        "Pozostały czas",
        "Upływa",
        "twój ruch",
        "1 dzień na ruch",
        ">10 lutego, 12:01 UTC</time>",
    ],
}


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_my_games_says_the_time_left_in_the_players_language(language):
    """Five correspondence games of a day a move, each begun so that 1, 2, 5, 22 and 25
    minutes are left now on the clock of the player to move."""
    ann = speaking(language)
    for minutes in COUNTS:
        with time_machine.travel(NOW - timedelta(days=1, minutes=-minutes), tick=False):
            started_game(ann, make_user(), time_control="1d")
    with time_machine.travel(NOW, tick=False):
        page = read(client_for(ann).get(reverse("games:mine")))
    for words in MY_GAMES[language]:
        assert words in page
    cells = [cell.split("<", 1)[0] for cell in page.split('<td class="time-left">')[1:]]
    assert sorted(cells, key=lambda c: int(c.split()[0])) == TIME_LEFT[language]
    assert "<strong>your move</strong>" not in page
    assert "Time left" not in page


# -- a profile ----------------------------------------------------------------------------------

PROFILE = {
    "fr": ["1 gagnée · 2 perdues · 5 partagées", "Classements", "Résultats",
           "Par jeu et par édition", "Parties terminées", "Partie "],
    "pl": ["1 wygrana · 2 przegrane · 5 remisów", "Rankingi", "Wyniki", "Według gry i edycji",
           "Zakończone partie", "Partia "],
}  # fmt: skip
RESULTS = {"fr": ("gagnée", "perdue", "partagée"), "pl": ("wygrana", "przegrana", "remis")}


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_a_profile_counts_its_results_in_the_readers_language(language):
    ann, bob = make_user("ann"), make_user("bob")
    for winners, times in (([0], 1), ([1], 2), ([0, 1], 5)):
        for _ in range(times):
            finished_game(ann, bob, winners=winners, scores=[30, 30])
    reader = speaking(language, "reader")
    page = read(client_for(reader).get(reverse("profile", args=["ann"])))
    for words in PROFILE[language]:
        assert words in page
    won, lost, shared = RESULTS[language]
    assert f": {won}, 30 \u2013 30" in page
    assert f": {lost}, 30 \u2013 30" in page
    assert f": {shared}, 30 \u2013 30" in page
    assert "1 won" not in page
    assert "Finished games" not in page


def test_a_profile_in_english_still_says_won_lost_and_shared():
    ann, bob = make_user("ann"), make_user("bob")
    finished_game(ann, bob, winners=[0], scores=[30, 20])
    page = read(Client().get(reverse("profile", args=["ann"])))
    assert "1 won · 0 lost · 0 shared" in page


# -- the home page ------------------------------------------------------------------------------

HOME = {
    "fr": ["Jouer maintenant", "Comment jouer, en une minute", "Regarder toutes les parties en cours",
           "Basilica\u00a0: ann contre bob, au tour de ann", "Inscrivez-vous ou connectez-vous"],
    "pl": ["Zagraj teraz", "Jak grać \u2013 w minutę", "Obserwuj wszystkie trwające partie",
           "Basilica: ann \u2013 bob, ruch gracza ann", "Zarejestruj się albo zaloguj"],
}  # fmt: skip


@pytest.mark.parametrize("language", ["fr", "pl"])
def test_the_home_page_greets_a_visitor_in_their_language(language):
    started_game(make_user("ann"), make_user("bob"))
    visitor = Client()
    visitor.cookies["django_language"] = language
    page = read(visitor.get("/"))
    for words in HOME[language]:
        assert words in page
    assert f'<html lang="{language}">' in page
    assert "How to play, in a minute" not in page


def test_french_puts_a_no_break_space_before_its_colons_and_question_marks():
    ann = speaking("fr")
    game = started_game(ann, make_user("bob"), time_control="3d")
    page = read(client_for(ann).get(game.get_absolute_url()))
    assert "Annuler cette partie\u00a0? Elle se termine sans résultat\u00a0;" in page
    assert "Pendule en marche\u00a0:" in page

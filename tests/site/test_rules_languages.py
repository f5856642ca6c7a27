"""The rules pages in the player's language: a French player reads Basilica's rules in the words
of the 2010 French rulebook, a Polish player in those of the 2022 Polish rulebook, each with the
rulings the site plays by; Cathedral's page in the same languages; the page says its language,
and an English reader still reads English."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.kinds.basilica import help as words

pytestmark = pytest.mark.django_db

NBSP = "\u00a0"


def fetch(url: str, accept: str | None = None, cookie: str | None = None) -> str:
    """The page as a visitor gets it, asking for a language by their browser or by the cookie
    the footer's switcher sets."""
    client = Client(HTTP_ACCEPT_LANGUAGE=accept) if accept else Client()
    if cookie:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    response = client.get(url)
    assert response.status_code == 200
    return response.text


def read(page: str) -> str:
    """What a reader reads: the text without its tags, spaces as one (French's non-breaking
    spaces too, so that a sentence can be looked for as written)."""
    text = html.unescape(re.sub(r"<[^>]+>", " ", page)).replace(NBSP, " ")
    return re.sub(r"\s+", " ", text)


def language_of(page: str) -> str:
    return re.search(r'<html lang="([^"]+)"', page).group(1)


def page_section(text: str, start: str, end: str) -> str:
    return text.split(start, 1)[1].split(end, 1)[0]


def basilica(edition: str, **asked) -> str:
    return fetch(reverse("rules-edition", args=[edition]), **asked)


def cathedral(**asked) -> str:
    return fetch(reverse("rules-kind", args=["cathedral"]), **asked)


# -- Basilica in French: the 2010 French rulebook's words ------------------------------------


def test_a_french_browser_reads_basilica_in_the_french_rulebooks_words():
    page = basilica("2010", accept="fr-FR,fr;q=0.9,en;q=0.5")
    assert language_of(page) == "fr"
    text = read(page)
    assert "Les règles de Basilica, édition 2010" in text
    # The actions and the orders, as the rulebook names them.
    for term in (
        "Placer une voûte",
        "Placer un bâtisseur",
        "Exécuter une consigne",
        "Promouvoir",
        "Déplacer un Bâtisseur",
        "Recruter",
        "Confondre",
        "Vitrail",
        "Échafaudage",
        "Catastrophe",
        "Architecte",
        "Maître maçon",
        "Hercule",
        "piste de score",
        "Consigne rémunérée par l'adversaire",
    ):
        assert term in text, term
    # Sentences the rulebook says the same way.
    for sentence in (
        "Placez un bâtisseur de votre réserve sur n'importe quelle tuile voûte inoccupée dans la "
        "cathédrale.",
        "sans regarder quel joueur a la majorité",
        "Si une zone possède plusieurs Architectes, leurs effets ne sont pas cumulatifs",
        "mais comme un seul bâtisseur lors du décompte des points du joueur en minorité",
    ):
        assert sentence in text, sentence
    assert "Le joueur 1 est en foncé, le joueur 2 en clair." in text
    assert "Place Vault" not in text
    assert "The orders" not in text


def test_the_french_page_says_the_rulings_the_site_plays_by():
    text = read(basilica("2022", accept="fr"))
    # Confuse is judged before your own builder leaves (RULINGS.md §5).
    assert (
        "Cette consigne ne peut être sélectionnée que si un bâtisseur de l'adversaire peut être "
        "déplacé au moment où vous la choisissez, avant que votre bâtisseur ne parte" in text
    )
    # The second altar is not optional.
    assert "le second n'est pas facultatif" in text
    # The stack lies order side up.
    assert "la pile est posée côté consigne visible" in text


def test_the_french_page_keeps_french_typography():
    page = basilica("2010", accept="fr")
    assert f"Coût{NBSP}:" in page
    assert f"Éditions{NBSP}:" in page
    rules = page.split('<div class="rules">')[1].split("<footer")[0]
    assert " :" not in read(rules.replace(NBSP, "\u2060"))  # no plain space before a colon


def test_the_2022_edition_in_french_has_the_queen_and_the_jester():
    text = read(basilica("2022", accept="fr"))
    assert "L'édition 2022 a la reine et ajoute le rang de Bouffon." in text
    ranks = page_section(text, "Promouvoir donne à un bâtisseur", "Décompte La piste de score")
    assert "Bouffon Juste avant chaque décompte, le propriétaire du Bouffon" in ranks
    assert "déplace la reine" in text
    assert "déplace le roi" not in text


# -- Basilica in Polish: the 2022 Polish rulebook's words ------------------------------------


def test_a_polish_player_reads_basilica_in_the_polish_rulebooks_words():
    page = basilica("2022", cookie="pl")
    assert language_of(page) == "pl"
    text = read(page)
    assert "Zasady gry Basilica, edycja 2022" in text
    for term in (
        "Umieszczenie Sklepienia",
        "Umieszczenie Budowniczego",
        "Wykonanie Rozkazu",
        "Szkolenie",
        "Przemieszczenie Budowniczego",
        "Rekrutacja",
        "Zamieszanie",
        "Witraż",
        "Rusztowanie",
        "Katastrofa",
        "Ołtarz",
        "Architekt",
        "Mistrz Murarski",
        "Osiłek",
        "Kuglarz",
        "pion Królowej",
        "Tor Punktacji",
        "Płatny Rozkaz",
        "żeton Szkolenia",
    ):
        assert term in text, term
    for sentence in (
        "Umieść pion Budowniczego ze swoich zasobów na dowolnym niezajętym kafelku Sklepienia "
        "w Bazylice.",
        "niezależnie od tego, który gracz ma w nim przewagę",
        "Efekty kilku Architektów nie kumulują się",
        "kolor każdego Kuglarza jest wybierany w tajemnicy przed przeciwnikiem",
        "Na kafelku Sklepienia nigdy nie może znajdować się więcej niż jeden Budowniczy",
        "Obszar to grupa sąsiadujących ze sobą kafelków Sklepienia w jednym kolorze",
    ):
        assert sentence in text, sentence
    assert "Place Vault" not in text
    assert "Paid order" not in text


def test_the_polish_worked_example_counts_in_polish():
    text = read(basilica("2022", accept="pl"))
    table = text.split("Przykład krok po kroku")[1].split("Dalsza gra po Punktowaniu")[0]
    assert "Żółty obszar z 5 kafelków, siła 2 do 1: Gracz 1 ma przewagę i otrzymuje 12 punktów" in (
        table
    )
    assert "Gracz 1 wygrywa remis dzięki Osiłkowi i otrzymuje 3 punkty (3 kafelki)" in table
    assert "Gracz 2 otrzymuje 1 punkt za 1 Budowniczego" in table
    assert "(Mistrz Murarski liczy się tu jako jeden)" in table


def test_the_polish_page_says_the_rulings_the_site_plays_by():
    text = read(basilica("2022", accept="pl"))
    assert "zanim Twój Budowniczy zejdzie z Bazyliki" in text
    assert "drugi Ołtarz nie jest opcjonalny" in text
    assert "stos leży stroną Rozkazu ku górze" in text


def test_the_2010_edition_in_polish_has_the_king():
    text = read(basilica("2010", accept="pl"))
    assert "przesuwa pion Króla" in text
    assert "Królowej" not in text
    assert "Edycja 2010 nie ma Kuglarza" in text


# -- Cathedral ----------------------------------------------------------------------------------


def test_cathedral_in_french():
    page = cathedral(accept="fr")
    assert language_of(page) == "fr"
    text = read(page)
    assert "Les règles de Cathedral" in text
    assert "Les Clairs placent la Cathédrale n'importe où dans la cité." in text
    assert "cette partie devient votre territoire" in text
    assert "La variante de Tom Lehman" in text
    assert "Versions des règles" in text
    assert "The city and the buildings" not in text


def test_cathedral_in_polish():
    page = cathedral(cookie="pl")
    assert language_of(page) == "pl"
    text = read(page)
    assert "Zasady gry Cathedral" in text
    assert "Jasny umieszcza Katedrę w dowolnym miejscu miasta." in text
    assert "ta część staje się Twoim terytorium" in text
    assert "Wariant Toma Lehmana" in text
    assert "Wersje zasad" in text
    assert "Tom Lehman's variant" not in text


# -- English stays English ----------------------------------------------------------------------


@pytest.mark.parametrize("asked", [{}, {"accept": "en-GB,en;q=0.8"}, {"cookie": "en"}])
def test_english_is_still_english(asked):
    page = basilica("2022", **asked)
    assert language_of(page) == "en"
    text = read(page)
    assert "The rules of Basilica, 2022 edition" in text
    assert "Place Vault" in text
    assert "consigne" not in text
    assert "Rozkaz" not in text
    assert "Robert P. Moore's game of a walled city" in read(cathedral(**asked))


# -- the words of help, said in the active language --------------------------------------------


def test_the_help_is_said_in_each_language_in_turn():
    """The help is kept once said, per language: a French reader after a Polish one reads
    French."""
    said = {}
    for language in ("pl", "fr", "en", "pl"):
        with translation.override(language):
            said[language] = (
                words.order_help("recruit", "2010", paid=True),
                words.vault_help("YB", crown=True, edition="2010"),
                words.track_caption("2022", [10, 20, 30]),
                [entry["name"] for entry in words.legend("2010", expansion=True)],
            )
    recruit, wild, track, names = said["fr"]
    assert recruit.startswith("Placez un bâtisseur de votre réserve")
    assert "icône pièce de monnaie ¢ de cette tuile" in recruit
    assert wild.startswith("Une voûte Joker jaune et bleue")
    assert "déplace le roi" in wild
    assert track.startswith("La piste de score.")
    assert "Le roi" in names
    assert "Autel" in names
    recruit, wild, track, names = said["pl"]
    assert recruit.startswith("Umieść pion Budowniczego")
    assert wild.startswith("Joker żółto-niebieski")
    assert "pion Króla" in wild
    assert track.startswith("Tor Punktacji.")
    assert "Król" in names
    assert "Ołtarz" in names
    assert said["en"][0].startswith("Put a builder from your supply")


@pytest.mark.parametrize(
    ("count", "tiles", "points", "builders"),
    [
        (1, "1 kafelek", "1 punkt", "1 Budowniczego"),
        (2, "2 kafelki", "2 punkty", "2 Budowniczych"),
        (5, "5 kafelków", "5 punktów", "5 Budowniczych"),
        (22, "22 kafelki", "22 punkty", "22 Budowniczych"),
        (25, "25 kafelków", "25 punktów", "25 Budowniczych"),
    ],
)
def test_a_scored_area_counts_in_polish(count, tiles, points, builders):
    area = {
        "color": "G",
        "cells": [[0, row] for row in range(count)],
        "strength": [count + 1, count],
        "builders": [1, count],
        "architect": False,
        "glass": 0,
        "value": count,
        "winner": 0,
        "points": [count, count],
    }
    with translation.override("pl"):
        told = words.area_explained(area, ["ania", "bartek"])
    assert told.startswith("Zielony obszar z ")
    assert f"ania ma przewagę i otrzymuje {points} ({tiles})" in told
    assert f"bartek otrzymuje {points} za {builders}" in told

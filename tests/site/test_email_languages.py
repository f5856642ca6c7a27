"""Emails in their recipient's language and time zone, whoever's move wrote them: Zofia reads
Polish in Warsaw, Étienne French in Montréal, and alice, who plays them both, English. And the
account pages, forms and errors in the reader's language.

Alice always moves first; the game starts on Monday 3 March 2025 at 09:00 UTC, and a decision
of a 3-day game runs to Thursday 09:00 UTC: 10:00 in Warsaw (CET), 04:00 in Montréal (EST).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from factories import first_legal, make_user, play, started_game

from games.correspondence import notify
from games.models import Game, Notification, PlayerSettings

pytestmark = pytest.mark.django_db

MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
NBSP = "\u00a0"
APOSTROPHE = "\u2019"  # French typography's apostrophe


@pytest.fixture(autouse=True)
def the_site(settings):
    settings.SITE_URL = "http://basilica.example"
    settings.NOTIFY_DELAY_SECONDS = 0


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def reader(name: str, language: str = "", zone: str = "", **choices):
    user = make_user(name, email=f"{name}@example.com")
    PlayerSettings.objects.create(user=user, language=language, time_zone=zone, **choices)
    return user


@pytest.fixture
def alice():
    return reader("alice")


@pytest.fixture
def zofia():
    return reader("zofia", "pl", "Europe/Warsaw", email_daily_digest=True)


@pytest.fixture
def etienne():
    return reader("etienne", "fr", "America/Montreal", email_daily_digest=True)


def hand_over(game: Game) -> Game:
    seat = game.to_decide
    while game.to_decide == seat:
        game = play(game, [first_legal(game)])
    return game


def your_turn_email(alice, player, committed, mailoutbox):
    with time_machine.travel(MONDAY, tick=False):
        game = started_game(alice, player, time_control="3d")
        with committed():
            hand_over(game)
    [mail] = mailoutbox
    return game, mail


# -- "your turn" -------------------------------------------------------------------------------


def test_zofia_reads_her_turn_in_polish_with_the_deadline_in_warsaw(
    alice, zofia, committed, mailoutbox
):
    game, mail = your_turn_email(alice, zofia, committed, mailoutbox)
    assert mail.subject == f"Twój ruch w partii z alice (partia nr {game.pk})"
    assert mail.body.startswith("Cześć zofia,\n\n")
    assert f"Twój ruch w partii nr {game.pk} z alice." in mail.body
    assert "Na tę decyzję masz czas do 6 marca 2025, 10:00 CET." in mail.body
    assert "Wykonaj ruch: http://basilica.example/games/" in mail.body
    assert "bo zofia ma włączone e-maile „twój ruch”." in mail.body


def test_etienne_reads_his_turn_in_french_with_the_deadline_in_montreal(
    alice, etienne, committed, mailoutbox
):
    game, mail = your_turn_email(alice, etienne, committed, mailoutbox)
    assert mail.subject == f"À vous de jouer contre alice (partie {game.pk})"
    assert mail.body.startswith("Bonjour etienne,\n\n")
    assert f"C{APOSTROPHE}est à vous de jouer dans la partie {game.pk} contre alice." in mail.body
    assert f"Vous avez jusqu{APOSTROPHE}au 6 mars 2025, 04:00 EST pour cette décision." in mail.body
    assert f"Jouer votre coup{NBSP}: http://basilica.example/games/" in mail.body
    assert f"les e-mails «{NBSP}à vous de jouer{NBSP}» sont activés pour etienne." in mail.body


def test_a_player_who_chose_no_language_nor_zone_reads_english_and_utc(
    alice, committed, mailoutbox
):
    bob = reader("bob")
    game, mail = your_turn_email(alice, bob, committed, mailoutbox)
    assert mail.subject == f"Your turn against alice (game {game.pk})"
    assert "Your time for this decision runs until 6 March 2025, 09:00 UTC." in mail.body


def test_the_email_is_written_in_its_readers_language_not_the_movers(
    alice, zofia, committed, mailoutbox
):
    """Alice's request is in English and her zone (her move activates them): Zofia's email is
    in Polish and Warsaw's time, and the request goes on in English and Alice's zone after it."""
    with translation.override("en"), timezone.override(ZoneInfo("America/Los_Angeles")):
        your_turn_email(alice, zofia, committed, mailoutbox)
        assert translation.get_language() == "en"
        assert timezone.get_current_timezone_name() == "America/Los_Angeles"
    assert mailoutbox[0].subject.startswith("Twój ruch")


def test_the_record_of_an_email_keeps_its_words_as_sent(alice, etienne, committed, mailoutbox):
    _game, mail = your_turn_email(alice, etienne, committed, mailoutbox)
    note = Notification.objects.get()
    assert (note.subject, note.body) == (mail.subject, mail.body)


# -- the digest ----------------------------------------------------------------------------------


def digest_for(player, games) -> tuple[str, str]:
    prefs = PlayerSettings.objects.get(user=player)
    with notify.writing_to(prefs):
        return notify.compose(player, Notification.Kind.DAILY_DIGEST, None, games=games)


@pytest.fixture
def waiting(alice, zofia):
    """A 3-day game in which zofia must decide, as Monday ends in Warsaw."""
    with time_machine.travel(MONDAY, tick=False):
        return hand_over(started_game(alice, zofia, time_control="3d"))


POLISH_COUNTS = {
    1: ("1 partia czeka na Twój ruch", "Na Twój ruch czeka 1 partia:"),
    2: ("2 partie czekają na Twój ruch", "Na Twój ruch czekają 2 partie, najpilniejsze"),
    5: ("5 partii czeka na Twój ruch", "Na Twój ruch czeka 5 partii, najpilniejsze"),
    22: ("22 partie czekają na Twój ruch", "Na Twój ruch czekają 22 partie, najpilniejsze"),
    25: ("25 partii czeka na Twój ruch", "Na Twój ruch czeka 25 partii, najpilniejsze"),
}


@pytest.mark.parametrize("count", sorted(POLISH_COUNTS))
def test_the_polish_digest_counts_its_games_in_polish_plurals(zofia, waiting, count):
    subject, body = digest_for(zofia, [waiting] * count)
    said, listed = POLISH_COUNTS[count]
    assert subject == said
    assert listed in body


@pytest.mark.parametrize(
    ("count", "said"),
    [(1, "1 partie attend votre coup"), (2, "2 parties attendent votre coup")],
)
def test_the_french_digest_counts_its_games_in_french(etienne, alice, count, said):
    with time_machine.travel(MONDAY, tick=False):
        game = hand_over(started_game(alice, etienne, time_control="3d"))
    subject, body = digest_for(etienne, [game] * count)
    assert subject == said
    assert f"{said}{NBSP}:" in body or f"{said}, la plus pressée en premier{NBSP}:" in body


def test_the_polish_digest_gives_time_left_and_the_deadline_in_warsaw(zofia, waiting):
    with time_machine.travel(datetime(2025, 3, 4, 6, 0, tzinfo=UTC), tick=False):  # 07:00 CET
        _subject, body = digest_for(zofia, [waiting])
    line = (
        f"- Partia nr {waiting.pk} z alice: pozostały czas 2 dni 3 godziny "
        "(do 6 marca 2025, 10:00 CET)"
    )
    assert line in body
    assert body.startswith("Cześć zofia,\n\n")
    assert "Wszystkie Twoje partie: http://basilica.example/games/mine/" in body
    assert "e-maile „codzienne podsumowanie”" in body


def test_the_french_digest_gives_time_left_and_the_deadline_in_montreal(alice, etienne):
    with time_machine.travel(MONDAY, tick=False):
        game = hand_over(started_game(alice, etienne, time_control="3d"))
    with time_machine.travel(datetime(2025, 3, 4, 12, 0, tzinfo=UTC), tick=False):  # 07:00 EST
        _subject, body = digest_for(etienne, [game])
    line = (
        f"- Partie {game.pk} contre alice{NBSP}: il reste 1 jour 21 heures "
        f"(jusqu{APOSTROPHE}au 6 mars 2025, 04:00 EST)"
    )
    assert line in body


# -- signing up, logging in ----------------------------------------------------------------------


def in_language(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_the_login_page_in_french():
    page = in_language("fr").get(reverse("login")).text
    assert "<title>Se connecter · Basilica</title>" in page
    assert f"Nom d{APOSTROPHE}utilisateur" in page  # Django's own words, in Django's French
    assert f"Mot de passe oublié{NBSP}?" in page
    assert "<h1>Se connecter</h1>" in page


def test_the_login_page_in_polish_from_the_browsers_language():
    page = Client(HTTP_ACCEPT_LANGUAGE="pl,en;q=0.5").get(reverse("login")).text
    assert '<html lang="pl">' in page
    assert "<h1>Zaloguj się</h1>" in page
    assert "Nazwa użytkownika" in page
    assert "Nie pamiętasz hasła?" in page


def test_a_wrong_password_is_refused_in_polish():
    make_user("zofia")
    response = in_language("pl").post(
        reverse("login"), {"username": "zofia", "password": "not hers"}
    )
    assert "Wprowadź poprawne wartości pól nazwa użytkownika oraz hasło." in response.text


def test_the_signup_page_in_french_and_its_errors():
    client = in_language("fr")
    assert f"<h1>S{APOSTROPHE}inscrire</h1>" in client.get(reverse("signup")).text
    response = client.post(
        reverse("signup"),
        {"username": "computer-ann", "email": "a@example.com", "password1": "x", "password2": "y"},
    )
    assert response.status_code == 400
    assert "Les noms qui commencent par «" in response.text
    assert "Les deux mots de passe ne correspondent pas." in response.text


def test_the_signup_page_in_polish_refuses_a_computers_name():
    client = in_language("pl")
    assert "Masz już konto?" in client.get(reverse("signup")).text
    response = client.post(
        reverse("signup"),
        {"username": "computer-ann", "email": "a@example.com", "password1": "x", "password2": "x"},
    )
    assert "Nazwy zaczynające się od „computer-”" in response.text


def test_a_player_who_signs_up_in_polish_gets_polish_emails(alice, committed, mailoutbox):
    password = "a cathedral of many colours"
    response = in_language("pl").post(
        reverse("signup"),
        {
            "username": "zosia",
            "email": "zosia@example.com",
            "password1": password,
            "password2": password,
            "time_zone": "Europe/Warsaw",
        },
    )
    assert response.status_code == 302
    zosia = PlayerSettings.objects.get(user__username="zosia")
    assert (zosia.language, zosia.time_zone) == ("pl", "Europe/Warsaw")
    game, mail = your_turn_email(alice, zosia.user, committed, mailoutbox)
    assert mail.subject == f"Twój ruch w partii z alice (partia nr {game.pk})"


def test_the_password_reset_pages_in_french():
    client = in_language("fr")
    page = client.get(reverse("password_reset")).text
    assert "<h1>Réinitialiser votre mot de passe</h1>" in page
    done = client.get(reverse("password_reset_done")).text
    assert "Consultez vos e-mails" in done


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Trop de mots de passe erronés"), ("pl", "Spróbuj ponownie za 15 minut.")],
)
def test_the_locked_out_page_speaks_the_readers_language(language, words):
    make_user("zofia")
    client = in_language(language)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "zofia", "password": "no"})
    assert response.status_code == 429
    assert words in response.text


def test_a_players_zone_and_quiet_hours_are_read_in_it():
    night_owl = PlayerSettings(time_zone="Europe/Warsaw", quiet_from=22, quiet_until=8)
    assert night_owl.quiet_at(datetime(2025, 3, 3, 21, 0, tzinfo=UTC))  # 22:00 in Warsaw
    assert night_owl.quiet_at(datetime(2025, 3, 4, 6, 59, tzinfo=UTC))  # 07:59
    assert not night_owl.quiet_at(datetime(2025, 3, 4, 7, 0, tzinfo=UTC))  # 08:00
    assert not night_owl.quiet_at(datetime(2025, 3, 3, 20, 59, tzinfo=UTC))  # 21:59
    lunch = PlayerSettings(quiet_from=12, quiet_until=14)  # no zone: UTC
    assert lunch.quiet_at(datetime(2025, 3, 3, 13, 30, tzinfo=UTC))
    assert not lunch.quiet_at(datetime(2025, 3, 3, 14, 0, tzinfo=UTC))
    assert not PlayerSettings().quiet_at(datetime(2025, 3, 3, 3, 0, tzinfo=UTC))
    assert not PlayerSettings(quiet_from=5, quiet_until=5).quiet_at(MONDAY)
    assert PlayerSettings(time_zone="Nowhere/Atlantis").zone() == UTC


def test_every_email_template_is_rendered_in_each_language(alice, zofia, etienne):
    """No English left in a rendered email: every line of the body is the reader's language."""
    with time_machine.travel(MONDAY, tick=False):
        game = hand_over(started_game(alice, zofia, time_control="3d"))
    prefs = PlayerSettings.objects.get(user=zofia)
    for kind in (Notification.Kind.YOUR_TURN, Notification.Kind.TIME_RUNNING_OUT):
        with notify.writing_to(prefs):
            subject, body = notify.compose(zofia, kind, game)
        text = re.sub(r"https?://\S+", "", subject + body)
        assert not re.search(r"\b(the|your|game|against|left|Hello)\b", text), text

"""Bad options for a new game, as a forged lobby form or a direct call sends them: each is
refused in a sentence a player can read (a 400 with the form or the lobby, or UnplayableSettings
from the service), never a server error or Python's own words, and no game is stored."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse
from factories import client_for, lobby_form, make_user

from games import kinds
from games.models import Game
from games.play import services
from games.terms import GameSettings, UnplayableSettings

pytestmark = pytest.mark.django_db

GOOD = {"first": "me", "time_control": "none"}
# A forged form: the kind posted and its fields.
FORGED = {
    "unknown kind": ("chess", {}),
    "no kind": ("", {}),
    "unknown edition": ("basilica", {"edition": "1999"}),
    "unknown time control": ("basilica", {"edition": "2022", "time_control": "9d"}),
    "a time control with a NUL": ("cathedral", {"time_control": "5+3\x00"}),
    "first is nonsense": ("cathedral", {"first": "nonsense"}),
    "a series the kind lacks": ("cathedral", {"series": "3"}),
    "a series that is no number": ("cathedral", {"series": "two"}),
    "a rating range not offered": ("basilica", {"edition": "2022", "rating_range": "50"}),
    "a rating range that is no number": ("cathedral", {"rating_range": "wide"}),
}
PYTHON_WORDS = re.compile(r"KeyError|Traceback|object at 0x|\b[A-Z]\w+(Error|Exception)\b")
# Where a refused form's words are: the messages above the page, a field's or a form's errors.
REFUSALS = re.compile(
    r'<ul class="(?:messages|errorlist)[^"]*"[^>]*>.*?</ul>|<p class="error"[^>]*>.*?</p>', re.S
)


def refusal_text(response) -> str:
    """The words of the refusal on a page, without their markup: what a player reads."""
    found = " ".join(REFUSALS.findall(response.text))
    return html.unescape(re.sub(r"<[^>]+>", " ", found)).strip()


def assert_said_for_a_player(text: str) -> None:
    assert text, "the page gives no reason"
    assert not PYTHON_WORDS.search(text), text
    # No repr of a Python value: a quoted word is the sign of an exception's own message.
    assert not re.search(r"'[^'\s]*'|\\x|\\u", text), text
    assert re.search(r"[.:!?]", text), text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", text), text


def forged_form(kind: str, fields: dict, against_computer: bool) -> dict:
    form = lobby_form(kind, **{**GOOD, **fields}) if kind else {"kind": ""}
    if against_computer:
        form = {k.replace(f"{kind}-", f"computer-{kind}-", 1): v for k, v in form.items()}
        form["level"] = "random"
    return form


@pytest.mark.parametrize("against_computer", [False, True], ids=["seek", "computer"])
@pytest.mark.parametrize("case", FORGED, ids=FORGED)
def test_a_forged_lobby_form_is_refused_in_a_sentence_and_stores_no_game(case, against_computer):
    kind, fields = FORGED[case]
    client = client_for(make_user())
    client.raise_request_exception = False
    url = reverse("games:computer" if against_computer else "games:create")
    response = client.post(url, forged_form(kind, fields, against_computer))
    assert response.status_code == 400
    assert_said_for_a_player(refusal_text(response))
    assert not Game.objects.exists()


def test_a_refused_form_against_the_computer_comes_back_with_its_choices_and_errors():
    form = forged_form("cathedral", {"first": "nonsense", "lehman": "on"}, against_computer=True)
    response = client_for(make_user()).post(reverse("games:computer"), form)
    assert response.status_code == 400
    page = response.text
    assert '<details class="new-game" id="computer-cathedral" open>' in page
    assert 'name="computer-cathedral-lehman" id="id_computer-cathedral-lehman" checked' in page
    assert "That is not one of the choices offered" in refusal_text(response)


def test_an_unknown_level_of_the_computer_is_refused_in_a_sentence():
    form = forged_form("basilica", {"edition": "2022"}, against_computer=True)
    response = client_for(make_user()).post(reverse("games:computer"), {**form, "level": "god"})
    assert response.status_code == 400
    assert_said_for_a_player(refusal_text(response))
    assert not Game.objects.exists()


# -- a direct call of the service or of a kind's new_options ------------------------------------

DIRECT = {
    "unknown kind": GameSettings(kind="chess"),
    "a kind that is no text": GameSettings(kind=["basilica"]),
    "unknown edition": GameSettings(kind="basilica", options={"edition": "1999"}),
    "edition of the wrong type": GameSettings(kind="basilica", options={"edition": 2022}),
    "expansion of the wrong type": GameSettings(kind="basilica", options={"expansion": "no"}),
    "remove_six without the expansion": GameSettings(kind="basilica", options={"remove_six": True}),
    "an option the kind lacks": GameSettings(kind="cathedral", options={"edition": "2022"}),
    "lehman of the wrong type": GameSettings(kind="cathedral", options={"lehman": "yes"}),
    "options that are no mapping": GameSettings(kind="cathedral", options=["lehman"]),
    "unknown time control": GameSettings(time_control="9d"),
    "a time control that is no text": GameSettings(time_control=3),
    "first is nonsense": GameSettings(first="nonsense"),
    "a series the kind lacks": GameSettings(kind="cathedral", series=3),
    "a series of a kind without any": GameSettings(kind="basilica", series=2),
    "a rating range not offered": GameSettings(time_control="5+3", rated=True, rating_range=50),
}


@pytest.mark.parametrize("case", DIRECT, ids=DIRECT)
def test_bad_settings_given_to_the_service_are_refused_in_a_sentence(case):
    with pytest.raises(UnplayableSettings) as refused:
        services.create_game(make_user(), DIRECT[case])
    assert_said_for_a_player(str(refused.value))
    sentence = str(refused.value)
    assert sentence[0].isupper()
    assert sentence.endswith(".")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("kind", "choices", "first"),
    [
        ("basilica", {"edition": "1999"}, 0),
        ("basilica", {"edition": None}, 0),
        ("basilica", {"expansion": "no"}, 0),
        ("basilica", {}, 2),
        ("cathedral", {"lehman": 1}, 0),
        ("cathedral", {"light": 0}, 0),
        ("cathedral", {}, "0"),
    ],
)
def test_a_kinds_new_options_refuses_bad_choices_in_a_sentence(kind, choices, first):
    with pytest.raises(UnplayableSettings) as refused:
        kinds.get(kind).new_options(choices, first)
    assert_said_for_a_player(str(refused.value))

"""A player downloads their own data from Settings: one JSON file of their account, settings,
games, notes and prepared lines, and nothing of anyone else's, nor any secret."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, open_game, started_game

from games.correspondence import notes
from games.models import ConditionalLine, Game, PlayerSettings
from games.play import services

pytestmark = pytest.mark.django_db

MY_DATA = reverse("my-data")


@pytest.fixture
def ann():
    return make_user("ann", email="ann@example.org")


def download(user):
    return client_for(user).get(MY_DATA)


def data_of(user) -> dict:
    answer = download(user)
    assert answer.status_code == 200
    return json.loads(answer.content)


def prepared_line(game: Game, user, moves: list) -> ConditionalLine:
    return ConditionalLine.objects.create(
        game=game, user=user, seat=game.seat_of(user), base_seq=game.seq, moves=moves
    )


def test_settings_offers_the_download(ann):
    page = client_for(ann).get(reverse("settings"))
    assert "Download my data" in page.text
    assert f'href="{MY_DATA}"' in page.text


def test_the_data_comes_as_a_json_file_to_keep(ann):
    answer = download(ann)
    assert answer["Content-Type"] == "application/json"
    assert answer["Content-Disposition"] == 'attachment; filename="basilica-ann.json"'
    assert "no-store" in answer["Cache-Control"]


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in():
    answer = Client().get(MY_DATA)
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))


def test_the_account_is_the_players(calendar, ann):
    account = data_of(ann)["account"]
    assert account["username"] == "ann"
    assert account["email"] == "ann@example.org"
    assert account["date_joined"] == "2025-03-03T09:00:00+00:00"


def test_times_are_in_the_players_zone(calendar, ann):
    PlayerSettings.objects.update_or_create(user=ann, defaults={"time_zone": "Europe/Warsaw"})
    assert data_of(ann)["account"]["date_joined"] == "2025-03-03T10:00:00+01:00"


def test_the_settings_are_there_but_not_the_calendar_secret(ann):
    PlayerSettings.objects.update_or_create(
        user=ann, defaults={"calendar_token": "s3cret-calendar-token", "sound": True}
    )
    answer = download(ann)
    settings = json.loads(answer.content)["settings"]
    assert settings["sound"] is True
    assert settings["email_your_turn"] is True
    assert "calendar_token" not in settings
    assert "s3cret-calendar-token" not in answer.content.decode()


def test_the_games_are_listed_with_opponent_status_result_and_address(ann):
    bob = make_user("bob")
    running = started_game(ann, bob)
    over = started_game(make_user("cid"), ann)
    services.resign(over, over.seat0)
    waiting = open_game(ann)
    games = {g["id"]: g for g in data_of(ann)["games"]}
    assert set(games) == {running.pk, over.pk, waiting.pk}
    assert games[running.pk]["opponent"] == "bob"
    assert games[running.pk]["status"] == "active"
    assert games[running.pk]["result"] is None
    assert games[running.pk]["url"] == f"http://testserver/games/{running.pk}/"
    assert games[over.pk]["result"] == "won"
    assert games[over.pk]["finished_at"] is not None
    assert games[waiting.pk]["opponent"] is None
    assert games[waiting.pk]["kind"] == "basilica"


def test_no_games_seed_is_in_it(ann):
    game = started_game(ann, make_user("bob"), seed=987654321987)
    services.resign(game, ann)
    answer = download(ann)
    assert "987654321987" not in answer.content.decode()
    assert "seed" not in answer.content.decode()


def test_the_players_own_notes_are_in_it_and_nobody_elses(ann):
    bob = make_user("bob")
    game = started_game(ann, bob)
    notes.write(game, ann, "Ann: the north is mine")
    notes.write(game, bob, "Bob: she is weak in the north")
    elsewhere = started_game(make_user("cid"), make_user("dan"))
    notes.write(elsewhere, elsewhere.seat0, "Cid: nobody reads this")
    answer = download(ann)
    data = json.loads(answer.content)
    assert [(n["game"], n["text"]) for n in data["notes"]] == [(game.pk, "Ann: the north is mine")]
    assert data["notes"][0]["updated_at"]
    assert "Bob: she is weak" not in answer.content.decode()
    assert "Cid: nobody reads this" not in answer.content.decode()


def test_the_players_prepared_lines_are_in_it_and_not_the_opponents(ann):
    bob = make_user("bob")
    game = started_game(ann, bob, kind="cathedral")
    prepared_line(game, ann, [{"ann's": "reply"}])
    prepared_line(game, bob, [{"bob's": "secret"}])
    answer = download(ann)
    lines = json.loads(answer.content)["prepared_lines"]
    assert [(line["game"], line["moves"]) for line in lines] == [(game.pk, [{"ann's": "reply"}])]
    assert lines[0]["created_at"]
    assert "bob's" not in answer.content.decode()


def test_a_player_with_nothing_yet_gets_empty_lists(ann):
    data = data_of(ann)
    assert data["games"] == []
    assert data["notes"] == []
    assert data["prepared_lines"] == []


def test_a_post_is_not_a_download(ann):
    assert client_for(ann).post(MY_DATA).status_code == 405

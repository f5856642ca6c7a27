"""A player's history: their games that are over, with opponent, result, score and length,
filtered, paged, and downloaded as CSV; a private game is listed only for its players (and the
staff), on the page and in the file alike."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, first_legal, make_staff, make_user, play, started_game

from games import kinds
from games.models import Game

pytestmark = pytest.mark.django_db

MONDAY = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


@pytest.fixture
def alice():
    return make_user("alice")


@pytest.fixture
def bob():
    return make_user("bob")


def over(seat0, seat1, winners=(0,), scores=(40, 30), *, moves=0, days_ago=1, **settings) -> Game:
    """A game between the two that ended ``days_ago`` days before Monday, an hour after it
    began; ``moves`` first moves are played in it first (Basilica only)."""
    game = started_game(seat0, seat1, **settings)
    for _ in range(moves):
        game = play(game, [first_legal(game)])
    finished_at = MONDAY - timedelta(days=days_ago)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED if winners else Game.Status.ABORTED,
        winners=list(winners),
        scores=list(scores),
        termination="third scoring" if winners else "aborted",
        to_decide=None,
        started_at=finished_at - timedelta(hours=1),
        finished_at=finished_at,
    )
    game.refresh_from_db()
    return game


def history_of(user) -> str:
    return reverse("history", args=[user.username])


def csv_of(user) -> str:
    return reverse("history-csv", args=[user.username])


def listed(page: str) -> list[int]:
    """The games on a history page, in order."""
    table = page.split('<div id="games">')[1]
    return [int(pk) for pk in re.findall(r">Game (\d+)</a>", table)]


def rows_of(response) -> list[dict]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


# -- the list -----------------------------------------------------------------------------------


def test_a_player_with_no_games_has_an_empty_history(alice):
    response = client_for(alice).get(history_of(alice))
    assert response.status_code == 200
    assert "No finished game." in response.text
    assert rows_of(client_for(alice).get(csv_of(alice))) == []


def test_the_profile_links_to_the_history(alice, bob):
    assert history_of(alice) in client_for(bob).get(reverse("profile", args=["alice"])).text


def test_games_in_play_are_not_history_but_aborted_ones_are(alice, bob):
    started_game(alice, bob)
    aborted = over(alice, bob, winners=())
    finished = over(alice, bob, days_ago=2)
    page = client_for(alice).get(history_of(alice)).text
    assert listed(page) == [aborted.pk, finished.pk]  # the last finished first
    assert "no result" in page


def test_a_stranger_sees_no_private_game_but_the_player_and_the_staff_do(alice, bob):
    public = over(alice, bob)
    private = over(alice, bob, private=True, days_ago=2)
    stranger = client_for(make_user("carol"))
    assert listed(stranger.get(history_of(alice)).text) == [public.pk]
    assert listed(client_for(alice).get(history_of(alice)).text) == [public.pk, private.pk]
    assert listed(client_for(bob).get(history_of(alice)).text) == [public.pk, private.pk]
    assert listed(client_for(make_staff()).get(history_of(alice)).text) == [public.pk, private.pk]


def test_each_game_is_seen_from_the_players_seat(alice, bob):
    game = over(alice, bob, winners=[0], scores=[40, 30], moves=1)
    page = client_for(alice).get(history_of(bob)).text
    row = page.split(f">Game {game.pk}</a>")[1].split("</tr>")[0]
    assert kinds.summary(game) in row
    assert f'href="{reverse("profile", args=["alice"])}">alice</a>' in row
    assert 'data-label="First move">alice<' in row
    assert 'data-label="Result" class="result-lost">lost<' in row
    assert "30 \u2013 40" in row  # bob's score first, then alice's
    assert "1 action, 1\xa0hour" in row
    assert "third scoring" in row
    assert f'href="{reverse("games:replay", args=[game.pk])}">replay</a>' in row


def test_the_history_is_paged_and_keeps_its_filters(alice, bob):
    games = [over(alice, bob, days_ago=n) for n in range(1, 28)]
    client = client_for(alice)
    first = client.get(history_of(alice), {"opponent": "bob"}).text
    assert listed(first) == [g.pk for g in games[:25]]
    assert "?opponent=bob&amp;page=2" in first
    second = client.get(history_of(alice), {"opponent": "bob", "page": 2}).text
    assert listed(second) == [g.pk for g in games[25:]]


def test_a_filter_asked_by_htmx_redraws_the_list_only(alice, bob):
    over(alice, bob)
    response = client_for(alice).get(history_of(alice), {"result": "won"}, HTTP_HX_REQUEST="true")
    assert response.text.lstrip().startswith('<div id="games">')
    assert "<html" not in response.text


def test_an_unknown_player_has_no_history(alice):
    assert client_for(alice).get(reverse("history", args=["nobody"])).status_code == 404
    assert client_for(alice).get(reverse("history-csv", args=["nobody"])).status_code == 404


def test_an_anonymous_visitor_and_a_stranger_see_the_public_games_only(alice, bob):
    public = over(alice, bob)
    over(alice, bob, private=True, days_ago=2)
    for visitor in (Client(), client_for(make_user("carol"))):
        response = visitor.get(history_of(alice))
        assert response.status_code == 200
        assert listed(response.text) == [public.pk]
        lines = rows_of(visitor.get(csv_of(alice)))
        assert [int(line["game"]) for line in lines] == [public.pk]


# -- the filters ------------------------------------------------------------------------------


@pytest.fixture
def season(alice, bob):
    """Alice's games that are over, by name."""
    carol = make_user("carol")
    return {
        "won 2022": over(alice, bob, winners=[0], scores=[40, 30], days_ago=1),
        "lost 2010 as seat 1": over(bob, alice, winners=[0], scores=[35, 20], edition="2010"),
        "shared with carol": over(carol, alice, winners=[0, 1], scores=[30, 30], days_ago=3),
        "aborted": over(alice, carol, winners=(), scores=(0, 0), days_ago=4),
        "cathedral won": over(
            alice, bob, winners=[0], scores=[0, 12], kind="cathedral", days_ago=5
        ),
    }


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, {"won 2022", "lost 2010 as seat 1", "shared with carol", "aborted", "cathedral won"}),
        ({"kind": "cathedral"}, {"cathedral won"}),
        ({"kind": "basilica"}, {"won 2022", "lost 2010 as seat 1", "shared with carol", "aborted"}),
        ({"edition": "2010"}, {"lost 2010 as seat 1"}),
        ({"result": "won"}, {"won 2022", "cathedral won"}),
        ({"result": "lost"}, {"lost 2010 as seat 1"}),
        ({"result": "shared"}, {"shared with carol"}),
        ({"result": "none"}, {"aborted"}),
        ({"opponent": "CAR"}, {"shared with carol", "aborted"}),
        ({"opponent": "alice"}, set()),  # herself is never her opponent
        ({"opponent": "bob", "result": "won"}, {"won 2022", "cathedral won"}),
        (
            {"result": "maybe", "kind": "chess"},
            {"won 2022", "lost 2010 as seat 1", "shared with carol", "aborted", "cathedral won"},
        ),
    ],
)
def test_the_filters(alice, season, query, expected):
    client = client_for(alice)
    wanted = {season[name].pk for name in expected}
    response = client.get(history_of(alice), query)
    assert response.status_code == 200
    assert set(listed(response.text)) == wanted
    assert {int(r["game"]) for r in rows_of(client.get(csv_of(alice), query))} == wanted


# -- the CSV ----------------------------------------------------------------------------------


def test_the_csv_has_one_line_a_game_with_its_columns(alice, bob):
    game = over(alice, bob, winners=[0], scores=[40, 30], moves=1)
    response = client_for(bob).get(csv_of(bob))
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == 'attachment; filename="games-of-bob.csv"'
    [row] = rows_of(response)
    assert row == {
        "finished": "2025-03-02T09:00:00+00:00",
        "game": str(game.pk),
        "url": f"http://testserver{game.get_absolute_url()}",
        "kind": "basilica",
        "options": kinds.summary(game),
        "opponent": "alice",
        "first move by": "alice",
        "result": "lost",
        "score": "30",
        "opponent score": "40",
        "actions": "1",
        "duration (seconds)": "3600",
        "ending": "third scoring",
        "replay": f"http://testserver{reverse('games:replay', args=[game.pk])}",
    }


@pytest.mark.parametrize("name", ["=HYPERLINK(1)", "+cmd", "-2+3", "@SUM(A1)"])
def test_the_csv_defuses_a_name_a_spreadsheet_would_run(alice, name):
    over(alice, make_user(name))
    [row] = rows_of(client_for(alice).get(csv_of(alice)))
    assert row["opponent"] == "'" + name


def test_the_csv_holds_no_private_game_for_a_stranger(alice, bob):
    public = over(alice, bob)
    private = over(alice, bob, private=True)
    stranger = rows_of(client_for(make_user("carol")).get(csv_of(alice)))
    assert [int(r["game"]) for r in stranger] == [public.pk]
    own = rows_of(client_for(alice).get(csv_of(alice)))
    assert {int(r["game"]) for r in own} == {public.pk, private.pk}

"""The referee's tools: the list of games with its filters, a game's log, and the review page
with everything the players cannot see."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils.html import escape
from factories import (
    client_for,
    make_staff,
    make_user,
    open_game,
    play_randomly,
    staff_client_for,
    started_game,
)

from games.models import Game
from games.play import states

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:games_game_changelist")


@pytest.fixture
def referee():
    return staff_client_for(make_staff())


def listed(response) -> set[int]:
    return {int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.text)}


def test_the_referee_lists_every_game(referee):
    games = [open_game(), started_game(), started_game(private=True)]
    response = referee.get(CHANGELIST)
    assert response.status_code == 200
    assert listed(response) == {g.pk for g in games}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("status=open", {"seeking"}),
        ("status=active", {"public", "private 2010"}),
        ("edition=2010", {"private 2010"}),
        ("private__exact=1", {"private 2010"}),
        ("started_at__isnull=True", {"seeking"}),
        ("finished_at__isnull=True", {"seeking", "public", "private 2010"}),
    ],
)
def test_the_referee_filters_the_games(referee, query, expected):
    games = {
        "seeking": open_game(),
        "public": started_game(),
        "private 2010": started_game(private=True, edition="2010"),
    }
    response = referee.get(f"{CHANGELIST}?{query}")
    assert response.status_code == 200
    assert listed(response) == {games[name].pk for name in expected}


def test_the_referee_finds_the_games_of_one_player(referee):
    alice = make_user("alice")
    hers = [open_game(alice), started_game(make_user(), alice)]
    started_game()
    page = referee.get(CHANGELIST).text
    assert f"?player={alice.pk}" in page
    assert listed(referee.get(f"{CHANGELIST}?player={alice.pk}")) == {g.pk for g in hers}


def test_the_referee_searches_by_player_name(referee):
    game = started_game(make_user("alice"))
    started_game()
    assert listed(referee.get(f"{CHANGELIST}?q=alice")) == {game.pk}


def test_a_games_admin_page_lists_its_log_read_only(referee):
    game = play_randomly(started_game(), 3)
    page = referee.get(reverse("admin:games_game_change", args=[game.pk])).text
    for action in game.actions.all():
        assert escape(json.dumps(action.data)) in page
    assert "actions-0-data" not in page  # no editable field for a logged action
    assert reverse("admin:games_game_review", args=[game.pk]) in page


def stack_on(page: str) -> list[int]:
    listing = page.split("Stack, top first")[1].split("</ol>")[0]
    return [int(t) for t in re.findall(r"<li>#(\d+) ", listing)]


def test_the_review_shows_the_seed_and_the_stack_top_first(referee):
    game = play_randomly(started_game(), 6)
    page = referee.get(reverse("admin:games_game_review", args=[game.pk])).text
    state = states.replay_game(game)
    assert f"Seed: {game.seed}" in page
    assert stack_on(page) == state.stack[::-1]
    assert f"after action {game.seq}" in page


def test_the_review_shows_the_state_after_any_action(referee):
    game = play_randomly(started_game(), 6)
    url = reverse("admin:games_game_review", args=[game.pk])
    page = referee.get(f"{url}?seq=2").text
    assert "after action 2" in page
    assert stack_on(page) == states.replay_game(game, upto=2).stack[::-1]


@pytest.mark.parametrize(("asked", "shown"), [("-5", 0), ("999", 4), ("two", 4)])
def test_the_review_keeps_an_odd_seq_within_the_log(referee, asked, shown):
    game = play_randomly(started_game(), 4)
    url = reverse("admin:games_game_review", args=[game.pk])
    assert f"after action {shown}" in referee.get(f"{url}?seq={asked}").text


def test_a_player_cannot_open_the_review(referee):
    game = started_game()
    response = client_for(game.seat0).get(reverse("admin:games_game_review", args=[game.pk]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("admin:login"))


def test_the_review_of_a_game_that_does_not_exist_is_404(referee):
    assert referee.get(reverse("admin:games_game_review", args=[999])).status_code == 404


def test_the_admin_shows_a_game_not_yet_started(referee):
    game = open_game()
    assert referee.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 200
    review = referee.get(reverse("admin:games_game_review", args=[game.pk]))
    assert "after action 0" in review.text
    assert Game.objects.get().status == Game.Status.OPEN


def test_a_garbled_player_filter_is_answered_with_the_admins_error_page(referee):
    started_game()
    response = referee.get(f"{CHANGELIST}?player=alice")
    assert response.url == f"{CHANGELIST}?e=1"

"""How many games one player may have against the computer: ten in play at once and twenty
begun in an hour (settings), besides the lobby's limit per address. The play layer refuses the
game, so every way of starting one is held to it, and the player reads why and how many."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from factories import START, client_for, lobby_form, make_user
from test_concurrency import in_threads, threads_on_a_file_copy

from games.models import Game
from games.play import computer, services
from games.terms import GameSettings

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
CASUAL = GameSettings(kind="cathedral", first="me", private=True)


@pytest.fixture(autouse=True)
def caps(settings):
    settings.COMPUTER_GAMES_IN_PLAY = 10
    settings.COMPUTER_GAMES_PER_HOUR = 20
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create_game": (1000, 3600)}


@pytest.fixture
def ann():
    return make_user("ann")


def start_games(user, count: int) -> list[Game]:
    return [computer.play_the_computer(user, CASUAL, "random") for _ in range(count)]


def post_play_the_computer(user):
    form = {**lobby_form("cathedral", first="me", time_control="none"), "level": "random"}
    form = {k.replace("cathedral-", "computer-cathedral-", 1): v for k, v in form.items()}
    return client_for(user).post(reverse("games:computer"), form, follow=True)


def test_the_eleventh_game_in_play_is_refused_with_a_message_and_nothing_stored(ann):
    start_games(ann, 10)

    response = post_play_the_computer(ann)

    assert response.status_code == 429
    page = response.content.decode()
    assert "You have 10 games against the computer in play" in page
    assert "finish or resign one" in page
    assert Game.objects.count() == 10


def test_the_play_layer_refuses_it_whatever_the_door(ann):
    start_games(ann, 10)

    with pytest.raises(computer.TooManyGames) as refused:
        computer.play_the_computer(ann, CASUAL, "greedy")

    assert "10 games against the computer in play" in refused.value.message
    assert Game.objects.count() == 10


def test_resigning_a_game_frees_a_place(ann):
    games = start_games(ann, 10)

    services.resign(games[3], ann)

    assert post_play_the_computer(ann).status_code == 200
    assert Game.objects.running().count() == 10


def test_a_game_finished_frees_a_place(ann):
    games = start_games(ann, 10)
    Game.objects.filter(pk=games[0].pk).update(status=Game.Status.FINISHED)

    start_games(ann, 1)

    assert Game.objects.running().count() == 10


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_for_the_last_place_get_one_game(tmp_path, ann):
    start_games(ann, 9)

    with threads_on_a_file_copy(tmp_path):
        outcomes = in_threads(*[lambda: start_games(ann, 1)] * 2)
        [in_play] = in_threads(Game.objects.running().count)

    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1, outcomes
    assert isinstance(refused[0], computer.TooManyGames)
    assert in_play == 10


def test_games_against_people_do_not_count(ann):
    start_games(ann, 9)
    for _ in range(3):
        services.accept_game(services.create_game(ann, GameSettings(kind="cathedral")), make_user())

    start_games(ann, 1)

    assert Game.objects.running().count() == 13


def test_at_most_twenty_games_are_begun_in_an_hour(calendar, ann):
    for _ in range(20):
        (game,) = start_games(ann, 1)
        services.resign(game, ann)
        calendar.shift(2 * MINUTE)

    with pytest.raises(computer.TooManyGames) as refused:
        start_games(ann, 1)

    assert "20 games against the computer in the last hour" in refused.value.message
    assert "try again in 20 minutes" in refused.value.message
    assert Game.objects.count() == 20


def test_the_hour_passes_and_a_game_may_be_begun_again(calendar, ann):
    for _ in range(20):
        (game,) = start_games(ann, 1)
        services.resign(game, ann)
    calendar.move_to(START + 60 * MINUTE + MINUTE)

    start_games(ann, 1)

    assert Game.objects.count() == 21

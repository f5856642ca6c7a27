"""A series of Cathedral games: roles alternate, unplaced squares add up, the smallest total
wins (rule 8)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from factories import client_for, lobby_form, make_user

from games.models import Game
from games.play import series, services, states

pytestmark = pytest.mark.django_db


def open_series(alice, bob, length: int) -> Game:
    client_for(alice).post(
        reverse("games:create"),
        lobby_form("cathedral", first="me", series=str(length), time_control="none"),
    )
    game = Game.objects.get(series_number=1)
    return services.accept_game(game, bob)


def finish(game: Game, rng: random.Random) -> Game:
    while game.status == Game.Status.ACTIVE:
        state = states.load_state(game)
        action = rng.choice(game.engine.legal_actions(state)).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    return game


def light_of(game: Game):
    return game.player(game.engine_options.light)


def test_a_series_alternates_light_and_adds_up_unplaced_squares_to_a_winner():
    alice, bob = make_user("alice"), make_user("bob")
    first = open_series(alice, bob, 2)
    assert light_of(first) == alice
    first = finish(first, random.Random(1))
    second = Game.objects.get(series=first.series, series_number=2)
    assert second.status == Game.Status.ACTIVE
    assert light_of(second) == bob  # the other player places the Cathedral now
    points_1 = {first.player(s): first.scores[s] for s in (0, 1)}
    second = finish(second, random.Random(2))
    points_2 = {second.player(s): second.scores[s] for s in (0, 1)}
    table = series.standings(first.series)
    assert table["over"]
    assert table["totals"] == [points_1[alice] + points_2[alice], points_1[bob] + points_2[bob]]
    best = min(table["totals"])
    assert table["winners"] == [
        p for p, t in zip([alice, bob], table["totals"], strict=True) if t == best
    ]
    assert Game.objects.filter(series=first.series).count() == 2  # no third game
    page = client_for(alice).get(first.series.get_absolute_url()).text
    assert f"{table['totals'][0]} \N{EN DASH} {table['totals'][1]}" in page


def test_a_resigned_game_of_a_series_counts_every_square_against_the_loser():
    alice, bob = make_user("alice"), make_user("bob")
    game = services.resign(open_series(alice, bob, 4), alice)
    table = series.standings(game.series)
    assert table["rows"][0]["points"] == [47, 0]
    assert not table["over"]
    following = Game.objects.get(series=game.series, series_number=2)
    assert "next game of the series" in client_for(alice).get(game.get_absolute_url()).text
    assert following.status == Game.Status.ACTIVE


def test_an_aborted_game_ends_the_series_without_a_next_game():
    alice, bob = make_user("alice"), make_user("bob")
    game = services.abort(open_series(alice, bob, 2), alice)
    assert game.status == Game.Status.ABORTED
    assert not Game.objects.filter(series=game.series, series_number=2).exists()
    assert series.standings(game.series)["over"]


def test_a_stranger_cannot_see_the_series_of_a_private_game():
    alice, bob = make_user("alice"), make_user("bob")
    client_for(alice).post(
        reverse("games:create"),
        lobby_form("cathedral", first="me", series="2", private="on", time_control="3d"),
    )
    game = services.accept_game(Game.objects.get(), bob)
    response = client_for(make_user("carl")).get(game.series.get_absolute_url())
    assert response.status_code == 404

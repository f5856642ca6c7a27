"""Hints between two people: only in a casual game opened with them, which whoever accepts sees
before accepting; never in a rated game."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import client_for, lobby_form, make_user, open_game

from games.models import Game
from games.play import services

pytestmark = pytest.mark.django_db


def hint(client, game: Game):
    url = reverse("games:hint", args=[game.pk])
    return client.post(url, {"seq": game.seq}, HTTP_HX_REQUEST="true").text


def test_a_casual_game_opened_with_hints_says_so_and_offers_them_to_both_players():
    ann, bob = make_user("ann"), make_user("bob")
    response = client_for(ann).post(
        reverse("games:create"),
        lobby_form("basilica", edition="2022", first="me", time_control="3d", hints="on"),
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert "casual, hints allowed" in client_for(bob).get(reverse("games:lobby")).text
    game = services.accept_game(game, bob)
    assert game.allows_hints()
    assert "Hint: " in hint(client_for(ann), game)  # ann decides first
    assert "not your decision" in hint(client_for(bob), game)
    assert "hints allowed" in client_for(bob).get(game.get_absolute_url()).text


def test_a_rated_game_cannot_be_opened_with_hints():
    ann = make_user("ann")
    response = client_for(ann).post(
        reverse("games:create"),
        lobby_form(
            "basilica", edition="2022", first="me", time_control="3d", rated="on", hints="on"
        ),
    )
    assert response.status_code == 400
    assert "A rated game cannot allow hints" in response.text
    assert not Game.objects.exists()


def test_a_casual_game_without_hints_refuses_them():
    game = open_game(make_user("ann"), time_control="3d")
    game = services.accept_game(game, make_user("bob"))
    client = client_for(game.seat0)
    assert reverse("games:hint", args=[game.pk]) not in client.get(game.get_absolute_url()).text
    assert "does not allow hints" in hint(client, game)


def test_a_rematch_keeps_the_hints_both_players_agreed_to():
    game = services.accept_game(open_game(make_user("ann"), hints=True), make_user("bob"))
    game = services.resign(game, game.seat0)
    services.offer_rematch(game, game.seat1)
    services.answer_rematch(game, game.seat0, accept=True)
    rematch = Game.objects.get(rematch_of=game)
    assert rematch.hints
    assert rematch.allows_hints()

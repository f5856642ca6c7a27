"""Two people sign up, meet in the lobby and play a whole game through the site."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse
from factories import lobby_form

from games.engine import basilica as engine
from games.models import Game
from games.play import states

pytestmark = pytest.mark.django_db

PASSWORD = "nave, apse and transept"


def sign_up(username: str) -> Client:
    client = Client()
    form = {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("signup"), form)
    assert response.url == reverse("games:lobby")
    return client


def test_two_new_players_play_a_whole_game_from_the_lobby_to_the_result():
    alice, bob = sign_up("alice"), sign_up("bob")
    alice.post(
        reverse("games:create"), lobby_form(edition="2022", first="random", time_control="3d")
    )
    game = Game.objects.get()
    bob.post(reverse("games:accept", args=[game.pk]))
    players = {0: alice, 1: bob}
    rng = random.Random(2022)

    game.refresh_from_db()
    while game.status == Game.Status.ACTIVE:
        action = rng.choice(engine.legal_actions(states.replay_game(game)))
        form = {"action": json.dumps(action.to_json()), "seq": game.seq}
        response = players[game.to_decide].post(reverse("games:act", args=[game.pk]), form)
        assert response.status_code == 302, response.content
        game.refresh_from_db()

    assert game.status == Game.Status.FINISHED
    assert game.seq == game.actions.count() > 50
    outcome = states.replay_game(game).outcome
    for seat, client in players.items():
        banner = client.get(game.get_absolute_url()).text.split('class="result')[1]
        mine, theirs = outcome.scores[seat], outcome.scores[1 - seat]
        if len(outcome.winners) == 2:
            assert f"A shared victory at {mine} points each" in banner
        elif seat in outcome.winners:
            assert f"You won, {mine} to {theirs}" in banner
        else:
            assert f"You lost, {mine} to {theirs}" in banner


def test_signing_up_twice_with_one_name_is_refused():
    sign_up("alice")
    form = {"username": "alice", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    response = Client().post(reverse("signup"), form)
    assert response.status_code == 400
    assert "A user with that username already exists." in response.text


def test_a_signed_in_player_is_sent_from_the_signup_page_to_the_lobby():
    assert sign_up("alice").get(reverse("signup")).url == reverse("games:lobby")

"""Signing in, opening, accepting, inviting and cancelling games."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, lobby_form, make_user, open_game, started_game

from games.models import Game

pytestmark = pytest.mark.django_db


def game_pages(game: Game) -> list[tuple[str, str]]:
    # Not the game page itself: anyone may watch a public game (tests/site/test_watching.py);
    # nor a profile or a history, open to anyone (tests/site/test_privacy.py, test_history.py).
    return [
        ("get", reverse("games:lobby")),
        ("post", reverse("games:create")),
        ("get", reverse("games:mine")),
        ("get", reverse("games:invitation", args=[game.invite_token])),
        ("post", reverse("games:act", args=[game.pk])),
        ("post", reverse("games:accept", args=[game.pk])),
        ("post", reverse("games:cancel", args=[game.pk])),
    ]


def test_an_anonymous_visitor_is_sent_to_log_in_from_every_game_page():
    game = started_game()
    visitor = Client()
    for method, url in game_pages(game):
        response = getattr(visitor, method)(url)
        assert response.status_code == 302, url
        login = urlsplit(response.url)
        assert login.path == reverse("login"), url
        assert parse_qs(login.query)["next"] == [url]


def test_an_anonymous_visitor_may_read_the_rules():
    assert Client().get(reverse("rules")).status_code == 200


def test_opening_a_game_leads_to_its_waiting_page():
    alice = make_user("alice")
    client = client_for(alice)
    response = client.post(
        reverse("games:create"), lobby_form(edition="2010", first="me", time_control="none")
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert (game.seat0, game.edition, game.status) == (alice, "2010", Game.Status.OPEN)
    assert "waiting for an opponent" in client.get(response.url).text


def test_an_impossible_choice_in_the_lobby_form_is_explained():
    client = client_for(make_user())
    response = client.post(reverse("games:create"), lobby_form(edition="2022", remove_six="on"))
    assert response.status_code == 400
    assert "Removing six tiles is part of the expansion" in response.text
    assert not Game.objects.exists()


def test_an_open_seek_shows_in_the_lobby_and_a_second_player_accepts_it():
    game = open_game(make_user("alice"))
    bob = make_user("bob")
    client = client_for(bob)
    assert reverse("games:accept", args=[game.pk]) in client.get(reverse("games:lobby")).text
    response = client.post(reverse("games:accept", args=[game.pk]))
    assert response.url == game.get_absolute_url()
    game.refresh_from_db()
    assert (game.seat1, game.status) == (bob, Game.Status.ACTIVE)


def test_a_creator_cannot_accept_their_own_seek():
    alice = make_user("alice")
    game = open_game(alice)
    response = client_for(alice).post(reverse("games:accept", args=[game.pk]), follow=True)
    assert "you cannot play against yourself" in response.text
    game.refresh_from_db()
    assert (game.seat1, game.status) == (None, Game.Status.OPEN)


def test_a_seek_taken_by_someone_else_is_explained_to_the_latecomer():
    game = started_game()
    response = client_for(make_user()).post(reverse("games:accept", args=[game.pk]), follow=True)
    assert "already been taken" in response.text


def test_a_private_invitation_is_not_in_the_lobby():
    game = open_game(private=True)
    lobby = client_for(make_user()).get(reverse("games:lobby")).text
    assert reverse("games:accept", args=[game.pk]) not in lobby


def test_a_private_invitation_cannot_be_accepted_without_its_token():
    game = open_game(private=True)
    client = client_for(make_user())
    assert client.post(reverse("games:accept", args=[game.pk])).status_code == 404
    wrong = {"token": "guess"}
    assert client.post(reverse("games:accept", args=[game.pk]), wrong).status_code == 404
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_the_invitation_link_lets_a_friend_accept():
    game = open_game(make_user("alice"), private=True)
    bob = make_user("bob")
    client = client_for(bob)
    page = client.get(reverse("games:invitation", args=[game.invite_token]))
    assert "alice invites you to play Basilica" in page.text
    assert game.invite_token in page.text
    client.post(reverse("games:accept", args=[game.pk]), {"token": game.invite_token})
    game.refresh_from_db()
    assert (game.seat1, game.status) == (bob, Game.Status.ACTIVE)


def test_the_private_waiting_page_gives_its_creator_the_link_but_not_a_stranger():
    game = open_game(private=True)
    link = reverse("games:invitation", args=[game.invite_token])
    assert link in client_for(game.seat0).get(game.get_absolute_url()).text
    assert game.invite_token not in client_for(make_user()).get(game.get_absolute_url()).text


def test_an_unknown_invitation_is_404():
    assert (
        client_for(make_user()).get(reverse("games:invitation", args=["nope"])).status_code == 404
    )


def test_an_invitation_already_taken_leads_to_the_game():
    game = started_game(private=True)
    response = client_for(game.seat1).get(reverse("games:invitation", args=[game.invite_token]))
    assert response.url == game.get_absolute_url()


def test_the_creator_cancels_an_open_game():
    game = open_game()
    response = client_for(game.seat0).post(reverse("games:cancel", args=[game.pk]), follow=True)
    assert f"Game {game.pk} was cancelled." in response.text
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    assert client_for(game.seat0).get(game.get_absolute_url()).status_code == 404


def test_nobody_else_may_cancel_a_game():
    game = open_game()
    response = client_for(make_user()).post(reverse("games:cancel", args=[game.pk]))
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN


def test_a_game_in_play_is_not_cancelled():
    game = started_game()
    response = client_for(game.seat0).post(reverse("games:cancel", args=[game.pk]), follow=True)
    assert "only a game still waiting for an opponent can be cancelled" in response.text
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_the_waiting_page_polls_quietly_until_someone_accepts():
    game = open_game()
    client = client_for(game.seat0)
    poll = {"HTTP_HX_REQUEST": "true"}
    assert client.get(game.get_absolute_url() + "?waiting=1", **poll).status_code == 204
    game.seat1 = make_user()
    game.status = Game.Status.ACTIVE
    game.save()
    response = client.get(game.get_absolute_url() + "?waiting=1", **poll)
    assert response.headers["HX-Redirect"] == game.get_absolute_url()


def test_the_lobby_refreshes_its_seeks_as_a_partial():
    game = open_game(make_user("alice"))
    response = client_for(make_user()).get(reverse("games:lobby"), HTTP_HX_REQUEST="true")
    assert response.text.lstrip().startswith('<div id="seeks"')
    assert reverse("games:accept", args=[game.pk]) in response.text
    assert "<html" not in response.text

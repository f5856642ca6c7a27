"""A private game is the business of its two players (and the staff): a stranger finds it
nowhere, not in the lobby, a profile, a list, a page or an answer that differs from no game."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from factories import (
    client_for,
    finished_game,
    make_staff,
    make_user,
    open_game,
    staff_client_for,
    started_game,
)

from games.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_games():
    alice, bob = make_user("alice"), make_user("bob")
    return {
        "alice": alice,
        "bob": bob,
        "waiting": open_game(alice, private=True),
        "running": started_game(alice, bob, private=True),
        "finished": finished_game(alice, bob, winners=[0], scores=[40, 30]),
        "public": started_game(alice, bob),
    }


def mentions(text: str, game) -> bool:
    return f"/games/{game.pk}/" in text or f"Game {game.pk}" in text


def test_a_stranger_cannot_find_a_private_game_anywhere(private_games):
    alice, bob = private_games["alice"], private_games["bob"]
    Game.objects.filter(pk=private_games["finished"].pk).update(private=True)
    hidden = [private_games[k] for k in ("waiting", "running", "finished")]
    stranger = client_for(make_user("carol"))
    pages = [
        reverse("games:lobby"),
        reverse("games:mine"),
        reverse("games:now"),
        reverse("profile", args=[alice.username]),
        reverse("profile", args=[bob.username]),
        reverse("home"),
    ]
    for url in pages:
        text = stranger.get(url).text
        assert not any(mentions(text, game) for game in hidden), url
    assert mentions(stranger.get(reverse("profile", args=["alice"])).text, private_games["public"])
    nowhere = stranger.get("/games/999999/")
    for game in hidden:
        for url in (game.get_absolute_url(), f"{game.get_absolute_url()}?partial=board"):
            response = stranger.get(url, HTTP_HX_REQUEST="true")
            assert response.status_code == nowhere.status_code == 404
        assert stranger.post(reverse("games:accept", args=[game.pk])).status_code == 404
        assert stranger.get(reverse("admin:games_game_change", args=[game.pk])).status_code == 302


def test_a_profile_counts_only_the_results_a_stranger_may_see(private_games):
    Game.objects.filter(pk=private_games["finished"].pk).update(private=True)
    profile = reverse("profile", args=["alice"])
    assert "0 won · 0 lost" in client_for(make_user("carol")).get(profile).text
    assert "1 won · 0 lost" in client_for(private_games["alice"]).get(profile).text
    assert (
        "0 won · 1 lost"
        in client_for(private_games["bob"]).get(reverse("profile", args=["bob"])).text
    )


def test_the_players_and_the_staff_still_see_a_private_game(private_games):
    running = private_games["running"]
    for user in (private_games["alice"], private_games["bob"]):
        profile = client_for(user).get(reverse("profile", args=["alice"])).text
        assert mentions(profile, running)
        assert client_for(user).get(running.get_absolute_url()).status_code == 200
    referee = staff_client_for(make_staff())
    assert mentions(referee.get(reverse("profile", args=["alice"])).text, running)
    assert referee.get(reverse("admin:games_game_change", args=[running.pk])).status_code == 200


def test_an_anonymous_visitor_sees_a_profile_with_its_public_games_only(private_games):
    Game.objects.filter(pk=private_games["finished"].pk).update(private=True)
    response = Client().get(reverse("profile", args=["alice"]))
    assert response.status_code == 200
    assert mentions(response.text, private_games["public"])
    for key in ("waiting", "running", "finished"):
        assert not mentions(response.text, private_games[key]), key
    assert "0 won · 0 lost" in response.text


def test_an_anonymous_visitor_finds_no_private_game_but_may_watch_a_public_one(private_games):
    visitor = Client()
    listed = visitor.get(reverse("games:now")).text
    for key in ("waiting", "running"):
        game = private_games[key]
        assert not mentions(listed, game)
        assert visitor.get(game.get_absolute_url()).status_code == 404
    assert mentions(listed, private_games["public"])
    assert visitor.get(private_games["public"].get_absolute_url()).status_code == 200


# Every address that names a game, as a request a stranger could make of it.
ROUTES = [
    ("games:detail", "get", {}),
    ("games:detail", "get", {"partial": "board"}),
    ("games:detail", "get", {"waiting": "1"}),
    ("games:act", "post", {"action": '{"kind": "pass"}', "seq": "0"}),
    ("games:hint", "post", {"seq": "0"}),
    ("games:hint-answer", "get", {"ticket": "forged"}),
    ("games:replay", "get", {"step": "0"}),
    ("games:accept", "post", {}),
    ("games:cancel", "post", {}),
    ("games:resign", "post", {}),
    ("games:abort", "post", {}),
    ("games:rematch", "post", {"answer": "offer"}),
    ("games:rematch", "post", {"answer": "accept"}),
    ("games:rematch", "post", {"answer": "decline"}),
    ("games:rematch", "post", {"answer": "anything"}),
    ("games:record-json", "get", {}),
    ("games:record-text", "get", {}),
]


def hidden_games() -> list[Game]:
    """A private game in each state a stranger could probe: an open invitation, in play, over."""
    alice, bob = make_user("alice"), make_user("bob")
    finished = finished_game(alice, bob, winners=[0], scores=[40, 30])
    Game.objects.filter(pk=finished.pk).update(private=True)
    return [
        open_game(alice, private=True),
        started_game(alice, bob, private=True),
        Game.objects.get(pk=finished.pk),
    ]


def answer(client: Client, route: tuple, pk: int, htmx: bool) -> tuple[int, str, str]:
    name, method, data = route
    headers = {"HX-Request": "true"} if htmx else {}
    response = getattr(client, method)(reverse(name, args=[pk]), data, headers=headers)
    # Django masks the CSRF token afresh for every page: the one difference two pages may have.
    body = re.sub(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")\w{64}', r"\1-", response.text)
    return response.status_code, response.get("Location", ""), body


@pytest.mark.parametrize("route", ROUTES, ids=lambda route: f"{route[0]}{route[2]}")
def test_a_private_game_answers_a_stranger_as_no_game_does(route):
    games = hidden_games()
    visitors = {"stranger": client_for(make_user("carol")), "anonymous": Client()}
    asked = [(who, game.pk, htmx) for who in visitors for game in games for htmx in (False, True)]
    private = {key: answer(visitors[key[0]], route, *key[1:]) for key in asked}
    Game.objects.filter(pk__in=[game.pk for game in games]).delete()  # the same numbers, no game
    for key in asked:
        assert private[key] == answer(visitors[key[0]], route, *key[1:]), key


def test_the_invited_friend_follows_the_link_in_and_then_plays_like_any_player():
    alice = make_user("alice")
    game = open_game(alice, private=True)
    dora = client_for(make_user("dora"))
    link = reverse("games:invitation", args=[game.invite_token])
    assert dora.get(game.get_absolute_url()).status_code == 404  # not hers until she accepts
    assert "Accept" in dora.get(link).text
    accepted = dora.post(reverse("games:accept", args=[game.pk]), {"token": game.invite_token})
    assert accepted.url == game.get_absolute_url()
    assert dora.get(game.get_absolute_url()).status_code == 200
    resigned = dora.post(reverse("games:resign", args=[game.pk]))
    assert resigned.url == game.get_absolute_url()
    for name in ("games:replay", "games:record-json", "games:record-text"):
        assert client_for(alice).get(reverse(name, args=[game.pk])).status_code == 200
        assert dora.get(reverse(name, args=[game.pk])).status_code == 200

"""Watching without an account: the games being played now, and a public game's page seen by a
visitor who is not signed in (the spectator's view, nothing to click); private games stay
invisible."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, finished_game, make_user, open_game, play_randomly, started_game

from games.models import Game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def mentions(text: str, game) -> bool:
    return f"/games/{game.pk}/" in text or f"game {game.pk}<" in text


# -- games being played now -------------------------------------------------------------------


def test_anyone_may_open_the_games_being_played_now():
    game = play_randomly(started_game(make_user("alice"), make_user("bob"), edition="2010"), 4)
    page = Client().get(reverse("games:now"))
    assert page.status_code == 200
    assert mentions(page.text, game)
    row = page.text.split(f'href="{game.get_absolute_url()}"')[1].split("</tr>")[0]
    assert "alice vs bob" in row
    assert "2010" in row
    assert f'<td data-label="Moves">{game.seq}</td>' in row
    deciding = game.player(game.to_decide).username
    assert f"{deciding} to play" in row


def test_only_public_games_in_play_are_listed():
    alice, bob = make_user("alice"), make_user("bob")
    hidden = [
        started_game(alice, bob, private=True),
        open_game(alice),
        finished_game(alice, bob, winners=[0], scores=[20, 10]),
    ]
    shown = started_game(alice, bob)
    for client in (Client(), client_for(make_user("carol")), client_for(alice)):
        text = client.get(reverse("games:now")).text
        assert mentions(text, shown)
        assert not any(mentions(text, game) for game in hidden)


def test_the_last_moved_game_comes_first():
    quiet, busy = started_game(), started_game()
    play_randomly(busy, 1)
    text = Client().get(reverse("games:now")).text
    assert text.index(busy.get_absolute_url()) < text.index(quiet.get_absolute_url())


def test_the_list_refreshes_itself_as_a_partial():
    game = started_game()
    partial = Client().get(reverse("games:now"), **HTMX)
    assert partial.text.lstrip().startswith('<div id="now"')
    assert "<html" not in partial.text
    assert mentions(partial.text, game)


def test_the_lobby_shows_the_games_being_played_now_but_not_private_ones():
    public, private = started_game(), started_game(private=True)
    lobby = client_for(make_user("carol")).get(reverse("games:lobby")).text
    assert "Games being played now" in lobby
    assert mentions(lobby, public)
    assert not mentions(lobby, private)
    assert reverse("games:now") in lobby


def test_with_nothing_being_played_the_list_says_so():
    assert "No public game is being played right now." in Client().get(reverse("games:now")).text


# -- an anonymous spectator on the game page --------------------------------------------------


def test_an_anonymous_visitor_watches_a_public_game_with_nothing_to_click():
    game = play_randomly(started_game(make_user("alice"), make_user("bob")), 3)
    response = Client().get(game.get_absolute_url())
    assert response.status_code == 200
    page, footer = response.text.split('<footer class="site">')
    assert 'id="board"' in page
    assert 'id="market"' in page
    assert "You are watching this game" in page
    assert 'method="post"' not in page  # the footer's form chooses a language, nothing of the game
    assert "csrfmiddlewaretoken" not in page
    assert 'action="/language/"' in footer
    assert reverse("games:act", args=[game.pk]) not in page
    assert reverse("games:resign", args=[game.pk]) not in page
    assert response.context["seat"] is None
    assert response.context["view"]["viewer"] is None


def test_an_anonymous_visitor_gets_each_partial_of_a_public_game():
    game = started_game()
    for partial in ("board", "market", "status", "log", "live"):
        response = Client().get(game.get_absolute_url(), {"partial": partial}, **HTMX)
        assert response.status_code == 200
        assert f'id="{partial}"' in response.text
        assert 'method="post"' not in response.text


def test_an_anonymous_visitor_sees_no_jester_colour_before_the_scoring():
    # The spectator's view is the engine's view for nobody: picks stay hidden as for a stranger.
    game = started_game()
    response = Client().get(game.get_absolute_url())
    assert response.context["view"]["jester_picks"] == {}


def test_an_anonymous_visitor_finds_no_private_game():
    game = started_game(private=True)
    nowhere = Client().get("/games/999999/")
    for url in (game.get_absolute_url(), f"{game.get_absolute_url()}?partial=board"):
        response = Client().get(url, **HTMX)
        assert response.status_code == nowhere.status_code == 404


def test_an_anonymous_visitor_may_only_look():
    game = started_game()
    visitor = Client()  # the test client skips the CSRF check: the login check must hold alone
    before = game.seq
    for name in ("act", "resign", "abort", "rematch", "accept", "cancel"):
        response = visitor.post(reverse(f"games:{name}", args=[game.pk]))
        assert response.status_code == 302, name
        assert urlsplit(response.url).path == reverse("login")
    game.refresh_from_db()
    assert game.seq == before


def test_an_anonymous_visitor_is_asked_to_log_in_to_accept_a_seek():
    game = open_game(make_user("alice"))
    page = Client().get(game.get_absolute_url()).text.split('<footer class="site">')[0]
    assert "waiting for an opponent" in page
    assert 'method="post"' not in page
    assert f'href="{reverse("login")}?next={game.get_absolute_url()}"' in page


def test_a_finished_public_game_can_be_watched_too():
    game = finished_game(make_user(), make_user(), winners=[1], scores=[9, 14])
    response = Client().get(game.get_absolute_url())
    assert response.status_code == 200
    assert Game.objects.visible_to(response.wsgi_request.user).filter(pk=game.pk).exists()

"""The pages that once asked the server on a timer now follow it by a socket: the lobby's open
seeks, the games being played now and a game waiting for its opponent each name their socket and
the list it refreshes, and no template asks on a timer any more."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from factories import client_for, make_user, open_game

from games.models import Game
from games.play import services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_no_template_asks_the_server_on_a_timer():
    templates = Path(settings.BASE_DIR, "templates")
    polling = [
        str(path.relative_to(templates))
        for path in templates.rglob("*.html")
        if re.search(r"hx-trigger=[\"'][^\"']*\bevery\b", path.read_text())
    ]
    assert polling == []


def since_of(html: str, socket: str) -> float:
    match = re.search(rf'ws-connect="{re.escape(socket)}\?since=([0-9.]+)"', html)
    assert match, f"no socket {socket} on the page"
    return float(match.group(1))


def test_the_lobby_follows_its_seeks_by_its_socket():
    before = time.time()
    page = client_for(make_user()).get(reverse("games:lobby")).text

    assert before - 1 <= since_of(page, "/ws/lobby/") <= time.time() + 1
    assert 'data-follows="#seeks"' in page
    assert re.search(r'<div id="seeks"[^>]*hx-trigger="lobby:changed"', page)


def test_the_games_being_played_follow_by_a_socket_anyone_may_open():
    page = Client().get(reverse("games:now")).text

    since_of(page, "/ws/now/")
    assert 'data-follows="#now"' in page
    assert re.search(r'<div id="now"[^>]*hx-trigger="lobby:changed"', page)


def test_the_list_asked_again_comes_without_its_socket():
    # The partial replaces the list only: the socket around it stays open.
    partial = Client().get(reverse("games:now"), **HTMX).text
    assert partial.lstrip().startswith('<div id="now"')
    assert "ws-connect" not in partial


def test_the_waiting_page_follows_its_game_by_the_game_socket():
    game = open_game()
    page = client_for(game.seat0).get(game.get_absolute_url()).text

    assert f'ws-connect="/ws/games/{game.pk}/"' in page
    assert 'data-status="open"' in page
    assert 'hx-trigger="lobby:changed"' in page
    assert "js/lobby.js" in page


def test_the_waiting_page_of_a_cancelled_game_opens_what_a_reload_shows():
    game = open_game()
    client = client_for(game.seat0)
    services.cancel_game(game, game.seat0)

    response = client.get(game.get_absolute_url() + "?waiting=1", **HTMX)
    assert response.headers["HX-Redirect"] == game.get_absolute_url()
    assert client.get(game.get_absolute_url()).status_code == 404  # "…was cancelled…"


def test_a_stranger_asking_about_a_private_invitation_still_finds_nothing():
    game = open_game(private=True)
    response = client_for(make_user()).get(game.get_absolute_url() + "?waiting=1", **HTMX)
    assert response.status_code == 404
    game.status = Game.Status.CANCELLED
    game.save()
    response = client_for(make_user()).get(game.get_absolute_url() + "?waiting=1", **HTMX)
    assert response.status_code == 404

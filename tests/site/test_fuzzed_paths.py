"""Forged URLs, as a scanner sends them: a NUL byte, a huge number, an endless name. Each is a
4xx (mostly 404) on every database, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from factories import client_for, make_staff, staff_client_for, started_game

pytestmark = pytest.mark.django_db

FUZZ = [
    "%00",
    "a%00b",
    "%00%00%00",
    "9" * 30,
    "-1",
    "x" * 5000,
    "%ff%fe",
    "%0a",
    "..%2f..%2fetc",
    "%E2%80%AE",
    "1%00",
]
PATHS = [
    "/players/{}/",
    "/games/invite/{}/",
    "/games/{}/",
    "/games/{}/act/",
    "/games/{}/accept/",
    "/games/{}/cancel/",
    "/rules/{}/",
    "/admin/games/game/{}/change/",
    "/admin/games/game/{}/review/",
    "/admin/auth/user/{}/change/",
]


@pytest.fixture
def visitors():
    game = started_game()
    return {
        "anonymous": Client(),
        "player": client_for(game.seat0),
        "staff": staff_client_for(make_staff()),
        "game": game,
    }


@pytest.mark.parametrize("path", PATHS)
def test_a_forged_argument_in_a_path_is_never_a_server_error(visitors, path):
    for who in ("anonymous", "player", "staff"):
        client = visitors[who]
        client.raise_request_exception = False
        for value in FUZZ:
            url = path.format(value)
            for method in (client.get, client.post):
                response = method(url)
                assert response.status_code < 500, (who, method.__name__, url)


def test_a_nul_byte_in_a_player_name_or_an_invitation_is_not_found(visitors):
    player = visitors["player"]
    assert player.get("/players/%00/").status_code == 404
    assert player.get("/games/invite/%00/").status_code == 404
    assert player.get("/games/99999999999999999999/").status_code == 404


def test_forged_query_parameters_on_a_game_page_are_never_a_server_error(visitors):
    game, player, staff = visitors["game"], visitors["player"], visitors["staff"]
    for client in (player, staff):
        client.raise_request_exception = False
    for value in FUZZ:
        query = f"pick={value}&partial={value}&waiting={value}"
        response = player.get(f"{game.get_absolute_url()}?{query}", HTTP_HX_REQUEST="true")
        assert response.status_code < 500, query
        response = staff.get(f"/admin/games/game/{game.pk}/review/?seq={value}")
        assert response.status_code < 500, query
        response = staff.get(f"/admin/games/game/?q={value}")
        assert response.status_code < 500, query

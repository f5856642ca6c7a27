"""Headers a browser and a shared cache act on: the content policy, and HTMX partials kept
apart from pages and private to their viewer."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from factories import client_for, make_staff, play_randomly, staff_client_for, started_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def policy(response) -> dict[str, list[str]]:
    directives = (d.split() for d in response["Content-Security-Policy"].split(";") if d.strip())
    return {d[0]: d[1:] for d in directives}


def inline_code(html: str) -> list[str]:
    """Inline scripts, <style> blocks, style="" and on*="" attributes: all refused by the CSP."""
    # A JSON block (json_script: data for a script, never run) is no script to the policy.
    scripts = [
        s
        for s in re.findall(r"<script\b([^>]*)>", html)
        if "src=" not in s and 'type="application/json"' not in s
    ]
    return (
        scripts
        + re.findall(r"<style\b", html)
        + re.findall(r"\sstyle=", html)
        + re.findall(r"\son[a-z]+=", html)
    )


def test_every_page_is_served_under_a_policy_of_this_sites_scripts_only():
    game = play_randomly(started_game(), 5)
    player, referee = client_for(game.seat0), staff_client_for(make_staff())
    pages = [
        (Client(), reverse("home")),
        (Client(), reverse("login")),
        (Client(), reverse("signup")),
        (Client(), reverse("password_reset")),
        (player, reverse("games:lobby")),
        (player, reverse("games:mine")),
        (player, game.get_absolute_url()),
        (player, reverse("profile", args=[game.seat0.username])),
        (player, reverse("rules")),
        (referee, reverse("admin:games_game_change", args=[game.pk])),
        (referee, reverse("admin:games_game_review", args=[game.pk])),
    ]
    for client, url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        rules = policy(response)
        assert rules["script-src"] == ["'self'"], url
        assert rules["style-src"] == ["'self'"], url
        assert rules["frame-ancestors"] == ["'none'"], url
        assert inline_code(response.text) == [], url


def test_the_page_tells_htmx_not_to_inject_its_indicator_style():
    game = started_game()
    response = client_for(game.seat0).get(game.get_absolute_url())
    assert '"includeIndicatorStyles":false' in response.text


def test_a_partial_is_private_to_its_viewer_and_kept_apart_from_the_page():
    game = started_game()
    player = client_for(game.seat0)
    partial = player.get(game.get_absolute_url(), {"partial": "board"}, **HTMX)
    assert partial.status_code == 200
    assert "<html" not in partial.text
    assert "HX-Request" in partial["Vary"]
    assert "private" in partial["Cache-Control"]
    page = player.get(game.get_absolute_url())
    assert "HX-Request" in page["Vary"]

"""A push to a page drawn one action earlier carries only the log's newest turns of a Basilica
game (the turn that was the newest then, grown, and any begun since), and the page that puts
them in place of its newest turn reads the log a fresh page shows. Whatever else changes the
log (no drawing one action earlier in this process, a scoring) is pushed whole; a takeback is
pushed either way, and the page shows the log without the action taken back."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from factories import started_game
from test_takeback_secrets import a_builder_just_placed, take_back_last

from games.engine import basilica as engine
from games.live import pushes
from games.models import Game
from games.play import services, states

# Committed as a server commits: the state a move makes is kept once its transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

TURN = re.compile(r'<section class="turn-group" id="turn-(\d+)".*?</section>', re.DOTALL)
DELETED = re.compile(r'hx-swap-oob="delete:#turn-(\d+)" data-log-base="(\d+)"')


def turns_of(html: str) -> list[tuple[str, str]]:
    """The log's turn sections, in the order the page shows them: (number, its HTML)."""
    return [(match.group(1), match.group(0)) for match in TURN.finditer(html)]


def applied(shown: str, push: str) -> list[tuple[str, str]]:
    """The log's turns on a page drawn as ``shown`` once ``push`` is put in, as htmx puts it:
    a push of the newest turns in place of the one it deletes, else the whole log pushed."""
    deleted = DELETED.search(push)
    if deleted is None:
        return turns_of(push)
    return turns_of(push) + [turn for turn in turns_of(shown) if turn[0] != deleted.group(1)]


def page_log(game: Game) -> str:
    """The log as a spectator's page draws it now (never a delta: a page is drawn whole)."""
    response = Client().get(f"{game.get_absolute_url()}?partial=log", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.text


def spectators_push(game: Game) -> str:
    game.refresh_from_db()
    return pushes.render_push(game.pk, AnonymousUser(), None, "")


def act(game: Game, rng_index: int = 0) -> Game:
    state = states.load_state(game)
    actions = engine.legal_actions(state)
    action = actions[rng_index % len(actions)]
    return services.submit_action(game, game.player(state.to_decide), action.to_json(), game.seq)


def test_a_push_carries_the_newest_turns_and_the_page_then_shows_the_log_a_fresh_one_does():
    game = act(started_game(edition="2022"))  # a log begun: "the game has just begun" goes
    for step in range(12):
        shown = page_log(game)  # the spectator's page, drawn at this seq
        game = act(game, step)
        push = spectators_push(game)
        deleted = DELETED.search(push)
        assert deleted, f"action {game.seq}: the push carried the whole log"
        assert int(deleted.group(2)) == game.seq - 1
        assert 'id="log"' not in push
        pushed = turns_of(push)
        assert 1 <= len(pushed) <= 2  # the newest turn then, and the one begun by the action
        assert applied(shown, push) == turns_of(page_log(game))


def test_a_push_of_a_log_not_drawn_one_action_earlier_here_carries_it_whole():
    game = started_game(edition="2022")
    page_log(game)
    game = act(act(game))  # two actions, nothing drawn between them (another process drew it)
    push = spectators_push(game)
    assert "data-log-base" not in push
    assert 'id="log"' in push
    assert turns_of(push) == turns_of(page_log(game))


def test_a_page_that_puts_in_the_push_of_a_takeback_shows_the_log_without_the_action():
    game = a_builder_just_placed()
    shown = page_log(game)
    assert "Placed a builder" in shown
    game = take_back_last(game)
    push = spectators_push(game)
    fresh = page_log(game)
    assert applied(shown, push) == turns_of(fresh)
    assert fresh.count("Placed a builder") == shown.count("Placed a builder") - 1

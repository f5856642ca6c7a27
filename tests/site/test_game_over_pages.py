"""A game over, by any ending, on or off the board: its page asks nobody for a move, runs no
clock, and its log ends with how it ended."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from factories import (
    client_for,
    game_from_log,
    player,
    search_position,
    started_game,
    user_deciding,
)

from games.engine import basilica
from games.models import Game
from games.play import services, states

pytestmark = pytest.mark.django_db

IN_PLAY_WORDS = (
    'class="prompt"',
    "Your turn",
    "to play:",
    "to answer",
    "on turn, waiting",
    "Waiting for",
    "is deciding",
    "Clock running",
    'data-running="1"',
    " deciding",
)


@pytest.fixture
def ann():
    return player("ann")


@pytest.fixture
def bob():
    return player("bob")


def page_of(game: Game, user) -> str:
    return client_for(user).get(game.get_absolute_url()).text


def log_of(page: str) -> str:
    return page.split('id="log"', 1)[1]


def status_of(page: str) -> str:
    return page.split('id="status"', 1)[1].split("</section>", 1)[0]


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def decide(game: Game) -> Game:
    state = states.load_state(game)
    action = game.engine.legal_actions(state)[0].to_json()
    return services.submit_action(game, user_deciding(game), action, game.seq)


def assert_over(page: str, ending: str) -> None:
    status = status_of(page)
    for in_play in IN_PLAY_WORDS:
        assert in_play not in status, in_play
    log = words(log_of(page))
    assert "just begun" not in log
    # The log is newest first: how the game ended comes before any move.
    assert log.split("Log", 1)[1].strip().startswith(ending)


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_an_aborted_game_asks_nobody_for_a_move_and_its_log_ends_with_the_abort(kind, ann, bob):
    game = started_game(ann, bob, kind=kind)
    services.abort(game, ann)
    for viewer in (ann, bob):
        assert_over(page_of(game, viewer), "The game was aborted by ann")


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_a_resigned_game_marks_nobody_to_play(kind, ann, bob):
    game = decide(decide(started_game(ann, bob, kind=kind)))
    resigning = user_deciding(game)
    services.resign(game, resigning)
    for viewer in (ann, bob):
        assert_over(page_of(game, viewer), f"{resigning.username} resigned")


def test_a_game_resigned_during_a_paid_order_offer_leaves_nobody_to_answer_it(ann, bob):
    options = basilica.Options(edition="2022", first_player=0)
    seed, actions = search_position(
        options, lambda s: s.decision is not None and s.decision["kind"] == "paid"
    )
    game = game_from_log(options, seed, actions, seat0=ann, seat1=bob)
    state = states.load_state(game)
    offering = game.player(state.active)
    assert "to answer the paid-order offer" in page_of(game, ann)

    services.resign(game, offering)

    for viewer in (ann, bob):
        assert_over(page_of(game, viewer), f"{offering.username} resigned")


def test_a_cathedral_game_lost_on_time_shows_the_losers_clock_at_zero(calendar, ann, bob):
    game = started_game(ann, bob, kind="cathedral", time_control="10+5")
    calendar.shift(timedelta(seconds=40))
    game = decide(game)
    while game.to_decide == 0:  # the Cathedral first, then ann's own building
        game = decide(game)
    calendar.shift(timedelta(seconds=20))
    game = decide(game)
    loser = game.to_decide
    calendar.shift(timedelta(minutes=12))

    game = services.enforce_clock(game)

    assert game.termination == "timeout"
    page = page_of(game, ann)
    assert_over(page, f"{game.player(loser).username} ran out of time")
    clocks = re.findall(r'<time class="clock-time">([^<]*)</time>', status_of(page))
    assert clocks[loser] == "0:00"
    assert clocks[1 - loser] != "0:00"

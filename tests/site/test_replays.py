"""The replay of a game, step by step, as each viewer may see it, and "since your last move"."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from factories import client_for, make_user, play, play_randomly, started_game

from games.engine import cathedral
from games.models import Game
from games.play import states

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def replay_url(game: Game, step: int) -> str:
    return f"{reverse('games:replay', args=[game.pk])}?step={step}"


def every_step(client, game: Game) -> list[str]:
    pages = []
    for step in range(game.seq + 1):
        response = client.get(replay_url(game, step), **HTMX)
        assert response.status_code == 200
        pages.append(CSRF.sub(r"\1", response.text))
    return pages


@pytest.fixture
def game_under_way():
    return play_randomly(started_game(expansion=True, remove_six=True, seed=20261122), 14)


def scrambled(state):
    """The same game but for what nobody may know yet: the stack's order below its top (which
    lies order side up), the tiles removed unseen, the seed."""
    other = state.copy()
    other.stack = state.stack[-2::-1] + state.stack[-1:]
    if state.removed and state.stack:
        other.stack[0], other.removed[0] = state.removed[0], other.stack[0]
    other.seed = state.seed ^ 0x5EED
    return other


def test_each_step_shows_the_position_after_that_many_actions(game_under_way):
    game = game_under_way
    client = client_for(game.seat0)
    page = client.get(replay_url(game, 5)).text
    assert "Step 5 of 14" in page
    assert 'aria-current="step"' in page
    state = states.replay_game(game, upto=5)
    returns = state.returns()
    assert f"{game.seat0.username} {returns[0]}, {game.seat1.username} {returns[1]}" in page
    assert "Step 14 of 14" in client.get(replay_url(game, 99)).text
    assert "Step 0 of 14" in client.get(replay_url(game, -3)).text


def test_no_step_depends_on_what_a_player_or_spectator_may_not_know(game_under_way, monkeypatch):
    game = game_under_way
    real = {step: states.replay_game(game, upto=step) for step in range(game.seq + 1)}
    other = {step: scrambled(state) for step, state in real.items()}
    for user in (game.seat0, game.seat1, make_user("spectator")):
        client = client_for(user)
        worlds = []
        for world in (real, other):
            monkeypatch.setattr(states, "state_at", lambda _game, step, w=world: w[step])
            monkeypatch.setattr(states, "load_state", lambda _game, w=world: w[game.seq])
            worlds.append(every_step(client, game))
            monkeypatch.undo()
        assert worlds[0] == worlds[1], user.username
        assert str(game.seed) not in "".join(worlds[0])


def test_a_finished_game_replays_for_anyone_with_the_stack_shown():
    game = play_randomly(started_game(seed=7), 400)
    assert game.status == Game.Status.FINISHED
    page = client_for(make_user("carl")).get(replay_url(game, 3)).text
    assert "everything is shown" in page
    state = states.replay_game(game, upto=3)
    if state.stack:
        assert "The stack, in the order it would have been drawn" in page


def test_a_private_game_has_no_replay_for_a_stranger():
    game = play_randomly(started_game(private=True), 3)
    assert client_for(make_user("carl")).get(replay_url(game, 1)).status_code == 404
    assert client_for(game.seat1).get(replay_url(game, 1)).status_code == 200


def test_stepping_far_into_a_long_game_replays_from_snapshots_not_from_the_start(monkeypatch):
    game = play_randomly(started_game(expansion=True, seed=3), 120)
    assert game.seq > 60
    far = game.seq - 10
    states.forget_cached_states()
    states.state_at(game, far)
    replays = []
    real = game.engine.replay

    def counting(options, seed, actions, check=False, start=None):
        replays.append(len(list(actions)))
        return real(options, seed, actions, check=check, start=start)

    monkeypatch.setattr(game.engine, "replay", counting)
    state = states.state_at(game, far + 1)
    assert replays == [1]  # one action on from the snapshot just below
    assert len(state.history) == far + 1
    monkeypatch.undo()
    assert state == states.replay_game(game, upto=far + 1)


# -- since your last move ----------------------------------------------------------------------


def cathedral_cells(view: dict) -> dict[str, tuple]:
    cells = {}
    for row in range(10):
        for col in range(10):
            piece = view["cells"][row][col]
            key = cathedral.cell_label(col, row)
            cells[key] = (piece and piece["piece"], view["territory"][row][col])
    return cells


def test_since_your_last_move_lists_the_others_moves_and_marks_exactly_the_cells_they_changed():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, kind="cathedral")
    game = play(
        game,
        [
            {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0},
            {"kind": "place", "building": "castle", "col": 1, "row": 1, "turn": 0},
            {"kind": "place", "building": "tower", "col": 7, "row": 7, "turn": 0},
            {"kind": "place", "building": "inn", "col": 0, "row": 8, "turn": 0},
        ],
    )
    page = client_for(alice).get(game.get_absolute_url()).text  # alice (Light) moved 3rd
    assert "Since your last move: 1 action" in page
    assert f"{reverse('games:replay', args=[game.pk])}?step=3" in page
    before = cathedral.view(states.replay_game(game, upto=3), 0)
    after = cathedral.view(states.load_state(game), 0)
    expected = {k for k, v in cathedral_cells(after).items() if cathedral_cells(before)[k] != v}
    marked = set(re.findall(r'class="cell[^"]*\bchanged\b[^"]*" data-cell="([A-J]\d+)"', page))
    assert marked == expected
    assert marked  # the Inn's squares at least


def test_a_player_who_moved_last_sees_no_since_box():
    alice, bob = make_user("alice"), make_user("bob")
    game = started_game(alice, bob, kind="cathedral")
    game = play(game, [{"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}])
    assert "Since your last move" not in client_for(alice).get(game.get_absolute_url()).text

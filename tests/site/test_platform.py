"""The platform knows a game only through its kind and the engine interface: the same checks,
the same service and the same pages for every game the site hosts."""

from __future__ import annotations

import json
import random

import pytest
from factories import make_staff, make_user, staff_client_for, started_game

from games import kinds
from games.engine import KINDS as ENGINES
from games.engine import engine_for
from games.engine.interface import GameEngine
from games.models import Game
from games.play import services, states

pytestmark = pytest.mark.django_db

ALL = list(kinds.REGISTERED)


def test_every_kind_on_the_site_has_a_registered_engine():
    assert set(ALL) == set(ENGINES)
    assert "cathedral" in ALL
    assert "basilica" in ALL


@pytest.mark.parametrize("key", ALL)
def test_every_engine_implements_the_written_interface(key):
    engine = engine_for(key)
    for name in [*GameEngine.__annotations__, *GameEngine.__dict__]:
        if not name.startswith("_"):
            assert hasattr(engine, name), f"{key} lacks {name}"
    assert key == engine.NAME
    assert issubclass(engine.IllegalAction, ValueError)


def play_to_the_end(game: Game, rng: random.Random, limit: int = 2000) -> Game:
    for _ in range(limit):
        if game.status != Game.Status.ACTIVE:
            return game
        state = states.load_state(game)
        action = rng.choice(list(game.engine.legal_actions(state))).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("key", ALL)
def test_a_whole_game_of_each_kind_goes_through_the_one_service_and_replays(key):
    game = play_to_the_end(started_game(kind=key), random.Random(3))
    assert game.status == Game.Status.FINISHED
    state = states.replay_game(game)
    assert state.finished
    assert len(state.history) == game.seq
    assert game.scores == list(state.returns())
    for viewer in (0, 1, None):
        json.dumps(game.engine.view(state, viewer))


@pytest.mark.parametrize("key", ALL)
def test_a_move_of_the_wrong_player_or_of_no_known_shape_is_refused_for_every_kind(key):
    game = started_game(kind=key)
    state = states.load_state(game)
    waiting = game.player(1 - state.to_decide)
    action = game.engine.legal_actions(state)[0].to_json()
    with pytest.raises(services.NotAllowed):
        services.submit_action(game, waiting, action, game.seq)
    with pytest.raises(services.MoveRejected):
        services.submit_action(game, game.player(state.to_decide), {"kind": "teleport"}, game.seq)
    assert game.actions.count() == 0


@pytest.mark.parametrize("key", ALL)
def test_the_admin_reviews_any_action_of_a_game_of_each_kind(key):
    game = play_to_the_end(started_game(kind=key), random.Random(5))
    client = staff_client_for(make_staff())
    for seq in (0, game.seq // 2, game.seq):
        response = client.get(f"/admin/games/game/{game.pk}/review/?seq={seq}")
        assert response.status_code == 200
        assert f"after action {seq}" in response.text


@pytest.mark.parametrize("key", ALL)
def test_a_rematch_gives_each_role_to_the_other_player(key):
    alice, bob = make_user("alice"), make_user("bob")
    game = play_to_the_end(started_game(alice, bob, kind=key), random.Random(9))
    first_mover = game.player(states.replay_game(game, upto=0).to_decide)
    game = services.offer_rematch(game, bob)
    rematch = services.answer_rematch(game, alice, accept=True)
    assert rematch.kind == key
    assert rematch.player(states.load_state(rematch).to_decide) != first_mover

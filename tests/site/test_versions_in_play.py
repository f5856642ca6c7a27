"""Rules versions in play: a stored game goes on by the rules it was started with, a rematch is a
new game on today's rules, and the games of a series keep the rules the series began with."""

from __future__ import annotations

import random

import pytest
from factories import make_user, play_randomly, started_game
from test_platform import play_to_the_end
from test_series import open_series

from games.engine import engine_for
from games.models import Game
from games.play import services, states

pytestmark = pytest.mark.django_db


def on_version_1(game: Game) -> Game:
    """The game as a version-1 game stored before version 2 came: set before its first move."""
    Game.objects.filter(pk=game.pk).update(engine_version="1")
    game.refresh_from_db()
    states.forget_cached_states()
    return game


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_a_new_game_is_played_by_todays_rules(kind):
    game = started_game(kind=kind)
    assert game.engine_version == engine_for(kind).VERSION == "2"
    assert states.load_state(game).version == "2"


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_a_version_1_game_goes_on_by_version_1_to_its_end(kind):
    game = on_version_1(started_game(kind=kind))
    game = play_to_the_end(game, random.Random(4))
    assert game.status == Game.Status.FINISHED
    assert game.engine_version == "1"
    replayed = states.replay_game(game)
    assert replayed.version == "1"
    assert list(replayed.outcome.scores) == game.scores
    # Its log is a legal game of version 1, checked action by action.
    engine = engine_for(kind, "1")
    actions = [a.data for a in game.actions.order_by("seq")]
    assert engine.replay(game.engine_options, game.seed, actions, check=True) == replayed


def test_a_version_1_basilica_game_still_offers_what_version_1_allowed():
    game = on_version_1(started_game(expansion=True))
    game = play_randomly(game, 40, random.Random(2))
    state = states.load_state(game)
    assert state.version == "1"
    assert game.engine.legal_actions(state) == engine_for("basilica").legal_actions(state)


def test_a_rematch_of_a_version_1_game_is_played_by_todays_rules():
    alice, bob = make_user("alice"), make_user("bob")
    game = on_version_1(started_game(alice, bob, kind="cathedral"))
    game = play_to_the_end(game, random.Random(9))
    game = services.offer_rematch(game, bob)
    rematch = services.answer_rematch(game, alice, accept=True)
    assert rematch.engine_version == "2"
    assert states.load_state(rematch).version == "2"


def test_the_next_game_of_a_series_keeps_the_rules_the_series_began_with():
    alice, bob = make_user("alice"), make_user("bob")
    first = on_version_1(open_series(alice, bob, 2))
    first = play_to_the_end(first, random.Random(5))
    second = Game.objects.get(series=first.series, series_number=2)
    assert second.engine_version == "1"
    assert states.load_state(second).version == "1"

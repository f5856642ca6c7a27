"""Small factories for the site's tests: players, games in each status, and moves through the
one service door, so that a test reads as a story of play."""

from __future__ import annotations

import itertools
import random

from django.contrib.auth import get_user_model

from games import engine, services
from games.models import Game

PASSWORD = "a cathedral of many colours"
_names = itertools.count(1)


def make_user(username: str | None = None, **fields):
    username = username or f"player{next(_names)}"
    return get_user_model().objects.create_user(username=username, password=PASSWORD, **fields)


def make_staff(username: str = "referee"):
    return make_user(username, is_staff=True, is_superuser=True)


def open_game(creator=None, **settings) -> Game:
    """A game waiting for an opponent; ``settings`` are those of the lobby form."""
    settings.setdefault("first", "me")
    return services.create_game(creator or make_user(), services.GameSettings(**settings))


def started_game(seat0=None, seat1=None, seed: int | None = None, **settings) -> Game:
    """A game in play; seat 0 (the creator) moves first unless ``first`` says otherwise."""
    game = open_game(seat0, **settings)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed)
    return services.accept_game(game, seat1 or make_user())


def user_deciding(game: Game):
    game.refresh_from_db()
    return game.player(game.to_decide)


def play(game: Game, actions) -> Game:
    """Each action, as JSON, submitted by whoever must decide."""
    for action in actions:
        game = services.submit_action(game, user_deciding(game), action, game.seq)
    return game


def play_randomly(game: Game, moves: int, rng: random.Random | None = None) -> Game:
    """``moves`` legal actions chosen at random (fewer if the game ends)."""
    rng = rng or random.Random(game.pk)
    for _ in range(moves):
        state = services.load_state(game)
        if state.finished:
            break
        game = play(game, [rng.choice(engine.legal_actions(state)).to_json()])
    return game


def first_legal(game: Game) -> dict:
    return engine.legal_actions(services.load_state(game))[0].to_json()

"""``manage.py check_games``: every stored game replayed on its own rules version and held
against its row; a game that differs is named, and the command fails."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from factories import make_user, started_game
from test_platform import play_to_the_end

from games import services
from games.models import Action, Game

pytestmark = pytest.mark.django_db


def check(*args) -> str:
    out = io.StringIO()
    call_command("check_games", *args, stdout=out)
    return out.getvalue()


def refused(*args) -> str:
    out = io.StringIO()
    with pytest.raises(CommandError) as failure:
        call_command("check_games", *args, stdout=out)
    return out.getvalue() + str(failure.value)


def played(game: Game, moves: int, rng: random.Random) -> Game:
    for _ in range(moves):
        state = services.load_state(game)
        action = rng.choice(list(game.engine.legal_actions(state))).to_json()
        game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
    return game


@pytest.fixture
def stored():
    """Finished, running and resigned games of both kinds, on both rules versions."""
    alice, bob = make_user("alice"), make_user("bob")
    games = {}
    for kind in ("basilica", "cathedral"):
        for version in ("1", "2"):
            game = started_game(alice, bob, kind=kind)
            Game.objects.filter(pk=game.pk).update(engine_version=version)
            game.refresh_from_db()
            games[kind, version, "finished"] = play_to_the_end(game, random.Random(3))
        running = played(started_game(alice, bob, kind=kind), 12, random.Random(1))
        games[kind, "2", "running"] = running
        resigned = played(started_game(alice, bob, kind=kind), 6, random.Random(2))
        games[kind, "2", "resigned"] = services.resign(resigned, alice)
    return games


def test_every_stored_game_replays_as_it_is_stored(stored):
    summary = check().strip()
    assert summary.startswith(f"{len(stored)} games checked in ")
    assert summary.endswith(": 0 mismatches")


def test_a_changed_result_is_found(stored):
    game = stored["basilica", "1", "finished"]
    Game.objects.filter(pk=game.pk).update(scores=[game.scores[0] + 1, game.scores[1]])
    said = refused()
    assert f"game {game.pk} (basilica, rules version 1): stored scores" in said
    assert "1 mismatch" in said


def test_a_game_on_rules_the_site_does_not_have_is_found(stored):
    game = stored["cathedral", "2", "finished"]
    Game.objects.filter(pk=game.pk).update(engine_version="9")
    said = refused("--id", str(game.pk))
    assert f"game {game.pk} (cathedral, rules version 9): cannot be replayed" in said
    assert "version '9' is not installed" in said


def test_an_illegal_action_in_a_log_is_found(stored):
    game = stored["cathedral", "2", "running"]
    first = game.actions.get(seq=1)
    Action.objects.filter(pk=first.pk).update(data={**first.data, "col": 9, "row": 9})
    said = refused("--kind", "cathedral")
    assert f"game {game.pk} (cathedral, rules version 2): does not replay: action 1:" in said


def test_a_missing_action_is_found(stored):
    game = stored["basilica", "2", "running"]
    game.actions.filter(seq=game.seq).delete()
    said = refused("--id", str(game.pk))
    assert f"game {game.pk} (basilica, rules version 2): stored {game.seq} actions" in said


def test_a_gap_in_the_log_is_found(stored):
    game = stored["basilica", "2", "running"]
    game.actions.filter(seq=2).delete()
    said = refused("--id", str(game.pk))
    assert "its actions are numbered 1, 3, 4" in said


def test_the_options_choose_the_games(stored):
    game = stored["basilica", "1", "finished"]
    assert check("--id", str(game.pk)).startswith("1 game checked in ")
    assert check("--kind", "cathedral").startswith("4 games checked in ")
    assert check("--since", "2999-01-01").startswith("0 games checked in ")
    other = stored["cathedral", "1", "finished"]
    assert check("--id", f"{game.pk},{other.pk}").startswith("2 games checked in ")
    assert "replays as stored" in check("--id", str(game.pk), "--verbosity", "2")

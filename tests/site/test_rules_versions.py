"""What a player sees of rules versions: which version a game is played by, the top of the stack,
the Altar's second altar as each version has it, each version's Abbey, and what changed."""

from __future__ import annotations

import random

import pytest
from conftest import client_for
from django.urls import reverse
from factories import game_from_log, make_staff, make_user, started_game

from games import services
from games.engine import basilica
from games.kinds.cathedral.presenters import footprint
from games.models import Game

pytestmark = pytest.mark.django_db


def on_version(game: Game, version: str) -> Game:
    Game.objects.filter(pk=game.pk).update(engine_version=version)
    game.refresh_from_db()
    services.forget_cached_states()
    return game


def page(game: Game, user=None) -> str:
    return client_for(user or game.seat0).get(game.get_absolute_url()).text


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_the_game_page_and_its_replay_name_the_rules_version(kind):
    game = started_game(kind=kind)
    assert "rules version 2" in page(game)
    old = on_version(started_game(kind=kind), "1")
    assert "rules version 1" in page(old)
    replay = client_for(old.seat0).get(reverse("games:replay", args=[old.pk])).text
    assert "rules version 1" in replay


def test_the_basilica_page_shows_the_top_of_the_stack():
    game = started_game()
    state = services.load_state(game)
    top = state.tiles[state.stack[-1]]
    text = page(game)
    assert f"Top of the stack ({len(state.stack)} tiles)" in text
    assert f'data-tile="{top.id}"' in text
    assert f'data-tile="{state.stack[-2]}"' not in text


def _altar_owed() -> tuple[basilica.Options, int, list]:
    """A log, legal by both versions, that ends with an Altar order whose second altar is owed."""
    options = basilica.Options(expansion=True, first_player=0)
    for seed in range(300):
        rng = random.Random(seed)
        state, log = basilica.new_game(options, seed), []
        while not state.finished and len(log) < 120:
            legal = [a for a in basilica.legal_actions(state) if a.kind != "confuse"]
            altars = [a for a in legal if a.kind == "altar"]
            action = altars[0] if altars else rng.choice(legal)
            state = basilica.apply_action(state, action)
            log.append(action)
            if state.decision and state.decision["kind"] == "second_altar":
                return options, seed, log
            if action.kind == "altar":
                break
    raise AssertionError("no Altar order with a second altar owed")


@pytest.mark.parametrize(
    ("version", "prompt", "skip"),
    [
        ("2", "Altar: place your second altar on a highlighted vault.", False),
        ("1", "Altar: place a second altar on a highlighted vault, or stop at one.", True),
    ],
)
def test_the_second_altar_as_each_version_has_it(version, prompt, skip):
    options, seed, log = _altar_owed()
    game = on_version(game_from_log(options, seed, log), version)
    text = page(game, game.player(game.to_decide))
    assert prompt in text
    assert ("No second altar" in text) is skip


def test_a_cathedral_game_draws_the_abbeys_of_its_own_version():
    game = started_game(kind="cathedral")
    today = page(game).replace("rules version 2", "")
    earlier = page(on_version(game, "1")).replace("rules version 1", "")
    assert today != earlier  # only the Abbeys differ
    assert footprint("abbey", "dark", 0, "2") != footprint("abbey", "dark", 0, "1")
    assert footprint("abbey", "dark", 0, "1") == footprint("abbey", "light", 0, "2")


def test_the_rules_pages_say_what_changed_in_version_2():
    client = client_for(make_user())
    basilica_rules = client.get(reverse("rules")).text
    assert "What changed in rules version 2" in basilica_rules
    assert "The second is not optional" in basilica_rules
    assert "order side" in basilica_rules
    cathedral_rules = client.get(reverse("rules-kind", args=["cathedral"])).text
    assert "What changed in rules version 2" in cathedral_rules
    assert "one building may capture in two parts" in cathedral_rules


def test_the_admin_lists_each_games_rules_version():
    game = on_version(started_game(), "1")
    listing = client_for(make_staff()).get("/admin/games/game/").text
    assert "Engine version" in listing
    assert '<td class="field-engine_version">1</td>' in listing
    assert game.pk

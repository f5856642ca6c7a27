"""A game with a takeback is analysed as it was played on: the action taken back and the
takeback itself are not judged, every action that stands is, from the position it was played
in."""

from __future__ import annotations

import pytest
from django.urls import reverse
from factories import client_for, make_user, started_game

from games import bots
from games.models import Analysis, Game
from games.play import analysis, services, states

pytestmark = pytest.mark.django_db

QUICK = bots.Budget(simulations=12)


@pytest.fixture(autouse=True)
def quick_analyses(monkeypatch):
    monkeypatch.setitem(bots.ANALYSIS_BUDGETS, "cathedral", QUICK)


def move(game: Game, user, index: int = 0) -> Game:
    state = states.load_state(game)
    action = game.engine.legal_actions(state)[index].to_json()
    return services.submit_action(game, user, action, game.seq)


def take_back(game: Game, asker, opponent) -> Game:
    for user, answer in ((asker, "ask"), (opponent, "accept")):
        game.refresh_from_db()
        client_for(user).post(
            reverse("games:takeback", args=[game.pk]), {"answer": answer, "seq": game.seq}
        )
    game.refresh_from_db()
    return game


@pytest.fixture
def played_on() -> Game:
    """Ann's first building taken back by agreement; she places another, Bob answers, and
    Ann resigns."""
    ann, bob = make_user("ann"), make_user("bob")
    game = started_game(ann, bob, kind="cathedral")
    assert game.player(game.to_decide) == ann
    game = move(game, ann, index=5)
    game = take_back(game, ann, bob)
    assert game.seq == 2, "the action and its takeback are both in the log"
    game = move(game, ann, index=0)
    game = move(game, bob)
    return services.resign(game, ann)


def test_only_the_actions_that_stand_are_judged(played_on):
    judged = analysis.judge_game(played_on, QUICK)
    assert [move["seq"] for move in judged] == [3, 4]
    assert [move["player"] for move in judged] == [0, 1]


def test_the_replay_page_shows_the_analysis_of_a_game_with_a_takeback(played_on):
    client = client_for(make_user("carl"))
    client.post(reverse("games:analysis", args=[played_on.pk]))
    assert Analysis.objects.get(game=played_on).status == Analysis.Status.DONE
    page = client.get(reverse("games:replay", args=[played_on.pk])).text
    assert "<svg" in page

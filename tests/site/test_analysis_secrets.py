"""The analysis keeps and shows nothing a player could not see when they moved: whatever the
secrets of the seat that acted (the stack's order below its top, the tiles removed unseen, the
seed, the other player's Jester colour), its stored judgements and the replay page's analysis
are the same, and the game's seed appears in neither."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.urls import reverse
from factories import client_for, make_user, play_randomly, started_game

from games import bots
from games.models import Analysis, Game
from games.play import services
from tests.engine.hidden import other_secrets

pytestmark = pytest.mark.django_db

QUICK = bots.Budget(simulations=12)
HTMX = {"HTTP_HX_REQUEST": "true"}
CSRF = re.compile(r'(csrfmiddlewaretoken" value=")[^"]+')


@pytest.fixture(autouse=True)
def quick_analyses(monkeypatch):
    monkeypatch.setitem(bots.ANALYSIS_BUDGETS, "basilica", QUICK)


@pytest.fixture
def finished():
    """An expansion game with six tiles removed unseen, resigned after some turns."""
    game = play_randomly(started_game(expansion=True, remove_six=True, seed=20261122), 16)
    return services.resign(game, game.player(game.to_decide))


def analysed(game: Game) -> tuple[list[dict], str]:
    """The stored judgements and the analysis as the replay page shows it, asked for anew."""
    Analysis.objects.filter(game=game).delete()
    client = client_for(make_user())
    section = client.post(reverse("games:analysis", args=[game.pk]), **HTMX).text
    return Analysis.objects.get(game=game).moves, CSRF.sub(r"\1", section)


def test_the_analysis_does_not_depend_on_what_the_player_who_acted_could_not_see(
    finished, monkeypatch
):
    game = finished
    real = analysed(game)
    judge, change, changed = bots.judge, random.Random(11), []

    def in_another_world(kind, state, played, budget, rng):
        other = other_secrets(state, state.to_decide, change)
        changed.append(other.stack != state.stack or other.removed != state.removed)
        return judge(kind, other, played, budget, rng)

    monkeypatch.setattr(bots, "judge", in_another_world)

    assert analysed(game) == real
    assert sum(changed) > game.seq // 2


def test_the_comparison_notices_a_judgement_that_reads_a_secret(finished, monkeypatch):
    game = finished
    real = analysed(game)
    judge = bots.judge

    def cheating(kind, state, played, budget, rng):
        judged = judge(kind, state, played, budget, rng)
        return bots.Judgement(judged.before, float(state.stack[0] % 50), judged.preferred)

    monkeypatch.setattr(bots, "judge", cheating)
    assert analysed(game)[0] != real[0]


def test_neither_the_stored_analysis_nor_the_page_shows_the_seed(finished):
    game = finished
    moves, section = analysed(game)
    page = client_for(make_user()).get(reverse("games:replay", args=[game.pk])).text
    seed = str(game.seed)
    assert len(seed) >= 6
    assert seed not in json.dumps(moves)
    assert seed not in section
    assert seed not in page
    assert "Computer analysis" in page

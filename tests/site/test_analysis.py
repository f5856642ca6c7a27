"""The computer's analysis of a finished game, as players meet it on the replay page: asked for
with a button, made on the compute queue (at once in tests), then an evaluation graph, the
mistakes and the moves the bot preferred; refused during play, one at a time for each player."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from factories import client_for, make_user, play_randomly, started_game

from games import bots, tasks
from games.archive import records
from games.models import Analysis, Game
from games.play import analysis as service
from games.play import services
from games.tasks import COMPUTE

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
QUICK = bots.Budget(simulations=12)


@pytest.fixture(autouse=True)
def quick_analyses(monkeypatch):
    """A small budget for each position: the tests look at what is kept and shown, not at
    how well the bot plays."""
    monkeypatch.setitem(bots.ANALYSIS_BUDGETS, "basilica", QUICK)
    monkeypatch.setitem(bots.ANALYSIS_BUDGETS, "cathedral", QUICK)


def resigned_game(moves: int = 14, seed: int = 20261126, **settings) -> Game:
    """A short game of Basilica: some moves at random, then the player to move resigns."""
    game = play_randomly(started_game(seed=seed, **settings), moves)
    game = services.resign(game, game.player(game.to_decide))
    assert game.status == Game.Status.FINISHED
    return game


def replay_page(client, game: Game, **params) -> str:
    response = client.get(reverse("games:replay", args=[game.pk]), params)
    assert response.status_code == 200
    return response.text


def ask(client, game: Game, **extra):
    return client.post(reverse("games:analysis", args=[game.pk]), **extra)


def test_a_spectator_asks_for_the_analysis_of_a_finished_game_and_reads_it():
    game = resigned_game()
    carl = make_user("carl")  # neither of the players
    client = client_for(carl)
    assert "Ask the computer to analyse this game" in replay_page(client, game)

    answer = ask(client, game, **HTMX)

    assert answer.status_code == 200
    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.DONE
    assert analysis.requested_by == carl
    assert analysis.version == bots.ANALYSIS_VERSION
    assert [m["seq"] for m in analysis.moves] == list(range(1, game.seq + 1))
    for move in analysis.moves:
        assert 0 <= move["after"] <= 100
        assert 0 <= move["before"] <= 100
        assert move["drop"] == max(0.0, round(move["before"] - move["after"], 1))
    assert "<svg" in answer.text
    assert "<title" in answer.text
    page = replay_page(client, game)
    assert "Computer analysis" in page
    assert "at least 10 points" in page
    assert len(re.findall(r"<li>Step \d+: ", page)) == game.seq + 1  # the figures, as text


def test_the_graph_of_a_short_game_is_the_same_every_time_it_is_made():
    game = resigned_game()
    client = client_for(make_user("carl"))
    ask(client, game)
    first = Analysis.objects.get(game=game)
    graph = re.search(r"<svg.*?</svg>", replay_page(client, game), re.S).group(0)

    first.delete()
    ask(client, game)

    assert Analysis.objects.get(game=game).moves == first.moves
    assert re.search(r"<svg.*?</svg>", replay_page(client, game), re.S).group(0) == graph


def test_the_graph_ends_at_the_result_and_its_points_follow_the_first_players_chances():
    game = resigned_game()
    ask(client_for(make_user("carl")), game)
    moves = Analysis.objects.get(game=game).moves
    page = replay_page(client_for(make_user("dora")), game)
    points = re.search(r'<polyline class="analysis-line" points="([^"]+)"', page).group(1).split()
    assert len(points) == game.seq + 1
    loser_is_first = game.winners == [1]
    assert points[-1].endswith(",160.0" if loser_is_first else ",0.0")
    first = moves[0]["before"] if moves[0]["player"] == 0 else 100 - moves[0]["before"]
    assert f"Step 0: {game.names[0]} {first:g}%" in page


def test_a_mistake_shows_the_move_the_computer_preferred_and_the_replay_marks_it(monkeypatch):
    game = resigned_game()
    client = client_for(make_user("carl"))
    ask(client, game)
    analysis = Analysis.objects.get(game=game)
    # One move made a blunder by hand, as a stronger search might have judged it.
    blunder = next(m for m in analysis.moves if m["preferred"] is not None)
    blunder.update(before=80.0, after=20.0, drop=60.0)
    analysis.save()

    page = replay_page(client, game)
    link = f"?step={blunder['seq'] - 1}&amp;preferred={blunder['seq']}"
    assert link in page
    assert "The computer preferred:" in page

    shown = replay_page(client, game, step=blunder["seq"] - 1, preferred=blunder["seq"])
    hint = re.search(r'<p id="computer-hint"[^>]*>', shown).group(0)
    assert "data-cells=" in hint or "data-tiles=" in hint
    assert f"Step {blunder['seq'] - 1} of {game.seq}" in shown
    # Another step, or a move it preferred nothing to, marks nothing.
    assert 'id="computer-hint"' not in replay_page(client, game, step=2, preferred=9)


def test_the_analysis_is_refused_for_a_game_being_played_and_not_offered_there():
    game = play_randomly(started_game(), 6)
    client = client_for(game.seat0)
    page = replay_page(client, game)
    assert "Ask the computer to analyse this game" not in page
    assert 'id="analysis"' not in page

    answer = ask(client, game, **HTMX)

    assert "still being played" in answer.text
    assert not Analysis.objects.exists()
    followed = ask(client, game, follow=True)
    assert "still being played" in followed.text
    assert not Analysis.objects.exists()


def test_one_analysis_at_a_time_for_each_player(monkeypatch):
    carl = make_user("carl")
    first, second = resigned_game(seed=1), resigned_game(seed=2)
    # The compute queue busy with other work: carl's first analysis waits its turn.
    monkeypatch.setattr(tasks, "analyse_game", lambda analysis_id: None)
    client = client_for(carl)
    ask(client, first)
    assert Analysis.objects.get(game=first).status == Analysis.Status.QUEUED
    assert "waiting its turn" in replay_page(client, first)

    refused = ask(client, second, **HTMX)

    assert f"Your analysis of game {first.pk} is not finished yet" in refused.text
    assert not Analysis.objects.filter(game=second).exists()
    # Another player may ask for the same game: it is the same analysis, on its way.
    ask(client_for(make_user("dora")), first)
    assert Analysis.objects.get(game=first).requested_by == carl
    # Once carl's is done, he may ask for another.
    monkeypatch.undo()
    service.run(Analysis.objects.get(game=first).pk)
    ask(client, second)
    assert Analysis.objects.get(game=second).status == Analysis.Status.DONE


def test_requests_of_several_players_are_served_one_at_a_time(monkeypatch):
    games = [resigned_game(seed=seed) for seed in (3, 4, 5)]
    running_together = []
    judge = service.judge_game

    def watched(game, budget):
        running_together.append(Analysis.objects.filter(status=Analysis.Status.RUNNING).count())
        return judge(game, budget)

    monkeypatch.setattr(service, "judge_game", watched)
    for game in games:
        ask(client_for(make_user()), game)

    assert running_together == [1, 1, 1]
    assert all(a.status == Analysis.Status.DONE for a in Analysis.objects.all())
    assert Analysis.objects.count() == 3


def test_an_anonymous_or_forged_request_is_refused():
    game = resigned_game()
    anonymous = Client().post(reverse("games:analysis", args=[game.pk]))
    assert anonymous.status_code == 302
    assert "login" in anonymous["Location"]
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(make_user("mallory"))
    assert forged.post(reverse("games:analysis", args=[game.pk])).status_code == 403
    assert client_for(make_user()).get(reverse("games:analysis", args=[game.pk])).status_code == 405
    assert not Analysis.objects.exists()
    page = replay_page(Client(), game)
    assert "Sign in to ask the computer" in page


def test_a_private_game_is_analysed_for_nobody_but_its_players():
    game = resigned_game(private=True)
    assert ask(client_for(make_user("carl")), game).status_code == 404
    assert not Analysis.objects.exists()


def test_an_analysis_that_fails_on_every_try_says_so_and_can_be_asked_again(monkeypatch):
    game = resigned_game()
    client = client_for(make_user("carl"))

    def broken(game, budget):
        raise RuntimeError("the worker ran out of memory")

    monkeypatch.setattr(service, "judge_game", broken)
    ask(client, game)
    analysis = Analysis.objects.get(game=game)
    assert analysis.status == Analysis.Status.QUEUED  # its retry waits on the queue
    later = COMPUTE._get_timestamp() + timedelta(minutes=5)
    for _ in range(2):  # what a consumer does when each retry is due
        (retry,) = COMPUTE.read_schedule(later)
        COMPUTE.execute(retry, timestamp=later)
        later += timedelta(minutes=5)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.FAILED
    assert analysis.attempts == 3
    page = replay_page(client, game)
    assert "The analysis of this game failed." in page
    assert "Ask again" in page

    monkeypatch.undo()
    ask(client, game)

    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    assert len(analysis.moves) == game.seq


def test_the_analysis_is_queued_below_the_bots_moves_and_hints(monkeypatch):
    queued = []
    monkeypatch.setattr(COMPUTE, "_immediate", False)
    monkeypatch.setattr(COMPUTE, "enqueue", queued.append)
    game = resigned_game()
    ask(client_for(make_user("carl")), game)
    (task,) = queued
    assert task.name == "analyse_game"
    assert task.priority == tasks.Priority.ANALYSIS < tasks.Priority.CORRESPONDENCE
    assert Analysis.objects.get(game=game).status == Analysis.Status.QUEUED


def test_an_analysis_whose_worker_died_counts_as_failed_and_frees_its_player(monkeypatch):
    carl = make_user("carl")
    first, second = resigned_game(seed=6), resigned_game(seed=8)
    client = client_for(carl)
    monkeypatch.setattr(tasks, "analyse_game", lambda analysis_id: None)
    ask(client, first)
    # The worker took it, then died: the analysis stays "running" with nobody at it.
    long_ago = timezone.now() - timedelta(hours=1)
    Analysis.objects.filter(game=first).update(status=Analysis.Status.RUNNING, started_at=long_ago)
    monkeypatch.undo()

    assert "The analysis of this game failed." in replay_page(client, first)
    ask(client, second)
    assert Analysis.objects.get(game=second).status == Analysis.Status.DONE
    ask(client, first)
    assert Analysis.objects.get(game=first).status == Analysis.Status.DONE


def test_an_imported_game_is_analysed_like_any_finished_game():
    game = resigned_game()
    carl = make_user("carl")
    text = json.dumps(records.export(game))
    client = client_for(carl)
    client.post(reverse("games:import"), {"text": text})
    imported = Game.objects.get(imported=True)

    ask(client, imported)

    analysis = Analysis.objects.get(game=imported)
    assert analysis.status == Analysis.Status.DONE
    assert len(analysis.moves) == game.seq
    assert "Computer analysis" in replay_page(client, imported)
    assert game.names[0] in replay_page(client, imported)

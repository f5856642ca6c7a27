"""The computer's analysis on the replay page: the button that asks for it, its state while the
compute queue works, then the evaluation graph, the mistakes and the moves the bot preferred.

The replay page has no socket: while an analysis is queued or running, the page says so with a
plain link to look again (no page of the site asks the server on a timer).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from games.models import Analysis, Game
from games.play import analysis as service
from games.play import states
from games.web import errors
from games.words import say

MISTAKE_DROP = 10  # points of the chance of winning lost by a move, at least, to be a mistake
MISTAKES_EACH = 5  # the largest drops shown for each player
GRAPH_WIDTH, GRAPH_HEIGHT = 600, 160


@require_POST
@login_required
def ask(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for (or again for) the analysis of a finished game: any signed-in player who may
    watch it, one analysis at a time each."""
    game = errors.game_or_404(request, pk)
    if not game.can_watch(request.user):
        raise Http404("no such game")
    refusal = ""
    try:
        analysis, queue = service.request(game, request.user)
    except service.Refused as error:
        refusal = error.message
    else:
        if queue:
            from games import tasks

            tasks.request_analysis(analysis.pk)
    if request.htmx:
        context = {"a": section(game, request.user), "refusal": refusal}
        return render(request, "games/_analysis.html", context)
    if refusal:
        messages.error(request, refusal)
    return redirect(f"{reverse('games:replay', args=[game.pk])}#analysis")


def section(game: Game, user) -> dict:
    """What the replay page's analysis section shows ``user``."""
    analysis = service.current(game) if service.offered(game) else None
    context = {
        "game": game,
        "offered": service.offered(game),
        "signed_in": user.is_authenticated,
        "analysis": analysis,
        "threshold": MISTAKE_DROP,
        "per_player": MISTAKES_EACH,
        "replay_url": reverse("games:replay", args=[game.pk]),
    }
    if analysis is not None and analysis.status == Analysis.Status.DONE:
        names = game.names
        context["names"] = names
        context["graph"] = graph(game, analysis.moves)
        context["mistakes"] = mistakes(game, analysis.moves, names)
    return context


def final_chance(game: Game) -> float:
    """The first player's result as a chance: 100 won, 0 lost, 50 shared."""
    winners = list(game.winners or [])
    if winners == [0]:
        return 100.0
    if winners == [1]:
        return 0.0
    return 50.0


def graph(game: Game, moves: list[dict]) -> dict:
    """The first player's chance of winning before each action and at the end, as the SVG
    draws it (coordinates in its viewBox) and as the text list says it."""
    chances = [m["before"] if m["player"] == 0 else round(100 - m["before"], 1) for m in moves]
    chances.append(final_chance(game))
    last = max(1, len(chances) - 1)
    points = [
        {
            "step": step,
            "chance": chance,
            "x": round(step * GRAPH_WIDTH / last, 1),
            "y": round(GRAPH_HEIGHT * (1 - chance / 100), 1),
        }
        for step, chance in enumerate(chances)
    ]
    return {
        "width": GRAPH_WIDTH,
        "height": GRAPH_HEIGHT,
        "middle": GRAPH_HEIGHT / 2,
        "points": points,
    }


def mistakes(game: Game, moves: list[dict], names: list[str]) -> list[dict]:
    """The moves that lost at least ``MISTAKE_DROP`` points, the ``MISTAKES_EACH`` largest of
    each player, in the order they were played, each with the move the bot preferred."""
    chosen = []
    for seat in (0, 1):
        theirs = [
            m
            for m in moves
            if m["player"] == seat and m["drop"] >= MISTAKE_DROP and m["preferred"] is not None
        ]
        theirs.sort(key=lambda m: (-m["drop"], m["seq"]))
        chosen.extend(theirs[:MISTAKES_EACH])
    chosen.sort(key=lambda m: m["seq"])
    played = dict(
        game.actions.filter(seq__in=[m["seq"] for m in chosen]).values_list("seq", "data")
    )
    url = reverse("games:replay", args=[game.pk])
    return [
        {
            **move,
            "name": names[move["player"]],
            "played": words_at(game, move["seq"], played[move["seq"]]),
            "preferred_text": words_at(game, move["seq"], move["preferred"]),
            "url": f"{url}?step={move['seq'] - 1}&preferred={move['seq']}",
        }
        for move in chosen
    ]


def words_at(game: Game, seq: int, data: dict) -> str:
    """An action that was (or could have been) action ``seq``, in the log's words."""
    state = states.state_at(game, seq - 1)
    return say(game.engine.describe_action(state, game.engine.Action.from_log(data)))


def preferred_on_board(game: Game, step: int, asked: str | None) -> dict:
    """For the replay at ``step``: the move the bot preferred to the action after it, to mark on
    the board as a hint is (``?preferred=`` names that action), when the analysis has one."""
    if not asked or not asked.isdigit() or int(asked) != step + 1 or not service.offered(game):
        return {}
    analysis = service.current(game)
    if analysis is None or analysis.status != Analysis.Status.DONE:
        return {}
    move = next((m for m in analysis.moves if m["seq"] == step + 1), None)
    if move is None or move["preferred"] is None:
        return {}
    from games import kinds

    state = states.state_at(game, step)
    marks = kinds.of(game).hint_marks(state, game.engine.Action.from_log(move["preferred"]))
    return {
        "preferred_move": {
            "text": words_at(game, move["seq"], move["preferred"]),
            "cells": marks.get("cells", []),
            "tiles": marks.get("tiles", []),
        }
    }

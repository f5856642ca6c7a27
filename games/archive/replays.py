"""The replay of a game, step by step.

A step is a number of actions from the start (0: the new game). Each step is shown through the
engine: the viewer's own ``view`` while the game runs (a player sees what they saw then, a
spectator what spectators saw), and ``reveal`` once it is over, when anyone who may watch the
game may replay it with everything shown. The page's URL names the step, so a position can be
shared.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.archive import analysis_views
from games.correspondence import notes
from games.models import Game
from games.play import analysis as analysis_service
from games.play import states, takebacks
from games.web import errors
from games.web.presenters import game_context

REPLAYED = (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABORTED)

# The list of steps, in words, as one viewer reads it in one language: the same at every step of
# a replay, so it is said once (a hundred sentences) for the steps a player walks through.
_STEPS_KEPT = 64
_steps: OrderedDict[tuple, list[dict]] = OrderedDict()
_steps_lock = Lock()


@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = errors.game_or_404(request, pk)
    if game.status not in REPLAYED or not game.can_watch(request.user):
        raise Http404("no such game")  # not begun; or private, to the staff, as its page
    try:
        step = int(request.GET.get("step", game.seq))
    except ValueError:
        step = game.seq
    step = max(0, min(step, game.seq))
    state = states.state_at(game, step)
    context = game_context(game, state, request.user, replay=True, reveal=game.over)
    context.update(replay_context(game, context, step))
    context.update(analysis_views.preferred_on_board(game, step, request.GET.get("preferred")))
    if request.htmx:
        return render(request, "games/replay.html#replay", context)
    # The viewer's own notes, read for this page alone: never in the steps kept for others.
    context["note"] = notes.note_of(game, request.user)
    if analysis_service.offered(game):  # never during play: it would be help
        context["analysis_section"] = analysis_views.section(game, request.user)
    return render(request, "games/replay.html", context)


def _steps_of(game: Game, seat: int | None, context: dict) -> list[dict]:
    key = (game.pk, game.seq, game.status, seat, tuple(context["names"]), get_language())
    with _steps_lock:
        kept = _steps.get(key)
        if kept is not None:
            _steps.move_to_end(key)
            return kept
    final = states.load_state(game)
    seen = game.engine.reveal(final) if game.over else game.engine.view(final, seat)
    describe = context["kind"].describe_entry
    names = context["names"]
    steps = [
        {
            "seq": entry["seq"],
            "player": entry["player"],
            "text": describe(entry, seen, names),
        }
        for entry in seen["log"]
        if entry.get("seq") and entry.get("kind", "place") != "pass"
    ]
    steps += _taken_back_steps(game, final, seat, seen, context)
    steps.sort(key=lambda step: step["seq"])
    with _steps_lock:
        _steps[key] = steps
        while len(_steps) > _STEPS_KEPT:
            _steps.popitem(last=False)
    return steps


def _taken_back_steps(game: Game, final, seat: int | None, seen: dict, context: dict) -> list:
    """The steps the view's log leaves out: each action taken back, as the viewer saw it then,
    and each takeback, said as agreed."""
    describe, names = context["kind"].describe_entry, context["names"]
    steps = []
    for number, undone in takebacks.taken_back_pairs(final):
        asker = takebacks.asker_of(final, undone)
        entry = takebacks.shown_then(game, undone, seat, reveal=game.over)
        if entry is not None:
            said = describe(entry, seen, names)
            text = _("%(action)s (taken back)") % {"action": said}
            steps.append({"seq": undone, "player": asker, "text": text, "taken_back": True})
        text = takebacks.taken_back_words(final, number, names)
        steps.append({"seq": number, "player": 1 - asker, "text": text, "takeback": True})
    return steps


def replay_context(game: Game, context: dict, step: int) -> dict:
    """The steps (the whole log as the viewer may read it now) and the controls."""
    seat = context["seat"]
    steps = _steps_of(game, seat, context)
    url = reverse("games:replay", args=[game.pk])
    last = game.seq
    return {
        "step": step,
        "last_step": last,
        "steps": steps,
        "returns": list(states.state_at(game, step).returns()),
        "takeback_note": _step_note(steps, step),
        "links": {
            "first": f"{url}?step=0",
            "previous": f"{url}?step={max(step - 1, 0)}",
            "next": f"{url}?step={min(step + 1, last)}",
            "last": f"{url}?step={last}",
        },
        "revealed": game.over,
        "replay_templates": [
            f"{context['kind'].template}#{name}" for name in context["kind"].replay_partials
        ],
    }


def _step_note(steps: list[dict], step: int) -> str:
    """What the replay says above the board at a takeback, or at an action later taken back."""
    for shown in steps:
        if shown["seq"] == step and shown.get("takeback"):
            return shown["text"]
        if shown["seq"] == step and shown.get("taken_back"):
            return _("This action was later taken back, by agreement.")
    return ""

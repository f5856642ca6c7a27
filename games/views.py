"""Lobby, game page, moves, my games, profiles and rules. Views stay thin: the service decides."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Case, IntegerField, Q, Value, When
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import services
from games.engine.components import ASSUMED, BASE_ORDER_COUNTS, EDITIONS, ORDER_NAMES, RANK_NAMES
from games.engine.components import Options as EngineOptions
from games.forms import NewGameForm
from games.models import Game
from games.presenters import game_context
from games.ratelimit import limited
from games.validation import MOVE_BODY_MAX, body_at_most

PARTIALS = {"live", "play", "board", "market", "status", "log"}


def _lobby_context(user, form: NewGameForm) -> dict:
    return {
        "seeks": Game.objects.open_seeks().select_related("seat0").order_by("-created_at"),
        "form": form,
        "waiting": Game.objects.waiting_for(user).select_related("seat0", "seat1"),
        "mine_open": Game.objects.filter(created_by=user, status=Game.Status.OPEN),
    }


@require_GET
@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    context = _lobby_context(request.user, NewGameForm())
    if request.htmx:
        return render(request, "games/lobby.html#seeks", context)
    return render(request, "games/lobby.html", context)


@require_POST
@login_required
@limited("create_game")
def create(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", _lobby_context(request.user, form), status=400)
    game = services.create_game(request.user, form.game_settings())
    return redirect(game)


@require_POST
@login_required
def accept(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    if game.private and request.POST.get("token") != game.invite_token:
        raise Http404("no such game")  # a private game does not exist for a stranger
    try:
        services.accept_game(game, request.user)
    except services.MoveRejected as error:
        messages.error(request, error.message)
        return redirect("games:lobby")
    return redirect(game)


@require_POST
@login_required
def cancel(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=pk)
    try:
        services.cancel_game(game, request.user)
    except services.NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except services.MoveRejected as error:
        messages.error(request, error.message)
    else:
        messages.info(request, f"Game {game.pk} was cancelled.")
    return redirect("games:lobby")


@require_GET
@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("seat0"), invite_token=token)
    if game.status != Game.Status.OPEN:
        return redirect(game)
    return render(request, "games/invitation.html", {"game": game})


@require_GET
@login_required
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
    if game.status == Game.Status.CANCELLED:
        raise Http404("this game was cancelled")
    if game.private and game.seat_of(request.user) is None:
        raise Http404("no such game")  # a private game does not exist for a stranger
    if request.htmx and request.GET.get("waiting"):
        # The waiting page polls: open the board as soon as someone has accepted.
        if game.status == Game.Status.OPEN:
            return HttpResponse(status=204)
        return HttpResponseClientRedirect(game.get_absolute_url())
    if game.status == Game.Status.OPEN:
        return render(
            request, "games/waiting.html", {"game": game, "seat": game.seat_of(request.user)}
        )
    if not game.can_watch(request.user):
        raise PermissionDenied("this private game is only open to its two players")
    return _render_game(request, game, pick=request.GET.get("pick"))


def _render_game(request, game, status=200, error="", pick=None):
    """The game page, or the region an HTMX request swaps; ``pick`` is the clicks so far."""
    state = services.load_state(game)
    context = game_context(game, state, request.user, pick)
    context["error"] = error
    if request.htmx:
        # Answer with the region the request will swap: a move form and the page's catch-up
        # replace the whole live region (log included), a pick link only the play area.
        partial = request.GET.get("partial") or request.htmx.target
        if partial not in PARTIALS:
            partial = "play"
        return render(request, f"games/game.html#{partial}", context, status=status)
    return render(request, "games/game.html", context, status=status)


@require_POST
@login_required
@body_at_most(MOVE_BODY_MAX)
def act(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
    if game.seat_of(request.user) is None:
        raise PermissionDenied("only the two players of this game can act in it")
    try:
        data = json.loads(request.POST.get("action", ""))
        seq = int(request.POST.get("seq", ""))
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python goes
        return _rejected(request, game, 400, "that form was not a move: reload the page")
    try:
        game = services.submit_action(game, request.user, data, seq)
    except services.MoveRejected as error:
        game.refresh_from_db()
        return _rejected(request, game, error.status, error.message)
    if request.htmx:
        return _render_game(request, game)
    return redirect(game)


def _rejected(request, game, status, message):
    """The fresh board with the reason the move was refused (no half-made pick survives)."""
    return _render_game(request, game, status=status, error=message)


@require_GET
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    user = request.user
    games = (
        Game.objects.involving(user)
        .exclude(status=Game.Status.CANCELLED)
        .select_related("seat0", "seat1")
        .annotate(
            waiting=Case(
                When(
                    Q(seat0=user, to_decide=0, status="active")
                    | Q(seat1=user, to_decide=1, status="active"),
                    then=Value(0),
                ),
                When(status="active", then=Value(1)),
                When(status="open", then=Value(2)),
                default=Value(3),
                output_field=IntegerField(),
            )
        )
        .order_by("waiting", "-updated_at")
    )
    rows = [{"game": g, "result": g.result_for(user), "your_move": g.waiting == 0} for g in games]
    return render(request, "games/my_games.html", {"rows": rows})


@require_GET
@login_required
def profile(request: HttpRequest, username: str) -> HttpResponse:
    person = get_object_or_404(get_user_model(), username=username)
    games = (
        Game.objects.involving(person)
        .visible_to(request.user)
        .filter(status__in=[Game.Status.ACTIVE, Game.Status.FINISHED])
        .select_related("seat0", "seat1")
        .order_by("-updated_at")
    )
    finished = [
        {"game": g, "result": g.result_for(person)} for g in games if g.status == "finished"
    ]
    running = [g for g in games if g.status == "active"]
    record = {k: sum(1 for r in finished if r["result"] == k) for k in ("won", "lost", "shared")}
    return render(
        request,
        "games/profile.html",
        {"person": person, "finished": finished, "running": running, "record": record},
    )


@require_http_methods(["GET"])
def rules(request: HttpRequest, edition: str = "2022") -> HttpResponse:
    if edition not in EDITIONS:
        raise Http404("no such edition")
    options = EngineOptions(edition=edition)
    context = {
        "edition": edition,
        "options": options,
        "ranks": [RANK_NAMES[r] for r in options.ranks],
        "orders": [(ORDER_NAMES[o], n) for o, n in BASE_ORDER_COUNTS.items()],
        "assumed": ASSUMED,
        "editions": list(EDITIONS),
    }
    return render(request, "games/rules.html", context)

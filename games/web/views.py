"""Lobby, game page, moves, my games, profiles and rules. Views stay thin: the service decides."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect, reswap, retarget

from basilica_site.compression import never_compressed
from games import kinds
from games.community import presence, relations
from games.correspondence import notify
from games.kinds.basilica import help as help_words
from games.models import Computer, Game, Notification, Series, open_account
from games.play import computer, services, states, timing, vacation
from games.play import series as series_standings
from games.ratings import profile as rating_pages
from games.ratings import service as ratings
from games.terms import UnplayableSettings
from games.tournaments import tables as tournament_tables
from games.web import errors, friends, front, next_game
from games.web.forms import (
    LocaleSettingsForm,
    NotificationSettingsForm,
    PlaySettingsForm,
    VacationForm,
)
from games.web.locale import language_of
from games.web.presenters import game_context
from games.web.ratelimit import limited
from games.web.thumbnails import boards, thumbnail
from games.web.validation import MOVE_BODY_MAX, body_at_most

LOBBY_NOW = 8  # games being played now, on the lobby; the rest on their own page
NOW_PER_PAGE = 30
PROFILE_FINISHED = 20  # the last finished games on a profile; the history has them all


def _lobby_context(user, posted=None) -> dict:
    """The lobby; ``posted`` is a refused form (a seek's or one against the computer), shown
    again with its errors in its kind's place."""
    forms = []
    for kind in kinds.all_kinds():
        form = posted if _is_form_of(posted, kind.key) else kind.options_form()
        forms.append({"kind": kind, "form": form, "open": form is posted})
    against = []
    for kind in kinds.all_kinds():
        prefix = f"computer-{kind.key}"
        form = posted if _is_form_of(posted, prefix) else kind.options_form(prefix=prefix)
        against.append({"kind": kind, "form": form, "open": form is posted})
    return {
        "grid": front.grid(),
        "seeks": ratings.seek_rows(
            Game.objects.open_seeks()
            .not_blocked(user)
            .select_related("seat0")
            .order_by("-created_at"),
            user,
        ),
        "forms": forms,
        "against": against,
        "levels": Computer.Level.choices,
        "waiting": Game.objects.deciding(user).with_players(),
        "mine_open": Game.objects.filter(created_by=user, status=Game.Status.OPEN),
        "now": boards(Game.objects.being_played().not_blocked(user).with_players()[:LOBBY_NOW]),
    }


@require_GET
@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby; its list of open seeks asks for itself again when its socket says it changed
    (``games.live.lobby``), which a change after ``drawn_at`` did."""
    context = {"drawn_at": _drawn_at(), **_lobby_context(request.user)}
    if request.htmx:
        return render(request, "games/lobby.html#seeks", context)
    return render(request, "games/lobby.html", context)


def _drawn_at() -> str:
    """When a page that follows a list was drawn (taken before its queries): its socket tells it
    at once of a change it missed since."""
    return f"{time.time():.3f}"


def _is_form_of(form, prefix: str) -> bool:
    return form is not None and form.prefix == prefix


def _not_a_lobby_form(request: HttpRequest, what: str) -> HttpResponse:
    messages.error(request, what)
    return render(request, "games/lobby.html", _lobby_context(request.user), status=400)


def _refused_form(request: HttpRequest, form) -> HttpResponse:
    messages.error(request, _("Those options cannot be played: the form says why."))
    return render(request, "games/lobby.html", _lobby_context(request.user, form), status=400)


@require_POST
@login_required
@limited("create_game")
def create(request: HttpRequest) -> HttpResponse:
    try:
        kind = kinds.get(request.POST.get("kind", ""))
    except KeyError:
        return _not_a_lobby_form(
            request, _("That form was not one of the lobby's: choose a game and try again.")
        )
    form = kind.options_form(request.POST)
    if not form.is_valid():
        return _refused_form(request, form)
    try:
        game = services.create_game(request.user, form.game_settings())
    except UnplayableSettings as refusal:
        form.add_error(None, str(refusal))
        return _refused_form(request, form)
    return redirect(game)


@require_POST
@login_required
@limited("create_game")
def play_computer(request: HttpRequest) -> HttpResponse:
    """A game against a bot of the chosen level, started at once (private: not a seek)."""
    try:
        kind = kinds.get(request.POST.get("kind", ""))
        level = Computer.Level(request.POST.get("level", ""))
    except (KeyError, ValueError):
        return _not_a_lobby_form(
            request, _("That form was not one of the lobby's: choose a game and a level.")
        )
    form = kind.options_form(request.POST, prefix=f"computer-{kind.key}")
    if not form.is_valid():
        return _refused_form(request, form)
    terms = replace(form.game_settings(), private=True)
    try:
        game = computer.play_the_computer(request.user, terms, level)
    except UnplayableSettings as refusal:
        form.add_error(None, str(refusal))
        return _refused_form(request, form)
    except computer.TooManyGames as refusal:
        messages.error(request, refusal.message)
        context = _lobby_context(request.user)
        return render(request, "games/lobby.html", context, status=refusal.status)
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
    game = errors.game_or_404(request, pk)
    try:
        services.cancel_game(game, request.user)
    except services.NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except services.MoveRejected as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("Game %(number)s was cancelled.") % {"number": game.pk})
    return redirect("games:lobby")


@require_GET
@login_required
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("seat0"), invite_token=token)
    if relations.apart(game.seat0, request.user):
        raise Http404("no such game")  # silent: as an invitation that never was
    if game.status != Game.Status.OPEN:
        return redirect(game)
    return render(request, "games/invitation.html", {"game": game})


@require_GET
def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page: its players, and anyone, signed in or not, watching a public game."""
    game = errors.game_or_404(request, pk)
    if game.private and game.seat_of(request.user) is None:
        raise Http404("no such game")  # the staff read a private game in the admin, not here
    if request.htmx and request.GET.get("waiting"):
        # The waiting page asks when its socket says the game is no longer waiting: it opens
        # the board once someone has accepted, or the page a reload shows once it was cancelled.
        if game.status == Game.Status.OPEN:
            return HttpResponse(status=204)
        return HttpResponseClientRedirect(game.get_absolute_url())
    if game.status == Game.Status.CANCELLED:
        raise Http404("this game was cancelled")
    if game.status == Game.Status.OPEN and relations.apart(game.seat0, request.user):
        raise Http404("this game was cancelled")  # silent: a blocked pair's seek is gone
    if game.status == Game.Status.OPEN:
        return _waiting_page(request, game)
    if not game.can_watch(request.user):
        raise PermissionDenied("this private game is only open to its two players")
    if game.deadline and game.deadline <= timezone.now():
        game = services.enforce_clock(game)  # the worker may be down: the page checks too
    if game.seat_of(request.user) is not None:
        notify.seen(request.user, game.pk)
    pick = request.GET.get("pick")
    if pick and request.htmx and request.GET.get("seq", str(game.seq)) != str(game.seq):
        # A click on a page drawn before the last move: show the game as it is now, whole.
        response = _render_game(
            request, game, status=409, error=services.StaleMove.PAGE, partial="live"
        )
        return retarget(reswap(response, "outerHTML"), "#live")
    return _render_game(request, game, pick=pick)


@never_compressed  # a private game's holds its invitation link
def _waiting_page(request, game: Game) -> HttpResponse:
    context = {"game": game, "seat": game.seat_of(request.user)}
    return render(request, "games/waiting.html", context)


def _render_game(request, game, status=200, error="", pick=None, partial=None):
    """The game page, or the region an HTMX request swaps; ``pick`` is the clicks so far."""
    state = states.load_state(game)
    context = game_context(game, state, request.user, pick)
    context["error"] = error
    if request.htmx:
        # Answer with the region the request will swap: a move form and the page's catch-up
        # replace the whole live region (log included), a pick link only the play area.
        partial = partial or request.GET.get("partial") or request.htmx.target
        if partial not in context["kind"].partials:
            partial = "play"
        # The header's count of games waiting comes with the push, not here: a push may detach
        # this request's form first, and htmx then finds no header for an out-of-band swap.
        return render(request, f"{context['kind'].template}#{partial}", context, status=status)
    return render(request, context["kind"].template, context, status=status)


@require_POST
@login_required
@body_at_most(MOVE_BODY_MAX)
def act(request: HttpRequest, pk: int) -> HttpResponse:
    game = errors.game_or_404(request, pk)
    if game.seat_of(request.user) is None:
        raise PermissionDenied("only the two players of this game can act in it")
    try:
        data = json.loads(request.POST.get("action", ""))
        seq = int(request.POST.get("seq", ""))
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python goes
        return _rejected(request, game, 400, _("that form was not a move: reload the page"))
    try:
        game = services.submit_action(game, request.user, data, seq)
    except services.MoveRejected as error:
        game.refresh_from_db()
        return _rejected(request, game, error.status, error.message)
    advanced = next_game.go_on(request, game)
    if advanced is not None:
        return advanced
    if request.htmx:
        return next_game.with_offer(request, game, _render_game(request, game))
    return redirect(game)


def _rejected(request, game, status, message):
    """The fresh board with the reason the move was refused (no half-made pick survives)."""
    return _render_game(request, game, status=status, error=message)


@require_GET
@login_required
def my_games(request: HttpRequest) -> HttpResponse:
    """Games waiting for you first, the most urgent first; then the others (next_game.urgency)."""
    user = request.user
    games = list(
        next_game.with_last_move(Game.objects.involving(user))
        .exclude(status=Game.Status.CANCELLED)
        .with_players()
        .order_by("-updated_at")
    )
    running = [game for game in games if game.status == Game.Status.ACTIVE]
    clocks = dict(zip((game.pk for game in running), timing.read_many(running), strict=True))
    rows = [_my_game_row(game, user, clocks.get(game.pk)) for game in games]
    rows.sort(key=next_game.urgency)
    return render(request, "games/my_games.html", {"rows": rows})


def _my_game_row(game: Game, user, reading) -> dict:
    seat = game.seat_of(user)
    row = {"game": game, "result": game.result_for(user), "time_left": "", "deadline": None}
    row["last"] = next_game.last_activity(game, seat)  # "ann moved 3 hours ago"
    if game.status == Game.Status.ACTIVE:
        row["group"] = "yours" if game.to_decide == seat else "theirs"
        row["thumbnail"] = thumbnail(game)
        if reading.running is not None:
            left = reading.remaining[reading.running]
            row["time_left"] = game.clock_control.show(left)
            if game.clock_control.correspondence:
                row["deadline"] = reading.deadline  # shown in the viewer's zone, named
    else:
        row["group"] = "open" if game.status == Game.Status.OPEN else "over"
    row["your_move"] = row["group"] == "yours"
    return row


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page, open to anyone as the public games it lists are (a private game only to
    its players and the staff)."""
    person = open_account(username)
    if person is None:
        return errors.not_found_page(request, errors.no_player(username))
    finished = (
        Game.objects.involving(person)
        .visible_to(request.user)
        .filter(status=Game.Status.FINISHED)
        .with_players()
        .order_by("-finished_at", "-pk")
    )
    shown = [{"game": g, "result": g.result_for(person)} for g in finished[: PROFILE_FINISHED + 1]]
    results = rating_pages.results(person, request.user)
    record = {
        key: sum(r[key] for _, r in results["by_edition"]) for key in ("won", "lost", "shared")
    }
    context = {
        "person": person,
        "finished": shown[:PROFILE_FINISHED],
        "finished_more": len(shown) > PROFILE_FINISHED,
        "running": rating_pages.running(person, request.user),
        "record": record,
        "ratings": rating_pages.ratings(person, request.user),
        "results": results,
        "seen": presence.seen(person),
        "computer": Computer.may_be(person),  # no one to report
        **friends.relation_context(request.user, person),
        "tournaments": tournament_tables.played_by(person, request.user),
    }
    return render(request, "games/profile.html", context)


@require_GET
def now_playing(request: HttpRequest) -> HttpResponse:
    """Public games in play, the last moved first: anyone, signed in or not, may watch them."""
    drawn_at = _drawn_at()
    games = Game.objects.being_played().not_blocked(request.user).with_players()
    page = Paginator(games, NOW_PER_PAGE).get_page(request.GET.get("page"))
    context = {"page": page, "now": boards(page), "drawn_at": drawn_at}
    if request.htmx:
        return render(request, "games/now_playing.html#now", context)
    return render(request, "games/now_playing.html", context)


@require_GET
def symbols(request: HttpRequest, pk: int) -> HttpResponse:
    """A Basilica game page's legend of symbols, sent when the box is first opened: its words
    depend only on the game's edition and options, and would weigh on every first visit."""
    game = errors.game_or_404(request, pk)
    if game.kind != "basilica":
        raise Http404("only Basilica's pages have a legend of symbols")
    options = game.engine_options
    legend = help_words.legend(options.edition, options.expansion)
    return render(request, "games/basilica/_legend.html#list", {"legend": legend})


@require_GET
def rules(request: HttpRequest, kind: str = "basilica", edition: str | None = None) -> HttpResponse:
    """A game's rules page, as its kind draws it (Basilica's by edition)."""
    try:
        game_kind = kinds.get(kind)
    except KeyError:
        raise Http404("no such game") from None
    return game_kind.rules(request, edition)


@require_GET
def series(request: HttpRequest, pk: int) -> HttpResponse:
    """A series' games and running totals, for whoever may watch its games."""
    found = get_object_or_404(Series, pk=pk)
    first = found.games.with_players().order_by("series_number").first()
    if first is None or not first.can_watch(request.user):
        raise Http404("no such series")
    return render(request, "games/series.html", series_standings.standings(found))


# -- the end of a game: resign, abort, rematch -------------------------------------------------


def _player_post(request: HttpRequest, pk: int, change, done: str) -> HttpResponse:
    """Run a service ``change(game, user)`` for a player and come back to the game page."""
    game = errors.game_or_404(request, pk)
    try:
        result = change(game, request.user)
    except services.NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except services.MoveRejected as error:
        messages.error(request, error.message)
        return redirect(game)
    if done:
        messages.info(request, done)
    return redirect(result)


HINT_SALT = "games.hint"
HINT_PATIENCE = 30  # seconds the page waits for a busy task runner's hint before saying so


@require_POST
@login_required
@limited("hint")
def hint(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask the search bot for the move of the player who decides now, in a game that allows
    hints. The task runner thinks it out (never a web process); the answer's fragment asks
    ``hint_answer`` for it until it is there."""
    game = errors.game_or_404(request, pk)
    seat = game.seat_of(request.user)
    if seat is None:
        raise PermissionDenied("only the players of this game can ask for a hint")
    if not game.allows_hints():
        text = _(
            "This game does not allow hints: only casual games opened with them, and games "
            "against the computer, do."
        )
    elif game.status != Game.Status.ACTIVE or game.to_decide != seat:
        text = _("It is not your decision now.")
    elif request.POST.get("seq") != str(game.seq):
        text = _("The game has moved on since this page was drawn: reload it.")
    else:
        from games import tasks

        task = tasks.computer_hint(game.pk, seat, game.seq)
        ticket = signing.dumps([task.id, request.user.pk, game.pk, time.time()], salt=HINT_SALT)
        return _hint_answer(request, game, ticket, task.id, asked_at=time.time())
    return _hint_told(request, game, {"text": text}, ok=False)


@require_GET
@login_required
def hint_answer(request: HttpRequest, pk: int) -> HttpResponse:
    """The hint asked for with ``ticket`` (signed for this player and game), once the task
    runner has it; until then the same question again, a moment later."""
    game = errors.game_or_404(request, pk)
    ticket = request.GET.get("ticket", "")[:500]
    try:
        task_id, user_id, game_id, asked_at = signing.loads(ticket, salt=HINT_SALT, max_age=300)
    except (signing.BadSignature, ValueError, TypeError):
        return _hint_told(request, game, {"text": _("That hint has expired: ask again.")}, ok=False)
    if user_id != request.user.pk or game_id != game.pk:
        raise PermissionDenied("that hint was asked for by someone else")
    return _hint_answer(request, game, ticket, task_id, asked_at)


def _hint_answer(request, game: Game, ticket: str, task_id: str, asked_at: float):
    from huey.exceptions import TaskException

    from games.tasks import COMPUTE

    try:
        answer = COMPUTE.result(task_id)
    except TaskException:  # the task failed: a hint is no move, so no retry
        answer = {"text": _("The computer could not find a hint this time: ask again.")}
    if answer is not None:
        if "text" not in answer:  # the task runner's answer, said here in the player's words
            answer = {**answer, "text": computer.hint_words(answer)}
        return _hint_told(request, game, answer, ok="cells" in answer)
    if time.time() - asked_at > HINT_PATIENCE:
        busy = {"text": _("The computer is busy: no hint came in time. Try again in a moment.")}
        return _hint_told(request, game, busy, ok=False)
    waiting = f"{reverse('games:hint-answer', args=[game.pk])}?{urlencode({'ticket': ticket})}"
    if request.htmx:
        return render(request, "games/_hint_answer.html", {"waiting": waiting})
    return render(request, "games/hint_waiting.html", {"game": game, "waiting": waiting})


def _hint_told(request, game: Game, answer: dict, ok: bool) -> HttpResponse:
    if request.htmx:
        context = {
            "text": answer["text"],
            "cells": answer.get("cells", []),
            "tiles": answer.get("tiles", []),
        }
        return render(request, "games/_hint_answer.html", context)
    (messages.info if ok else messages.error)(request, answer["text"])
    return redirect(game)


@require_POST
@login_required
def resign(request: HttpRequest, pk: int) -> HttpResponse:
    return _player_post(request, pk, services.resign, _("You resigned."))


@require_POST
@login_required
def abort(request: HttpRequest, pk: int) -> HttpResponse:
    return _player_post(request, pk, services.abort, _("The game was aborted: it has no result."))


@require_POST
@login_required
def rematch(request: HttpRequest, pk: int) -> HttpResponse:
    answer = request.POST.get("answer", "offer")
    if answer == "offer":
        return _player_post(request, pk, services.offer_rematch, _("Rematch offered."))
    if answer not in ("accept", "decline"):
        messages.error(request, _("That form was not a rematch answer: reload the page."))
        return redirect("games:detail", pk=pk)

    def answering(game, user):
        return services.answer_rematch(game, user, accept=answer == "accept")

    return _player_post(
        request, pk, answering, "" if answer == "accept" else _("You declined the rematch.")
    )


# -- settings: notifications and vacation ------------------------------------------------------


# -- the player's settings: one page, and one view for each of its forms ------------------------


@require_http_methods(["GET", "POST"])
@login_required
def player_settings(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":  # a page from before each form had its own address
        messages.error(request, _("That form was not one of this page's: reload the page."))
        return redirect("settings")
    return _settings_page(request)


@never_compressed  # the calendar feed's address, the browsers' push endpoints, what was typed
def _settings_page(request: HttpRequest, **bound) -> HttpResponse:
    """The settings page, with ``bound`` (a form sent back with its errors) in its place."""
    row = vacation.settings_for(request.user)
    context = {
        "form": NotificationSettingsForm(instance=row),
        "play": PlaySettingsForm(instance=row),
        "place": LocaleSettingsForm(instance=row),
        "leave": VacationForm(),
        **bound,
        "allowance": row.vacation_days,
        "settings_start": settings.VACATION_START_DAYS,
        "on_vacation": vacation.current(request.user),
        "recent": request.user.notifications.filter(channel="email").select_related("game")[:20],
        "blocked": friends.blocked_players(request.user),
    }
    return render(request, "games/settings.html", context, status=400 if bound else 200)


@require_POST
@login_required
def save_notification_settings(request: HttpRequest) -> HttpResponse:
    return _save_settings(
        request,
        NotificationSettingsForm,
        "form",
        gettext_lazy("Your notification settings are saved."),
    )


@require_POST
@login_required
def save_play_settings(request: HttpRequest) -> HttpResponse:
    return _save_settings(
        request, PlaySettingsForm, "play", gettext_lazy("Your settings of play are saved.")
    )


@require_POST
@login_required
def save_locale_settings(request: HttpRequest) -> HttpResponse:
    return _save_settings(
        request, LocaleSettingsForm, "place", gettext_lazy("Your language and time zone are saved.")
    )


def _save_settings(request: HttpRequest, form_class, place: str, saved: str) -> HttpResponse:
    """Save one of the page's forms of the player's settings, or show the page again with it
    (as ``place`` in the page's context) and its errors."""
    form = form_class(request.POST, instance=vacation.settings_for(request.user))
    if not form.is_valid():
        return _settings_page(request, **{place: form})
    row = form.save()
    translation.activate(language_of(request, row))  # "saved" said in the language just chosen
    messages.info(request, str(saved))
    return redirect("settings")


@require_POST
@login_required
def start_vacation(request: HttpRequest) -> HttpResponse:
    leave = VacationForm(request.POST)
    if leave.is_valid():
        try:
            started = vacation.start(request.user, leave.cleaned_data["days"])
        except ValueError as error:
            leave.add_error("days", str(error))
        else:
            when = pgettext("date format: a day, hour and zone", "j M Y, H:i T")
            until = formats.date_format(timezone.localtime(started.ends_at), when)
            messages.info(request, _("You are on vacation until %(until)s.") % {"until": until})
            return redirect("settings")
    return _settings_page(request, leave=leave)


@require_POST
@login_required
def end_vacation(request: HttpRequest) -> HttpResponse:
    vacation.end(request.user)
    messages.info(request, _("Your vacation is over: your clocks run again."))
    return redirect("settings")


@csrf_exempt  # the signed token is the proof; mail clients' one-click unsubscribe POSTs here
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    try:
        user_id, kind = notify.read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "games/unsubscribe.html", {"bad": True}, status=400)
    person = get_object_or_404(get_user_model(), pk=user_id)
    row = vacation.settings_for(person)
    subscribe = request.POST.get("resubscribe") == "1"
    setattr(row, f"email_{kind}", subscribe)
    row.save(update_fields=[f"email_{kind}"])
    label = Notification.Kind(kind).label
    return render(
        request,
        "games/unsubscribe.html",
        {"label": label, "subscribed": subscribe, "token": token, "person": person},
    )

"""A player's history: their games that are over, filtered by game, edition, result and
opponent, as a page and as a CSV file. Open to anyone, signed in or not, as a profile is; only
the games the viewer may see are listed (a private game to its players and the staff)."""

from __future__ import annotations

import csv
from datetime import timedelta

from django import forms
from django.core.paginator import Paginator
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.timesince import timesince
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_GET

from games import kinds
from games.models import Action, Game, open_account, player_name, result_words, termination_words
from games.web import errors

PER_PAGE = 25
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)
# A spreadsheet runs a cell that begins with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class HistoryFilter(forms.Form):
    kind = forms.ChoiceField(required=False, label=pgettext_lazy("kind of game", "Game"))
    edition = forms.ChoiceField(
        required=False,
        label=_("Edition"),
        choices=[("", _("any edition")), *Game.Edition.choices],
    )
    result = forms.ChoiceField(
        required=False,
        label=_("Result"),
        choices=[
            ("", _("any result")),
            ("won", pgettext_lazy("result", "won")),
            ("lost", pgettext_lazy("result", "lost")),
            ("shared", pgettext_lazy("result", "shared")),
            ("none", pgettext_lazy("result", "no result")),
        ],
    )
    opponent = forms.CharField(required=False, max_length=150, label=_("Opponent"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [("", _("any game")), *kinds.choices()]

    def apply(self, games: QuerySet, person) -> QuerySet:
        """The games that pass the filters given; a garbled filter is left out, not an error."""
        self.is_valid()
        chosen = {name: value for name, value in self.cleaned_data.items() if value}
        if "kind" in chosen:
            games = games.filter(kind=chosen["kind"])
        if "edition" in chosen:
            games = games.filter(edition=chosen["edition"])
        if "result" in chosen:
            games = games.filter(result_is(chosen["result"], person))
        if "opponent" in chosen:
            name = chosen["opponent"]
            games = games.filter(
                Q(seat0=person, seat1__username__icontains=name)
                | Q(seat1=person, seat0__username__icontains=name)
            )
        return games


def result_is(result: str, person) -> Q:
    """The games whose result for ``person`` is ``result``, as ``Game.result_for`` says it."""
    finished = Q(status=Game.Status.FINISHED)
    won = Q(seat0=person, winners=[0]) | Q(seat1=person, winners=[1])
    shared = Q(winners=[0, 1]) | Q(winners=[1, 0])
    return {
        "won": finished & won,
        "shared": finished & shared,
        "lost": finished & ~won & ~shared,
        "none": Q(status=Game.Status.ABORTED),
    }[result]


def games_over(person, viewer) -> QuerySet:
    """``person``'s games that are over and that ``viewer`` may see, the last finished first."""
    first_mover = Action.objects.filter(game=OuterRef("pk"), seq=1).values("player")
    return (
        Game.objects.involving(person)
        .visible_to(viewer)
        .filter(status__in=OVER)
        .select_related("seat0", "seat1")
        .annotate(first_mover=Subquery(first_mover))
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")
    )


def history_row(game: Game, person) -> dict:
    """One game seen from ``person``'s seat: their opponent, result and score first."""
    seat = game.seat_of(person)
    other = 1 - seat
    scores = game.scores if len(game.scores) == 2 else [None, None]
    mover = game.player(game.first_mover) if game.first_mover is not None else None
    length = None
    if game.started_at and game.finished_at:
        length = max(game.finished_at - game.started_at, timedelta(0))
    return {
        "game": game,
        "opponent": game.player(other),
        "first_mover": player_name(mover, missing=""),
        "result": game.result_for(person) or "none",
        "result_words": result_words(game.result_for(person) or "none"),
        "ending": termination_words(game.termination),
        "score": scores[seat],
        "opponent_score": scores[other],
        "length": length,
        "length_words": timesince(game.started_at, game.finished_at) if length else "",
    }


@require_GET
def history(request: HttpRequest, username: str) -> HttpResponse:
    person = open_account(username)
    if person is None:
        return errors.not_found_page(request, errors.no_player(username))
    filters = HistoryFilter(request.GET)
    games = filters.apply(games_over(person, request.user), person)
    page = Paginator(games, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "person": person,
        "filters": filters,
        "page": page,
        "rows": [history_row(game, person) for game in page],
    }
    if request.htmx:
        return render(request, "games/history.html#games", context)
    return render(request, "games/history.html", context)


@require_GET
def history_csv(request: HttpRequest, username: str) -> HttpResponse:
    """The whole filtered list, one game a line, for a spreadsheet."""
    person = open_account(username)
    if person is None:
        return errors.not_found_page(request, errors.no_player(username))
    games = HistoryFilter(request.GET).apply(games_over(person, request.user), person)
    response = HttpResponse(
        content_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": content_disposition_header(
                as_attachment=True, filename=f"games-of-{person.username}.csv"
            )
        },
    )
    writer = csv.writer(response)
    writer.writerow(str(column) for column in CSV_COLUMNS)
    for game in games.iterator(chunk_size=500):
        writer.writerow(safe_cell(cell) for cell in csv_line(request, history_row(game, person)))
    return response


CSV_COLUMNS = (
    pgettext_lazy("csv column", "finished"),
    pgettext_lazy("csv column", "game"),
    pgettext_lazy("csv column", "url"),
    pgettext_lazy("csv column", "kind"),
    pgettext_lazy("csv column", "options"),
    pgettext_lazy("csv column", "opponent"),
    pgettext_lazy("csv column", "first move by"),
    pgettext_lazy("csv column", "result"),
    pgettext_lazy("csv column", "score"),
    pgettext_lazy("csv column", "opponent score"),
    pgettext_lazy("csv column", "actions"),
    pgettext_lazy("csv column", "duration (seconds)"),
    pgettext_lazy("csv column", "ending"),
    pgettext_lazy("csv column", "replay"),
)


def csv_line(request: HttpRequest, row: dict) -> list:
    game = row["game"]
    finished = (
        timezone.localtime(game.finished_at).isoformat(timespec="seconds")
        if game.finished_at
        else ""
    )
    seconds = int(row["length"].total_seconds()) if row["length"] is not None else ""
    return [
        finished,
        game.pk,
        request.build_absolute_uri(game.get_absolute_url()),
        game.kind,
        kinds.summary(game),
        player_name(row["opponent"], missing=""),
        row["first_mover"],
        result_words(row["result"]),
        "" if row["score"] is None else row["score"],
        "" if row["opponent_score"] is None else row["opponent_score"],
        game.seq,
        seconds,
        termination_words(game.termination),
        request.build_absolute_uri(reverse("games:replay", args=[game.pk])),
    ]


def safe_cell(value):
    """A text cell a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value

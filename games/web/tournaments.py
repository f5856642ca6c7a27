"""The tournaments' pages: the list (upcoming, running, finished), a new tournament, one
tournament's page, and joining or leaving it (an HTMX POST that works as a plain form too)."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import kinds
from games.models import Tournament
from games.terms import UnplayableSettings
from games.tournaments import entries, tables
from games.web.ratelimit import limited


class TournamentForm(forms.Form):
    """The tournament's own choices; its games' terms come from the lobby's form of the kind."""

    name = forms.CharField(max_length=80, label=gettext_lazy("Name"))
    format = forms.ChoiceField(
        choices=Tournament.Format.choices,
        label=gettext_lazy("Format"),
        help_text=gettext_lazy(
            "Round robin: everyone plays everyone once, all games at once (3 to 12 players). "
            "Swiss: a number of rounds, each paired when the one before has finished."
        ),
    )
    rounds = forms.IntegerField(
        min_value=1,
        max_value=20,
        initial=3,
        required=False,
        label=gettext_lazy("Rounds (Swiss)"),
        help_text=gettext_lazy("At most one fewer than the players who take part."),
    )
    max_players = forms.IntegerField(
        min_value=3, max_value=64, initial=8, label=gettext_lazy("Most players")
    )
    start = forms.ChoiceField(
        choices=[
            ("at", gettext_lazy("at a date and time")),
            ("full", gettext_lazy("when full")),
        ],
        initial="at",
        widget=forms.RadioSelect,
        label=gettext_lazy("Starts"),
    )
    starts_at = forms.DateTimeField(
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        label=gettext_lazy("Start, in your time zone"),
    )
    rating_min = forms.IntegerField(
        required=False, min_value=0, max_value=4000, label=gettext_lazy("Lowest rating")
    )
    rating_max = forms.IntegerField(
        required=False, min_value=0, max_value=4000, label=gettext_lazy("Highest rating")
    )
    invite_only = forms.BooleanField(
        required=False, label=gettext_lazy("By invitation only: players join through a link")
    )
    timeouts_allowed = forms.IntegerField(
        min_value=0,
        max_value=20,
        initial=2,
        label=gettext_lazy("Games a player may lose on time before being withdrawn"),
    )
    official = forms.BooleanField(required=False, label=gettext_lazy("Official (staff)"))

    def __init__(self, *args, staff: bool = False, **kwargs):
        kwargs.setdefault("prefix", "t")
        super().__init__(*args, **kwargs)
        if not staff:
            del self.fields["official"]

    def clean(self):
        data = super().clean()
        fmt, most = data.get("format"), data.get("max_players")
        if fmt == Tournament.Format.ROUND_ROBIN and most and most > Tournament.ROUND_ROBIN_MAX:
            self.add_error("max_players", _("A round robin takes at most 12 players."))
        if fmt == Tournament.Format.SWISS:
            rounds = data.get("rounds")
            if not rounds:
                self.add_error("rounds", _("Say how many rounds the Swiss has."))
            elif most and rounds > most - 1:
                self.add_error("rounds", _("A Swiss has at most one round fewer than players."))
        if data.get("start") == "at":
            moment = data.get("starts_at")
            if moment is None:
                self.add_error("starts_at", _("Say when the tournament starts."))
            elif moment < timezone.now() + timedelta(minutes=5):
                self.add_error("starts_at", _("The start must be at least five minutes ahead."))
        low, high = data.get("rating_min"), data.get("rating_max")
        if low is not None and high is not None and low > high:
            self.add_error("rating_max", _("The highest rating must not be below the lowest."))
        return data

    def plan(self) -> entries.Plan:
        data = self.cleaned_data
        swiss = data["format"] == Tournament.Format.SWISS
        return entries.Plan(
            name=data["name"],
            format=data["format"],
            rounds=data["rounds"] if swiss else 0,
            max_players=data["max_players"],
            starts_at=data["starts_at"] if data["start"] == "at" else None,
            rating_min=data["rating_min"],
            rating_max=data["rating_max"],
            invite_only=data["invite_only"],
            timeouts_allowed=data["timeouts_allowed"],
            official=data.get("official", False),
        )


# The lobby form's fields a tournament does not use: who moves first is the pairing's, and a
# tournament is neither a private invitation nor a seek with a range, nor played with hints.
NOT_FOR_TOURNAMENTS = ("first", "private", "rating_range", "hints")


def _game_form(kind: kinds.GameKind, data=None):
    form = kind.options_form(data)
    for name in NOT_FOR_TOURNAMENTS:
        form.fields.pop(name, None)
    return form


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    context = tables.lists()
    if request.user.is_authenticated:
        context["mine"] = tables.played_by(request.user)
    return render(request, "games/tournaments/index.html", context)


@require_http_methods(["GET", "POST"])
@login_required
@limited("create_game")
def new(request: HttpRequest) -> HttpResponse:
    try:
        kind = kinds.get(request.POST.get("kind") or request.GET.get("kind") or "basilica")
    except KeyError:
        raise Http404("no such game") from None
    staff = request.user.is_staff
    if request.method == "GET":
        return _new_page(request, kind, TournamentForm(staff=staff), _game_form(kind))
    form = TournamentForm(request.POST, staff=staff)
    game_form = _game_form(kind, request.POST)
    if not (form.is_valid() and game_form.is_valid()):
        return _new_page(request, kind, form, game_form, status=400)
    # The seats are the pairing's; a tournament game is no invitation, seek range or hint game.
    game_form.cleaned_data.update(first="me", private=False, rating_range=0, hints=False)
    settings = game_form.game_settings()
    try:
        tournament = entries.create(request.user, form.plan(), settings)
    except UnplayableSettings as refusal:
        form.add_error(None, str(refusal))
        return _new_page(request, kind, form, game_form, status=400)
    return redirect(tournament)


def _new_page(request, kind, form, game_form, status: int = 200) -> HttpResponse:
    context = {
        "kind": kind,
        "kinds": [kinds.get(key) for key, _title in kinds.choices()],
        "form": form,
        "game_form": game_form,
    }
    return render(request, "games/tournaments/new.html", context, status=status)


def _visible(request: HttpRequest, tournament: Tournament, token: str = "") -> bool:
    """An invitation-only tournament is seen by its players, its creator, the staff and who
    holds its link; to anyone else it does not exist."""
    if not tournament.invite_only or token == tournament.invite_token:
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    return (
        user.is_staff
        or tournament.created_by_id == user.pk
        or tournament.entries.filter(user=user).exists()
    )


def _context(request: HttpRequest, tournament: Tournament, token: str = "") -> dict:
    user = request.user
    entry = tournament.entries.filter(user=user).first() if user.is_authenticated else None
    return {
        "tournament": tournament,
        "terms": tables.terms(tournament),
        "tiebreak": tables.tiebreak_name(tournament),
        "standings": tables.standings(tournament),
        "rounds": tables.rounds(tournament),
        "next_step": tables.next_step(tournament),
        "entry": entry,
        "token": token,
        "refusal": entries.refusal(tournament, user, token) if user.is_authenticated else "",
        "may_leave": entry is not None
        and entry.withdrawn_at is None
        and tournament.status in (Tournament.Status.OPEN, Tournament.Status.RUNNING),
        "invite_link": request.build_absolute_uri(
            reverse("games:tournament-invite", args=[tournament.pk, tournament.invite_token])
        )
        if tournament.invite_only and user.is_authenticated and user.pk == tournament.created_by_id
        else "",
    }


@require_GET
def detail(request: HttpRequest, pk: int, token: str = "") -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not _visible(request, tournament, token):
        raise Http404("no such tournament")
    return render(request, "games/tournaments/detail.html", _context(request, tournament, token))


def _answer(request: HttpRequest, tournament: Tournament, token: str, status: int = 200):
    """After a join or leave: HTMX gets the entry box drawn again; a plain form, the page."""
    if request.htmx:
        context = _context(request, tournament, token)
        return render(request, "games/tournaments/detail.html#entry", context, status=status)
    return redirect(tournament)


@require_POST
@login_required
def join(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    token = request.POST.get("token", "")
    if not _visible(request, tournament, token):
        raise Http404("no such tournament")
    try:
        entries.join(tournament, request.user, token)
    except entries.Refused as refusal:
        messages.error(request, str(refusal))
        tournament.refresh_from_db()
        return _answer(request, tournament, token, status=409)
    tournament.refresh_from_db()
    messages.success(request, _("You have joined the tournament."))
    return _answer(request, tournament, token)


@require_POST
@login_required
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not _visible(request, tournament):
        raise Http404("no such tournament")
    started = tournament.status == Tournament.Status.RUNNING
    try:
        entries.leave(tournament, request.user)
    except entries.Refused as refusal:
        messages.error(request, str(refusal))
        return _answer(request, tournament, "", status=409)
    tournament.refresh_from_db()
    messages.success(
        request,
        _("You have withdrawn: your games still being played were resigned.")
        if started
        else _("You have left the tournament."),
    )
    return _answer(request, tournament, "")

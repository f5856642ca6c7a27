"""The referee's tools: every game, its log, its full state after any action, its move times
and notifications, and the referee's decisions (abort, set or correct a result) with a reason."""

from __future__ import annotations

import json
from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import audit, kinds
from games.models import (
    Action,
    Analysis,
    AuditEntry,
    Entry,
    Game,
    GameNote,
    GameVisit,
    Notification,
    Pairing,
    PairingChange,
    PlayerSettings,
    Rating,
    RatingChange,
    RefereeDecision,
    Series,
    Tournament,
    Vacation,
    player_name,
)
from games.play import referee, states
from games.tournaments import staff as tournament_staff
from games.web import converters  # noqa: F401 - converters: <game:>

# The index links to the site's figures (games.web.staff_figures) above the models.
admin.site.index_template = "admin/games/index.html"


class PlayerFilter(admin.SimpleListFilter):
    title = gettext_lazy("player")
    parameter_name = "player"

    def lookups(self, request, model_admin):
        users = (
            get_user_model()
            .objects.filter(Q(games_as_seat0__isnull=False) | Q(games_as_seat1__isnull=False))
            .distinct()
            .order_by("username")
        )
        return [(u.pk, u.username) for u in users[:200]]

    def queryset(self, request, queryset):
        if not self.value():
            return queryset
        if not self.value().isdigit():
            # The admin answers a bad lookup with its "?e=1" page instead of a server error.
            raise IncorrectLookupParameters(f"no player {self.value()!r}")
        return queryset.filter(Q(seat0_id=self.value()) | Q(seat1_id=self.value()))


class ActionInline(admin.TabularInline):
    model = Action
    extra = 0
    can_delete = False
    fields = ("seq", "player", "user", "data", "created_at")
    readonly_fields = fields
    ordering = ("seq",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class NotificationInline(admin.TabularInline):
    model = Notification
    extra = 0
    can_delete = False
    fields = ("created_at", "user", "kind", "address", "outcome", "attempts", "sent_at", "error")
    readonly_fields = fields
    ordering = ("created_at",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RefereeDecisionInline(admin.TabularInline):
    model = RefereeDecision
    extra = 0
    can_delete = False
    fields = (
        "created_at",
        "referee",
        "kind",
        "reason",
        "status_before",
        "termination_before",
        "winners_before",
        "winners_after",
        "scores_before",
        "scores_after",
    )
    readonly_fields = fields
    ordering = ("created_at",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class RefereeForm(forms.Form):
    """Abort a game in play, or set (or correct) its result: always with a written reason."""

    decision = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[
            ("abort", gettext_lazy("Abort the game: no result")),
            ("result", gettext_lazy("Set the result")),
        ],
        widget=forms.RadioSelect,
    )
    winner = forms.ChoiceField(required=False, label=gettext_lazy("Winner (for a result)"))
    score0 = forms.IntegerField(required=False)
    score1 = forms.IntegerField(required=False)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": gettext_lazy("A referee's decision needs a written reason.")},
        help_text=gettext_lazy("Kept with the decision and your name."),
    )

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        names = [player_name(u) for u in (game.seat0, game.seat1)]
        self.fields["winner"].choices = [
            ("", "—"),
            *(
                (str(seat), _("%(name)s (seat %(seat)s) wins") % {"name": name, "seat": seat})
                for seat, name in enumerate(names)
            ),
            ("both", _("Shared: both win")),
        ]
        for seat, name in enumerate(names):
            label = _("Score of %(name)s (seat %(seat)s)") % {"name": name, "seat": seat}
            self.fields[f"score{seat}"].label = label

    def clean(self):
        data = super().clean()
        if data.get("decision") != "result":
            return data
        if not data.get("winner"):
            self.add_error("winner", _("A result needs a winner (or both, for a shared result)."))
        if (data.get("score0") is None) != (data.get("score1") is None):
            raise forms.ValidationError(
                _("Give both scores, or neither to keep the scores as they are.")
            )
        return data

    def winners(self) -> list[int]:
        winner = self.cleaned_data["winner"]
        return [0, 1] if winner == "both" else [int(winner)]

    def scores(self) -> list[int] | None:
        scores = [self.cleaned_data["score0"], self.cleaned_data["score1"]]
        return None if None in scores else scores


def took(delta: timedelta | None) -> str:
    """A move's time, to the tenth of a second under a minute: "4.2 s", "3 min 05 s", "2 h 01 min"."""
    if delta is None:
        return ""
    seconds = delta.total_seconds()
    if seconds < 60:
        return _("%(seconds)s s") % {"seconds": number_format(seconds, 1)}
    minutes, seconds = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    units = {"days": days, "hours": hours, "minutes": f"{minutes:02d}", "seconds": f"{seconds:02d}"}
    if days:
        return _("%(days)s d %(hours)s h %(minutes)s min") % units
    if hours:
        return _("%(hours)s h %(minutes)s min") % units
    return _("%(minutes)s min %(seconds)s s") % {**units, "minutes": minutes}


def move_times(game: Game) -> list[dict]:
    """Each action with the time its player took: since the previous action, or since the game
    began for the first one."""
    rows, previous = [], game.started_at
    for action in game.actions.select_related("user").order_by("seq"):
        since = action.created_at - previous if previous else None
        rows.append({"action": action, "took": took(since)})
        previous = action.created_at
    return rows


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "seat0",
        "seat1",
        "kind",
        "edition",
        "engine_version",
        "time_control",
        "status",
        "seq",
        "deadline",
        "scores",
        "created_at",
        "finished_at",
        "review_link",
    )
    list_filter = (
        "status",
        "kind",
        "edition",
        "engine_version",
        "time_control",
        "termination",
        "private",
        "created_at",
        "started_at",
        "finished_at",
        PlayerFilter,
    )
    search_fields = ("seat0__username", "seat1__username", "id")
    readonly_fields = (
        "seed",
        "invite_token",
        "seq",
        "to_decide",
        "winners",
        "scores",
        "termination",
        "ended_by",
        "deadline",
        "rematch_offered_by",
        "rematch_of",
        "engine_version",
        "created_at",
        "started_at",
        "finished_at",
        "review_link",
        "referee_link",
    )
    inlines = [ActionInline, NotificationInline, RefereeDecisionInline]

    @admin.display(description=gettext_lazy("review"))
    def review_link(self, obj):
        if obj.pk is None:
            return ""
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_game_review", args=[obj.pk]),
            _("review the state"),
        )

    @admin.display(description=gettext_lazy("referee"))
    def referee_link(self, obj):
        if obj.pk is None:
            return ""
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_game_referee", args=[obj.pk]),
            _("abort the game or set its result"),
        )

    def get_urls(self):
        review = path(
            "<game:pk>/review/",
            self.admin_site.admin_view(self.review_view),
            name="games_game_review",
        )
        decide = path(
            "<game:pk>/referee/",
            self.admin_site.admin_view(self.referee_view),
            name="games_game_referee",
        )
        return [review, decide, *super().get_urls()]

    def referee_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The referee's form: abort the game, or set or correct its result, with a reason."""
        game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
        if not self.has_change_permission(request, game):
            raise PermissionDenied
        form = RefereeForm(request.POST or None, game=game)
        status = 200
        if request.method == "POST":
            status = 400
            if form.is_valid():
                try:
                    self._decide(request, game, form)
                except referee.RefereeRefused as refusal:
                    form.add_error(None, str(refusal))
                else:
                    return redirect("admin:games_game_change", game.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Referee's decision on game %(number)s") % {"number": game.pk},
            "game": game,
            "form": form,
            "decisions": game.referee_decisions.select_related("referee"),
            "opts": self.model._meta,
        }
        return render(request, "admin/games/referee.html", context, status=status)

    def _decide(self, request: HttpRequest, game: Game, form: RefereeForm) -> None:
        reason = form.cleaned_data["reason"]
        if form.cleaned_data["decision"] == "abort":
            referee.abort_game(game, request.user, reason)
            messages.success(
                request, _("Game %(number)s is aborted: no result.") % {"number": game.pk}
            )
        else:
            was_over = game.over
            referee.set_result(game, request.user, form.winners(), form.scores(), reason)
            messages.success(
                request, _("The result of game %(number)s is set.") % {"number": game.pk}
            )
            if game.rated and was_over:
                # Ratings are not recomputed here: every later rated game would be (see README).
                messages.warning(
                    request,
                    _(
                        "Game %(number)s is rated: its players' ratings, and those of every "
                        "rated game since, need a recompute (manage.py recompute_ratings)."
                    )
                    % {"number": game.pk},
                )

    def review_view(self, request, pk: int):
        """The full state after a chosen action, secrets included, for a referee."""
        game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
        if not self.has_view_permission(request, game):
            raise PermissionDenied
        try:
            upto = min(max(int(request.GET.get("seq", game.seq)), 0), game.seq)
        except ValueError:
            upto = game.seq
        state = states.replay_game(game, upto=upto)
        full = state.to_json()
        kind = kinds.of(game)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Review of game %(number)s after action %(seq)s")
            % {"number": game.pk, "seq": upto},
            "game": game,
            "upto": upto,
            "seqs": range(game.seq + 1),
            "actions": game.actions.order_by("seq"),
            "kind": kind,
            "view": game.engine.view(state, None),
            "scores": state.returns(),
            **(kind.review(state) if kind.review else {}),
            "state_json": json.dumps(full, indent=1),
            "move_times": move_times(game),
            "notifications": game.notifications.select_related("user").order_by("created_at"),
            "decisions": game.referee_decisions.select_related("referee"),
            "opts": self.model._meta,
        }
        return render(request, "admin/games/review.html", context)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "game", "outcome", "attempts", "sent_at")
    list_filter = ("kind", "outcome", "created_at")
    search_fields = ("user__username", "address", "game__id")
    readonly_fields = [f.name for f in Notification._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "vacation_days", "email_your_turn", "email_daily_digest")
    search_fields = ("user__username",)


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    list_display = ("user", "starts_at", "ends_at", "days", "planned")
    list_filter = ("planned",)
    search_fields = ("user__username",)


@admin.register(GameVisit)
class GameVisitAdmin(admin.ModelAdmin):
    list_display = ("game", "user", "seen_at")
    search_fields = ("user__username", "game__id")


@admin.register(GameNote)
class GameNoteAdmin(admin.ModelAdmin):
    """A player's private notes: the list says whose and how long, never what; the text shows
    only on a note's own page, opened on purpose (and needs the view permission of notes)."""

    list_display = ("game", "user", "updated_at", "length")
    list_select_related = ("game", "user")
    search_fields = ("user__username", "game__id")  # never the text: a search would reveal it
    readonly_fields = ("game", "user", "text", "updated_at")
    ordering = ("-updated_at",)

    @admin.display(description=gettext_lazy("length"))
    def length(self, obj: GameNote) -> str:
        return ngettext("%(count)s character", "%(count)s characters", len(obj.text)) % {
            "count": number_format(len(obj.text), force_grouping=True)
        }

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "length", "created_at")
    list_filter = ("kind", "length")


class ReadOnly(admin.ModelAdmin):
    """Ratings are only written by games ending and by ``manage.py recompute_ratings``."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnly):
    list_display = ("user", "kind", "speed", "rating", "deviation", "volatility", "games")
    list_filter = ("kind", "speed")
    search_fields = ("user__username",)
    ordering = ("kind", "speed", "-rating")


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnly):
    list_display = ("at", "game", "user", "opponent", "score", "rating_before", "rating_after")
    list_filter = ("kind", "speed")
    search_fields = ("user__username", "game__id")
    list_select_related = ("user", "opponent", "game")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnly):
    """The audit log, to read only: no one adds, changes or deletes an entry, not even a
    superuser (``games.audit.record`` writes them)."""

    list_display = ("at", "actor", "action", "user", "game", "reason")
    list_filter = ("action", ("actor", admin.RelatedOnlyFieldListFilter), "at")
    date_hierarchy = "at"
    search_fields = ("actor__username", "user__username", "game__id", "reason")
    list_select_related = ("actor", "user", "game")

    def get_actions(self, request):
        return {}  # not even "delete selected"


# -- tournaments -----------------------------------------------------------------------------------


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "joined_at", "withdrawn_at", "left", "place")
    readonly_fields = fields
    can_delete = False


class PairingInline(admin.TabularInline):
    model = Pairing
    extra = 0
    fields = ("round", "first", "second", "game", "score")
    readonly_fields = fields
    can_delete = False


class PairingChangeInline(admin.TabularInline):
    """The audit: every cancellation and replacement, who, why and when."""

    model = PairingChange
    extra = 0
    fields = ("at", "by", "what", "reason")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = gettext_lazy("audit: the admin's changes")


class CancelTournamentForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Reason"))


class ReplacePairingForm(forms.Form):
    pairing = forms.ModelChoiceField(queryset=Pairing.objects.none(), label=gettext_lazy("Pairing"))
    first = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label=gettext_lazy("Moves first")
    )
    second = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label=gettext_lazy("Moves second")
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Reason"))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pairing"].queryset = tournament.pairings.filter(
            Q(score__isnull=True) | Q(second__isnull=True)
        ).select_related("first", "second")
        players = get_user_model().objects.filter(tournament_entries__tournament=tournament)
        self.fields["first"].queryset = players
        self.fields["second"].queryset = players


class WithdrawPlayerForm(forms.Form):
    player = forms.ModelChoiceField(
        queryset=get_user_model().objects.none(), label=gettext_lazy("Player")
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=gettext_lazy("Reason"))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = get_user_model().objects.filter(
            tournament_entries__tournament=tournament,
            tournament_entries__withdrawn_at__isnull=True,
        )


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "status", "official", "created_by", "starts_at")
    list_filter = ("status", "format", "official")
    search_fields = ("name",)
    readonly_fields = (
        "created_by",
        "kind",
        "terms",
        "format",
        "status",
        "current_round",
        "ended_reason",
        "started_at",
        "finished_at",
        "staff_link",
    )
    fields = ("name", "official", *readonly_fields)
    inlines = [EntryInline, PairingInline, PairingChangeInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a tournament is created on the site, by a player

    def save_model(self, request: HttpRequest, obj: Tournament, form, change: bool) -> None:
        """A name or the official mark changed by hand is kept in the staff audit log."""
        super().save_model(request, obj, form, change)
        if form.changed_data:
            audit.record(
                request.user,
                "tournament.change",
                tournament=obj.pk,
                changed={field: form.cleaned_data[field] for field in form.changed_data},
            )

    @admin.display(description=gettext_lazy("the admin's hand"))
    def staff_link(self, obj: Tournament) -> str:
        if obj.pk is None:
            return ""
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_tournament_staff", args=[obj.pk]),
            _("cancel the tournament, replace a pairing or withdraw a player"),
        )

    def get_urls(self):
        staff_view = path(
            "<int:pk>/staff/",
            self.admin_site.admin_view(self.staff_view),
            name="games_tournament_staff",
        )
        return [staff_view, *super().get_urls()]

    def staff_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Cancel the tournament, replace a pairing or withdraw a player, each with a reason
        kept in the audit."""
        tournament = get_object_or_404(Tournament, pk=pk)
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        asked = request.POST.get("action") if request.method == "POST" else None
        cancel = CancelTournamentForm(request.POST if asked == "cancel" else None, prefix="c")
        replace = ReplacePairingForm(
            request.POST if asked == "replace" else None, prefix="r", tournament=tournament
        )
        withdraw = WithdrawPlayerForm(
            request.POST if asked == "withdraw" else None, prefix="w", tournament=tournament
        )
        forms_asked = {"cancel": cancel, "replace": replace, "withdraw": withdraw}
        status = 200
        if asked in forms_asked:
            status = 400
            form = forms_asked[asked]
            if form.is_valid():
                try:
                    self._act(request, tournament, asked, form.cleaned_data)
                except tournament_staff.StaffRefused as refusal:
                    form.add_error(None, str(refusal))
                else:
                    return redirect("admin:games_tournament_change", tournament.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("The admin's hand in %(name)s") % {"name": tournament.name},
            "tournament": tournament,
            "cancel_form": cancel,
            "replace_form": replace,
            "withdraw_form": withdraw,
            "changes": tournament.changes.select_related("by"),
            "opts": self.model._meta,
        }
        return render(request, "admin/games/tournament_staff.html", context, status=status)

    def _act(self, request: HttpRequest, tournament: Tournament, asked: str, data: dict) -> None:
        if asked == "cancel":
            tournament_staff.cancel(tournament, request.user, data["reason"])
            messages.success(request, _("The tournament is cancelled."))
            return
        if asked == "withdraw":
            tournament_staff.withdraw(tournament, data["player"], request.user, data["reason"])
            messages.success(request, _("The player is withdrawn."))
            return
        tournament_staff.replace(
            data["pairing"], data["first"], data["second"], request.user, data["reason"]
        )
        messages.success(request, _("The pairing is replaced; its new game has started."))


# The moderators' queue, sanctions, chat messages and hidden words.
from games.community import admin as community_admin  # noqa: E402, F401


@admin.register(Analysis)
class AnalysisAdmin(ReadOnly):
    """The computer's analyses, to look at: they are made and retried by the compute queue."""

    list_display = ("game", "version", "status", "requested_by", "asked_at", "seconds", "attempts")
    list_filter = ("status", "version")
    search_fields = ("game__id", "requested_by__username")
    list_select_related = ("game", "requested_by")
    readonly_fields = (
        "game",
        "version",
        "status",
        "requested_by",
        "simulations",
        "asked_at",
        "started_at",
        "finished_at",
        "attempts",
        "moves",
    )

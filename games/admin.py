"""The referee's tools: every game, its log, and its full state after any action."""

from __future__ import annotations

import json

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html

from games import converters, kinds, services  # noqa: F401 - converters registers <game:>
from games.models import Action, Game, GameVisit, Notification, PlayerSettings, Series, Vacation


class PlayerFilter(admin.SimpleListFilter):
    title = "player"
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


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "seat0",
        "seat1",
        "kind",
        "edition",
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
    )
    inlines = [ActionInline, NotificationInline]

    @admin.display(description="review")
    def review_link(self, obj):
        if obj.pk is None:
            return ""
        return format_html(
            '<a href="{}">review the state</a>', reverse("admin:games_game_review", args=[obj.pk])
        )

    def get_urls(self):
        review = path(
            "<game:pk>/review/",
            self.admin_site.admin_view(self.review_view),
            name="games_game_review",
        )
        return [review, *super().get_urls()]

    def review_view(self, request, pk: int):
        """The full state after a chosen action, secrets included, for a referee."""
        game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
        if not self.has_view_permission(request, game):
            from django.core.exceptions import PermissionDenied

            raise PermissionDenied
        try:
            upto = min(max(int(request.GET.get("seq", game.seq)), 0), game.seq)
        except ValueError:
            upto = game.seq
        state = services.replay_game(game, upto=upto)
        full = state.to_json()
        kind = kinds.of(game)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Review of game {game.pk} after action {upto}",
            "game": game,
            "upto": upto,
            "seqs": range(game.seq + 1),
            "actions": game.actions.order_by("seq"),
            "kind": kind,
            "view": game.engine.view(state, None),
            "scores": state.returns(),
            **(kind.review(state) if kind.review else {}),
            "state_json": json.dumps(full, indent=1),
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


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "length", "created_at")
    list_filter = ("kind", "length")

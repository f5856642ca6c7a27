"""The moderators' side of the chat, in the admin: the queue of open reports, each with the
reported message among its neighbours and a link to its game, and the decision on it (dismiss,
warn, mute, suspend after a confirmation that names the games it ends; release or remove a
message the word filter held). Registered by ``games.admin``."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import audit
from games.community import chat, moderation
from games.models import ChatMessage, HiddenWord, Report, Sanction
from games.play import services

Outcome = Report.Outcome


class DecisionForm(forms.Form):
    outcome = forms.ChoiceField(label=gettext_lazy("Decision"), widget=forms.RadioSelect)
    reason = forms.CharField(
        label=gettext_lazy("Reason (the player is told it)"), max_length=500, required=False
    )
    days = forms.IntegerField(
        label=gettext_lazy("For how many days (a mute or a suspension; empty: until lifted)"),
        min_value=1,
        max_value=3650,
        required=False,
    )

    def __init__(self, *args, report: Report, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [Outcome.DISMISSED]
        if report.reported is not None:
            choices += [Outcome.WARNED, Outcome.MUTED, Outcome.SUSPENDED]
        if report.message is not None and (report.message.held or not report.message.removed):
            choices += [Outcome.REMOVED]
            if report.message.held:
                choices += [Outcome.RELEASED]
        self.fields["outcome"].choices = [(c.value, c.label) for c in choices]

    def clean(self):
        cleaned = super().clean()
        sanctioning = (Outcome.WARNED, Outcome.MUTED, Outcome.SUSPENDED)
        if cleaned.get("outcome") in sanctioning and not cleaned.get("reason", "").strip():
            raise forms.ValidationError(_("Give the reason: the player is told it."))
        return cleaned


class OpenFilter(admin.SimpleListFilter):
    title = gettext_lazy("status")
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("open", _("open")), ("decided", _("decided")), ("all", _("all"))]

    def choices(self, changelist):
        # "open" is the queue's default, so it is what no choice means.
        for lookup, title in self.lookup_choices:
            yield {
                "selected": (self.value() or "open") == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        value = self.value() or "open"
        if value == "open":
            return queryset.filter(outcome="")
        if value == "decided":
            return queryset.exclude(outcome="")
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "reason", "reported", "reporter", "game_link", "said", "decide"]
    list_filter = [OpenFilter, "reason"]
    list_select_related = ["reported", "reporter", "game", "message"]
    ordering = ["created_at"]
    readonly_fields = [f.name for f in Report._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False  # reports come from players and the word filter

    @admin.display(description=gettext_lazy("game"))
    def game_link(self, obj: Report):
        if obj.game_id is None:
            return "—"
        return format_html(
            '<a href="{}">{}</a>', reverse("games:detail", args=[obj.game_id]), obj.game_id
        )

    @admin.display(description=gettext_lazy("message"))
    def said(self, obj: Report) -> str:
        return chat.words_of(obj.message)[:80] if obj.message else ""

    @admin.display(description=gettext_lazy("decision"))
    def decide(self, obj: Report):
        if obj.outcome:
            return obj.get_outcome_display()
        url = reverse("admin:games_report_decide", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("decide"))

    def get_urls(self):
        decide = path(
            "<int:pk>/decide/",
            self.admin_site.admin_view(self.decide_view),
            name="games_report_decide",
        )
        return [decide, *super().get_urls()]

    def decide_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The report in its context and the moderator's decision; a suspension asks once more,
        naming how many running games it ends."""
        report = get_object_or_404(
            Report.objects.select_related("reported", "reporter", "game", "message"), pk=pk
        )
        if not self.has_change_permission(request, report):
            raise PermissionDenied
        form = DecisionForm(request.POST or None, report=report)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Report %(number)s") % {"number": report.pk},
            "report": report,
            "form": form,
            "around": moderation.context_of(report),
            "history": Sanction.objects.filter(user=report.reported).select_related("moderator")
            if report.reported
            else [],
            "opts": self.model._meta,
        }
        if request.method != "POST" or report.outcome:
            return render(request, "admin/games/report_decide.html", context)
        if not form.is_valid():
            return render(request, "admin/games/report_decide.html", context, status=400)
        data = form.cleaned_data
        if data["outcome"] == Outcome.SUSPENDED and request.POST.get("confirmed") != "1":
            running = services.games_to_resign(report.reported)
            context.update(running=running, data=data)
            return render(request, "admin/games/report_suspend.html", context)
        try:
            ended = moderation.decide(
                report, request.user, data["outcome"], data["reason"], data["days"]
            )
        except ValueError as refusal:
            form.add_error(None, str(refusal))
            return render(request, "admin/games/report_decide.html", context, status=400)
        messages.success(request, _decided(report, data["outcome"], ended))
        return redirect("admin:games_report_changelist")


def _decided(report: Report, outcome: str, ended: int) -> str:
    said = {"number": report.pk, "outcome": Outcome(outcome).label, "count": ended}
    if outcome == Outcome.SUSPENDED:
        return (
            ngettext(
                "Report %(number)s: suspended; %(count)d running game ended as a resignation.",
                "Report %(number)s: suspended; %(count)d running games ended as resignations.",
                ended,
            )
            % said
        )
    return _("Report %(number)s: %(outcome)s.") % said


class Audited:
    """A change made by hand on these admin pages (outside a report's decision, which records
    its own) is kept in the staff audit log: who, what, and which fields."""

    audit_as = ""  # the audit's action, before ".change" or ".delete"

    def audit_facts(self, obj) -> dict:
        return {}

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        done = "change" if change else "add"
        changed = list(form.changed_data)
        audit.record(
            request.user, f"{self.audit_as}.{done}", **self.audit_facts(obj), changed=changed
        )

    def delete_model(self, request, obj) -> None:
        facts = self.audit_facts(obj)
        super().delete_model(request, obj)
        audit.record(request.user, f"{self.audit_as}.delete", **facts)

    def delete_queryset(self, request, queryset) -> None:
        facts = [self.audit_facts(obj) for obj in queryset]
        super().delete_queryset(request, queryset)
        for each in facts:
            audit.record(request.user, f"{self.audit_as}.delete", **each)


@admin.register(Sanction)
class SanctionAdmin(Audited, admin.ModelAdmin):
    list_display = ["created_at", "user", "kind", "reason", "ends_at", "lifted", "moderator"]
    list_filter = ["kind", "lifted"]
    search_fields = ["user__username"]
    readonly_fields = ["user", "kind", "reason", "moderator", "report", "created_at"]
    actions = ["lift"]
    audit_as = "moderation.sanction"

    def audit_facts(self, obj: Sanction) -> dict:
        return {"user": obj.user, "sanction": obj.pk, "kind": obj.kind}

    def has_add_permission(self, request) -> bool:
        return False  # decided from a report, so that the moderator and the reason are kept

    @admin.action(description=gettext_lazy("Lift the selected sanctions"))
    def lift(self, request: HttpRequest, queryset) -> None:
        lifting = list(queryset.filter(lifted=False).select_related("user"))
        count = Sanction.objects.filter(pk__in=[s.pk for s in lifting]).update(lifted=True)
        for sanction in lifting:
            audit.record(request.user, "moderation.lift", **self.audit_facts(sanction))
        messages.success(request, _("%(count)d lifted.") % {"count": count})


@admin.register(ChatMessage)
class ChatMessageAdmin(Audited, admin.ModelAdmin):
    list_display = ["created_at", "game", "room", "author", "text", "quick", "held", "removed"]
    list_filter = ["held", "removed", "room"]
    search_fields = ["author__username", "text"]
    readonly_fields = ["game", "author", "room", "text", "quick", "created_at"]
    list_select_related = ["author", "game"]
    audit_as = "moderation.message"

    def audit_facts(self, obj: ChatMessage) -> dict:
        return {"user": obj.author, "game": obj.game, "message": obj.pk}

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(HiddenWord)
class HiddenWordAdmin(Audited, admin.ModelAdmin):
    list_display = ["word"]
    search_fields = ["word"]
    audit_as = "moderation.word"

    def audit_facts(self, obj: HiddenWord) -> dict:
        return {"word": obj.word}

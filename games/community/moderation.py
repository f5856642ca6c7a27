"""Reports and what moderators decide on them.

A player reports a chat message, a game or a player; the word filter reports a message it held.
A moderator decides each open report from the admin's queue: dismiss it, warn the player, mute
them for a while (no chat anywhere), suspend them (no play and no chat; their running games end
as if they had resigned, through the play layer's own resignation), or, for a held message,
release it to the others or remove it. Every decision is kept: on the report (who, when, why)
and, for a sanction, in a ``Sanction`` row with the moderator and the reason the player is told.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import audit, events
from games.community import chat
from games.models import ChatMessage, Computer, Game, Report, Sanction
from games.play import services
from games.tournaments import entries as tournament_entries

CONTEXT_AROUND = 5  # messages shown before and after a reported one
MAX_TEXT = 1000
OPEN_REPORTS_A_DAY = 20  # a player's reports in a day: enough for anyone, not for a flood

REPORTABLE = [r for r in Report.Reason if r != Report.Reason.FILTER]


class ReportRefused(Exception):
    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Subject:
    """What is reported: a message (its author and game), a player in a game, a game, or a
    player from their profile (no game)."""

    game: Game | None
    player: object | None = None
    message: ChatMessage | None = None


def subject_of(game: Game, user, message_id: str = "", player_name: str = "") -> Subject:
    """The subject a report form names, if ``user`` may report it; ReportRefused if not."""
    if not user.is_authenticated or not game.can_watch(user):
        raise ReportRefused(_("You cannot report anything in this game."), status=403)
    if message_id:
        message = ChatMessage.objects.filter(pk=_int(message_id), game=game).first()
        if message is None or not chat.may_read(game, user, message.room):
            raise ReportRefused(_("There is no such message to report."), status=404)
        if not message.shown_to_others() or message.author_id == user.pk:
            raise ReportRefused(_("There is no such message to report."), status=404)
        return Subject(game=game, player=message.author, message=message)
    if player_name:
        player = next(
            (p for p in (game.seat0, game.seat1) if p is not None and p.username == player_name),
            None,
        )
        if player is None or player.pk == user.pk:
            raise ReportRefused(_("Only a player of this game can be reported here."))
        return Subject(game=game, player=player)
    seat = game.seat_of(user)
    opponent = game.player(1 - seat) if seat is not None else None
    return Subject(game=game, player=opponent)


def player_subject(user, person) -> Subject:
    """A player reported from their profile (a name, something they do outside one game)."""
    if person.pk == user.pk:
        raise ReportRefused(_("You cannot report yourself."))
    if Computer.may_be(person):
        raise ReportRefused(_("The computer plays by its program: it is no one to report."))
    return Subject(game=None, player=person)


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def report(user, subject: Subject, reason: str, text: str = "") -> Report:
    """Store ``user``'s report, or raise ReportRefused saying why."""
    if reason not in {str(r) for r in REPORTABLE}:
        raise ReportRefused(_("Choose a reason from the list."))
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise ReportRefused(
            _("Say it in at most %(most)d characters; this has %(count)d.")
            % {"most": MAX_TEXT, "count": len(text)}
        )
    day_ago = timezone.now() - timedelta(days=1)
    if Report.objects.filter(reporter=user, created_at__gt=day_ago).count() >= OPEN_REPORTS_A_DAY:
        raise ReportRefused(
            _("You have sent many reports today: the moderators will read them first."),
            status=429,
        )
    return Report.objects.create(
        reporter=user,
        reported=subject.player,
        game=subject.game,
        message=subject.message,
        reason=reason,
        text=text,
    )


# -- the staff's side --------------------------------------------------------------------------


def open_reports():
    return Report.objects.filter(outcome="").select_related("reporter", "reported", "game")


def context_of(report: Report) -> list[ChatMessage]:
    """The reported message among the ones around it in its room (held and removed ones too:
    a moderator sees everything)."""
    message = report.message
    if message is None:
        return []
    room = ChatMessage.objects.filter(game=message.game_id, room=message.room)
    before = room.filter(created_at__lte=message.created_at).exclude(pk=message.pk)
    after = room.filter(created_at__gte=message.created_at).exclude(pk=message.pk)
    earlier = list(before.order_by("-created_at", "-pk")[:CONTEXT_AROUND])[::-1]
    later = list(after.order_by("created_at", "pk")[:CONTEXT_AROUND])
    return [*earlier, message, *later]


def decide(report: Report, moderator, outcome: str, reason: str, days: int | None = None) -> int:
    """Record ``moderator``'s decision on an open report and carry it out; the number of games
    a suspension ended. ValueError for a decision that does not fit the report."""
    reason = reason.strip()
    if outcome in (Report.Outcome.WARNED, Report.Outcome.MUTED, Report.Outcome.SUSPENDED):
        if report.reported is None:
            raise ValueError("nobody is reported: only dismiss it")
        if not reason:
            raise ValueError("the player is told the reason: give one")
    if outcome in (Report.Outcome.RELEASED, Report.Outcome.REMOVED) and report.message is None:
        raise ValueError("no message to release or remove")
    ended = 0
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        if report.outcome:
            raise ValueError("this report was decided already")
        report.outcome = outcome
        report.decided_by = moderator
        report.decided_at = timezone.now()
        report.decision_reason = reason
        report.save()
        if outcome == Report.Outcome.WARNED:
            _sanction(report.reported, Sanction.Kind.WARNING, moderator, reason, None, report)
        elif outcome == Report.Outcome.MUTED:
            _sanction(report.reported, Sanction.Kind.MUTE, moderator, reason, days, report)
        elif outcome == Report.Outcome.SUSPENDED:
            ended = suspend(report.reported, moderator, reason, days, report)
        elif outcome == Report.Outcome.RELEASED:
            _held(report.message, removed=False)
        elif outcome == Report.Outcome.REMOVED:
            _held(report.message, removed=True)
        elif outcome == Report.Outcome.DISMISSED and report.reason == Report.Reason.FILTER:
            _held(report.message, removed=False)  # nothing wrong with it: the others may read it
        if outcome != Report.Outcome.SUSPENDED:  # a suspension writes its own, with its games
            audit.record(
                moderator,
                f"moderation.{outcome}",
                user=report.reported,
                game=report.game,
                reason=reason,
                report=report.pk,
                days=days,
            )
    return ended


def _sanction(user, kind: str, moderator, reason: str, days, report) -> Sanction:
    ends = timezone.now() + timedelta(days=days) if days else None
    return Sanction.objects.create(
        user=user, kind=kind, moderator=moderator, reason=reason, ends_at=ends, report=report
    )


def _held(message: ChatMessage, removed: bool) -> None:
    message.held = False
    message.removed = removed
    message.save(update_fields=["held", "removed"])
    if not removed:
        events.send_on_commit(events.chat_posted, message=message)


def suspend(user, moderator, reason: str, days: int | None, report: Report | None = None) -> int:
    """Suspend ``user``: recorded first, then each of their running games ends as if they had
    resigned (``services.resign``: clocks, ratings and notifications as for a resignation). A
    game that ended by itself a moment before is left as it ended; a series is resigned to its
    end. How many games ended."""
    with transaction.atomic():
        _sanction(user, Sanction.Kind.SUSPENSION, moderator, reason, days, report)
        ended = services.resign_everything(user)
        tournament_entries.leave_all(user)
        audit.record(
            moderator, "moderation.suspend", user=user, reason=reason, days=days, games=ended
        )
    return len(ended)

"""Creating a tournament, joining and leaving it: each refused with a sentence for the player,
changing nothing, when the tournament does not allow it."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Entry, Tournament
from games.play import services
from games.play.refusals import refuse_if_suspended, suspension_words
from games.ratings import service as ratings
from games.terms import GameSettings, UnplayableSettings
from games.tournaments import running


class Refused(ValueError):
    """What a player may not do in a tournament; the message says why."""


@dataclass(frozen=True)
class Plan:
    """A tournament as its creator chose it (the game's terms come from the lobby's form)."""

    name: str
    format: str
    rounds: int
    max_players: int
    starts_at: datetime | None
    rating_min: int | None = None
    rating_max: int | None = None
    invite_only: bool = False
    timeouts_allowed: int = 2
    official: bool = False


def create(user, plan: Plan, game: GameSettings) -> Tournament:
    """A new open tournament of ``plan``, its games on ``game``'s terms (checked as the lobby
    checks a seek's: UnplayableSettings if no game could start on them, or if the creator is
    suspended); its creator joins."""
    refuse_if_suspended(user, UnplayableSettings)
    services.checked_terms(game)
    swiss = plan.format == Tournament.Format.SWISS
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=plan.name,
            created_by=user,
            official=plan.official and user.is_staff,
            kind=game.kind,
            terms={
                "options": game.options,
                "time_control": game.time_control,
                "rated": game.rated,
                "series": game.series,
            },
            format=plan.format,
            rounds=plan.rounds if swiss else 0,
            max_players=plan.max_players,
            starts_at=plan.starts_at,
            rating_min=plan.rating_min,
            rating_max=plan.rating_max,
            invite_only=plan.invite_only,
            timeouts_allowed=plan.timeouts_allowed,
        )
        Entry.objects.create(tournament=tournament, user=user)
    return tournament


def rating_for(tournament: Tournament, user) -> int | None:
    """``user``'s rating at the tournament's game and speed (None for untimed games)."""
    speed = ratings.speed_of(tournament.terms["time_control"])
    if speed is None:
        return None
    return round(ratings.rating_of(user, tournament.kind, speed).rating)


def refusal(tournament: Tournament, user, token: str = "") -> str:
    """Why ``user`` may not join ``tournament`` now, or "" if they may."""
    suspended = suspension_words(user)
    if suspended:
        return suspended
    if tournament.status != Tournament.Status.OPEN:
        return _("This tournament has already started: entries are closed.")
    if tournament.entries.filter(user=user).exists():
        return _("You have already joined this tournament.")
    if tournament.invite_only and token != tournament.invite_token:
        return _("This tournament is by invitation only: join through the link you were sent.")
    if running.full(tournament):
        return _("This tournament is full.")
    rating = rating_for(tournament, user)
    low, high = tournament.rating_min, tournament.rating_max
    if rating is not None and (
        (low is not None and rating < low) or (high is not None and rating > high)
    ):
        return _("Your rating, %(rating)s, is outside the range of this tournament.") % {
            "rating": rating
        }
    return ""


def join(tournament: Tournament, user, token: str = "") -> Entry:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        reason = refusal(tournament, user, token)
        if reason:
            raise Refused(reason)
        try:
            with transaction.atomic():
                entry = Entry.objects.create(tournament=tournament, user=user)
        except IntegrityError:
            raise Refused(_("You have already joined this tournament.")) from None
        # "When full": the last entry starts it, in the task runner (``games.tasks``).
    return entry


def leave(tournament: Tournament, user) -> None:
    """Before the start a player just leaves; after it, they withdraw: their games still being
    played are forfeited, and they are paired no more (they stay in the standings)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise Refused(_("You are not playing in this tournament."))
        if tournament.status == Tournament.Status.OPEN:
            entry.delete()
            return
        if tournament.status != Tournament.Status.RUNNING:
            raise Refused(_("This tournament is over."))
        if entry.withdrawn_at is not None:
            raise Refused(_("You have already withdrawn from this tournament."))
        running.withdraw_locked(tournament, entry, Entry.Left.WITHDREW, timezone.now())


def on_account_closed(user, **_facts) -> None:
    """A closed account leaves every tournament it was in."""
    leave_all(user)


def leave_all(user) -> None:
    """``user`` leaves every tournament they are in (their account closed or suspended): an open
    one at once, a running one as a withdrawal, so that no later round pairs a player who cannot
    play."""
    for entry in Entry.objects.filter(user=user, withdrawn_at__isnull=True).select_related(
        "tournament"
    ):
        if entry.tournament.status in (Tournament.Status.OPEN, Tournament.Status.RUNNING):
            with contextlib.suppress(Refused):
                leave(entry.tournament, user)

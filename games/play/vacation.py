"""Fair absence: days of vacation in which a player's correspondence clocks stand still.

Every player starts with an allowance and earns more for each month of membership, up to a
cap. A day is spent only when one of their correspondence games would otherwise time out, or
when the player turns vacation on ahead of time; any move of theirs ends it, and the whole
days not yet begun are given back. The game a day was spent to save keeps its clock standing
still to the end of that day (or until they move in it), so that a move elsewhere first neither
loses it nor spends another day on it. Live games never pause.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Game, PlayerSettings, Vacation

DAY = timedelta(days=1)
MONTH = timedelta(days=30)


def settings_for(user) -> PlayerSettings:
    """The player's settings, with the vacation allowance earned up to now."""
    row, _ = PlayerSettings.objects.get_or_create(
        user=user,
        defaults={
            "vacation_days": settings.VACATION_START_DAYS,
            "vacation_earned_at": user.date_joined,
        },
    )
    _earn(row, timezone.now())
    return row


def _earn(row: PlayerSettings, now: datetime) -> None:
    since = row.vacation_earned_at or now
    months = int((now - since) / MONTH)
    if months <= 0:
        return
    row.vacation_days = min(
        row.vacation_days + months * settings.VACATION_DAYS_PER_MONTH, settings.VACATION_CAP_DAYS
    )
    row.vacation_earned_at = since + months * MONTH
    PlayerSettings.objects.filter(pk=row.pk).update(
        vacation_days=row.vacation_days, vacation_earned_at=row.vacation_earned_at
    )


def in_progress(user, now: datetime):
    """The player's vacations running at ``now`` (a query, not yet asked)."""
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now)


def current(user, now: datetime | None = None) -> Vacation | None:
    """The vacation the player is on now, if any."""
    return in_progress(user, now or timezone.now()).order_by("-ends_at").first()


def on_vacation_until(user, now: datetime | None = None) -> datetime | None:
    found = current(user, now)
    return found.ends_at if found else None


def spend_to_save(user, game: Game, flagged_at: datetime, now: datetime) -> bool:
    """Spend the whole days needed to cover ``flagged_at`` up to ``now`` and a little more,
    if the player has them, to save ``game``. Call inside a transaction; True if the clock is
    saved."""
    needed = max(1, math.ceil((now - flagged_at) / DAY + 1e-9))
    row = settings_for(user)
    row = PlayerSettings.objects.select_for_update().get(pk=row.pk)
    if row.vacation_days < needed:
        return False
    row.vacation_days -= needed
    row.save(update_fields=["vacation_days"])
    Vacation.objects.create(
        user=user,
        starts_at=flagged_at,
        ends_at=flagged_at + needed * DAY,
        days=needed,
        saved=game,
    )
    transaction.on_commit(lambda: refresh_games_of(user))
    return True


def start(user, days: int) -> Vacation:
    """Vacation turned on ahead of time, from now, for ``days`` whole days."""
    now = timezone.now()
    with transaction.atomic():
        row = settings_for(user)
        row = PlayerSettings.objects.select_for_update().get(pk=row.pk)
        if days < 1:
            raise ValueError(_("choose at least one day"))
        if days > row.vacation_days:
            raise ValueError(
                ngettext(
                    "you have %(count)d day of vacation left",
                    "you have %(count)d days of vacation left",
                    row.vacation_days,
                )
                % {"count": row.vacation_days}
            )
        if current(user, now):
            raise ValueError(_("you are already on vacation"))
        row.vacation_days -= days
        row.save(update_fields=["vacation_days"])
        vacation = Vacation.objects.create(
            user=user, starts_at=now, ends_at=now + days * DAY, days=days, planned=True
        )
        transaction.on_commit(lambda: refresh_games_of(user))
    return vacation


def end(user, now: datetime | None = None) -> bool:
    """End the vacation the player is on, now, giving back the whole days not begun: any move
    of theirs calls this, as does "End my vacation now". True if there was one.

    The day begun is spent. If it was spent to save a game, that game's clock (at zero) stands
    still to the day's end unless the player moves in it (``Vacation.paid_until``, read by
    ``timing.pauses``): ended now, it would run out again at once and spend another day, at
    every move the player made elsewhere.
    """
    now = now or timezone.now()
    # Days spent to save two games that ran out while the worker was down may overlap: all end.
    running = list(in_progress(user, now))
    if not running:
        return False
    unused = 0
    for found in running:
        left = int((found.ends_at - now) / DAY)
        Vacation.objects.filter(pk=found.pk).update(ends_at=now, days=found.days - left)
        unused += left
    if unused:
        row = settings_for(user)
        PlayerSettings.objects.filter(pk=row.pk).update(vacation_days=row.vacation_days + unused)
    transaction.on_commit(lambda: refresh_games_of(user))
    return True


def held_until(user, game: Game, now: datetime | None = None) -> datetime | None:
    """When the clock of ``game``, which a day of ``user``'s vacation was spent to save, runs
    again, if it stands still now though its player came back (``end``)."""
    now = now or timezone.now()
    found = Vacation.objects.filter(user=user, saved=game, starts_at__lte=now, ends_at__lte=now)
    ends = [v.paid_until for v in found if v.paid_until > now]
    return max(ends, default=None)


def refresh_games_of(user) -> None:
    """A vacation began or ended: the deadlines of the player's games move."""
    from games.play import timing

    for game in Game.objects.running().involving(user).exclude(deadline=None):
        timing.refresh_deadline(game)

"""The site's figures, read from the database's timestamps and the task queues: what the site has
done in all (for Prometheus, ``games.web.metrics``) and hour by hour over the last day (for the
staff page, ``games.web.staff_figures``). No model of its own: every figure is a count of rows
the site keeps anyway, so every process reads the same and none needs memory shared with others.

Each reading is a few aggregate queries and never a loop over rows, as Prometheus asks for the
totals every few seconds from every process it scrapes."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncHour
from django.utils import timezone
from huey.contrib.djhuey import HUEY

from games import kinds, tasks
from games.clock import TimeControl
from games.correspondence import push
from games.models import Action, Ending, Game, Notification

SPEEDS = ("correspondence", "live", "untimed")
CHANNELS = ("email", push.CHANNEL)
OUTCOMES = (Notification.Outcome.SENT, Notification.Outcome.FAILED)
HOURS = 24


@dataclass(frozen=True)
class Totals:
    """What the site has done since it began, and what it holds now."""

    moves: dict[str, int]  # kind -> actions appended to its games' logs
    ended_on_time: dict[str, int]  # kind -> games ended because a clock ran out
    running: dict[tuple[str, str], int]  # (kind, speed) -> games in play
    notifications: dict[tuple[str, str], int]  # (channel, outcome) -> sent or failed


def totals() -> Totals:
    """Three aggregate queries: the games' table once for moves and endings (a game's ``seq``
    is the number of its ``Action`` rows, so the log itself, a hundred times longer, is not
    counted), the games in play by their clock, and the notifications by what became of
    them. A kind or a speed with none is there with 0, so that a counter's first step shows."""
    moves = dict.fromkeys(kinds.REGISTERED, 0)
    ended = dict.fromkeys(kinds.REGISTERED, 0)
    by_kind = Game.objects.values("kind").annotate(
        moves=Sum("seq", filter=Q(imported=False), default=0),
        ended=Count("pk", filter=Q(termination__in=Ending.OUT_OF_TIME)),
    )
    for row in by_kind:
        moves[row["kind"]] = row["moves"]
        ended[row["kind"]] = row["ended"]

    running = {(kind, speed): 0 for kind in kinds.REGISTERED for speed in SPEEDS}
    in_play = Game.objects.running().values("kind", "time_control").annotate(games=Count("pk"))
    for row in in_play:
        key = (row["kind"], speed_of(row["time_control"]))
        running[key] = running.get(key, 0) + row["games"]

    notifications = {(channel, str(outcome)): 0 for channel in CHANNELS for outcome in OUTCOMES}
    done = (
        Notification.objects.filter(outcome__in=OUTCOMES)
        .values("channel", "outcome")
        .annotate(count=Count("pk"))
    )
    for row in done:
        notifications[(row["channel"], row["outcome"])] = row["count"]
    return Totals(moves, ended, running, notifications)


def speed_of(time_control: str) -> str:
    try:
        return TimeControl.parse(time_control).speed
    except ValueError:  # a clock no release offers any longer
        return "unknown"


def queue_lengths() -> dict[str, int]:
    """The tasks waiting for a consumer on each queue (a task scheduled for later is not
    waiting yet)."""
    return {"light": HUEY.pending_count(), "compute": tasks.COMPUTE.pending_count()}


def worker_lag() -> float:
    """Seconds since a light consumer last ran its minute sweep (infinite if none ever did):
    about a minute when all is well."""
    beat = tasks.last_heartbeat()
    return math.inf if beat is None else max(0.0, time.time() - beat)


# -- hour by hour, over the last day ------------------------------------------------------------


@dataclass(frozen=True)
class Hourly:
    """One figure of each of the last ``HOURS`` hours, the oldest first; ``hours`` are their
    beginnings in the active time zone, the last one the hour under way."""

    hours: list[datetime]
    moves: list[int]
    begun: list[int]
    ended_on_time: list[int]
    emails_sent: list[int]
    emails_failed: list[int]


def last_day(now: datetime | None = None) -> Hourly:
    """Five queries, each counting the last day's rows by the hour in the active zone. (The
    log's times have no index: the moves' query reads the whole log, which suits a page opened
    by hand now and then, and is why Prometheus's totals come from the games' table instead.)

    An email that failed is counted at the hour it was asked for (no time of failure is kept:
    its retries end within minutes); one sent, at the hour it went."""
    current = timezone.localtime(now).replace(minute=0, second=0, microsecond=0)
    # Counted back in UTC, then read in the zone: a day with a change of clocks has its hours.
    hours = [
        timezone.localtime(current.astimezone(UTC) - timedelta(hours=back))
        for back in range(HOURS - 1, -1, -1)
    ]
    emails = Notification.objects.filter(channel="email")
    return Hourly(
        hours=hours,
        moves=_by_hour(Action.objects.filter(game__imported=False), "created_at", hours),
        begun=_by_hour(Game.objects.filter(imported=False), "started_at", hours),
        ended_on_time=_by_hour(
            Game.objects.filter(termination__in=Ending.OUT_OF_TIME), "finished_at", hours
        ),
        emails_sent=_by_hour(emails.filter(outcome=Notification.Outcome.SENT), "sent_at", hours),
        emails_failed=_by_hour(
            emails.filter(outcome=Notification.Outcome.FAILED), "created_at", hours
        ),
    )


def _by_hour(rows, field: str, hours: list[datetime]) -> list[int]:
    """How many of ``rows`` have ``field`` in each of ``hours`` (the hour's beginning to the
    next's)."""
    zone = timezone.get_current_timezone()
    counts = (
        rows.filter(**{f"{field}__gte": hours[0]})
        .annotate(hour=TruncHour(field, tzinfo=zone))
        .values("hour")
        .annotate(count=Count("pk"))
        .order_by()
    )
    found = {row["hour"].timestamp(): row["count"] for row in counts}
    return [found.get(hour.timestamp(), 0) for hour in hours]

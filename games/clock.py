"""Time controls and the clocks they give, computed from when each decision was made.

A clock is never ticked in the database: it is a value read off the game's start, the times of
its decisions and who must decide now, as lichess does. Nothing here knows a game's rules, so
every game on the site gets the same clocks; nothing here reads the database, and only the words
a player reads come from Django (its translations, in the active language).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext, ngettext, pgettext

NO_CLOCK = "none"
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 10, 14)
LIVE_CONTROLS = ((5, 3), (10, 5), (15, 10), (20, 10), (30, 20))
# Of the time for one decision, the share that must be gone before "time almost up" is said.
WARN_AT = 0.8

_NOTATION = re.compile(r"^(?:(?P<days>\d{1,2})d|(?P<minutes>\d{1,3})\+(?P<increment>\d{1,3}))$")

Interval = tuple[datetime, datetime]


@dataclass(frozen=True)
class TimeControl:
    """``none``, days per decision (``3d``), or live minutes plus seconds per decision
    (``10+5``). ``TimeControl.parse(str(tc)) == tc``."""

    days: int = 0
    minutes: int = 0
    increment: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        if text in ("", NO_CLOCK):
            return cls()
        match = _NOTATION.match(text)
        if not match:
            raise ValueError(f"not a time control: {text!r}")
        if match["days"]:
            days = int(match["days"])
            if days not in CORRESPONDENCE_DAYS:
                raise ValueError(f"{days} days is not one of {CORRESPONDENCE_DAYS}")
            return cls(days=days)
        minutes, increment = int(match["minutes"]), int(match["increment"])
        if (minutes, increment) not in LIVE_CONTROLS:
            raise ValueError(f"{text} is not one of the live time controls")
        return cls(minutes=minutes, increment=increment)

    def __str__(self) -> str:
        if self.days:
            return f"{self.days}d"
        if self.minutes:
            return f"{self.minutes}+{self.increment}"
        return NO_CLOCK

    @property
    def correspondence(self) -> bool:
        return self.days > 0

    @property
    def live(self) -> bool:
        return self.minutes > 0

    @property
    def timed(self) -> bool:
        return self.correspondence or self.live

    @property
    def speed(self) -> str:
        """The speed class: "correspondence", "live", or "untimed" (a key, not words)."""
        if self.correspondence:
            return "correspondence"
        return "live" if self.live else "untimed"

    @property
    def speed_label(self) -> str:
        """The speed class in the player's words, as a rating is named by it."""
        if self.correspondence:
            return pgettext("speed", "correspondence")
        return pgettext("speed", "live") if self.live else pgettext("speed", "untimed")

    @property
    def label(self) -> str:
        if self.days:
            return ngettext("%(days)d day per move", "%(days)d days per move", self.days) % {
                "days": self.days
            }
        if self.minutes:
            return gettext("live %(minutes)d+%(increment)d") % {
                "minutes": self.minutes,
                "increment": self.increment,
            }
        return gettext("no clock")

    @property
    def description(self) -> str:
        if self.days:
            return ngettext(
                "Correspondence: %(days)d day per move; the time refills after each decision. "
                "A player who runs out of time loses.",
                "Correspondence: %(days)d days per move; the time refills after each decision. "
                "A player who runs out of time loses.",
                self.days,
            ) % {"days": self.days}
        if self.minutes:
            return gettext(
                "Live: %(minutes)d minutes for each player, plus %(increment)d seconds after "
                "each decision. A player who runs out of time loses."
            ) % {"minutes": self.minutes, "increment": self.increment}
        return gettext("No clock: a friendly game that never times out.")

    def show(self, left: timedelta | None) -> str:
        """Time left as this control's clock shows it: in words, or to the second if live."""
        return digits(left) if self.live else words(left)

    @property
    def per_decision(self) -> timedelta:
        """The time one decision may take at the most, with a full clock."""
        if self.days:
            return timedelta(days=self.days)
        return timedelta(minutes=self.minutes)

    @property
    def initial(self) -> timedelta:
        return self.per_decision


def choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The time controls a creator may choose, grouped as a form's select shows them, in the
    active language (a form field calls this each time it is drawn)."""
    correspondence = [(f"{d}d", TimeControl(days=d).label) for d in CORRESPONDENCE_DAYS]
    live = [
        (
            f"{m}+{i}",
            gettext("%(minutes)d minutes + %(seconds)d seconds per move")
            % {"minutes": m, "seconds": i},
        )
        for m, i in LIVE_CONTROLS
    ]
    return [
        (pgettext("clock", "Correspondence"), correspondence),
        (pgettext("clock", "Live"), live),
        (pgettext("clock", "Friendly"), [(NO_CLOCK, gettext("no clock (never times out)"))]),
    ]


@dataclass(frozen=True)
class Decision:
    """A decision made: by which seat, and when it reached the server."""

    seat: int
    at: datetime


@dataclass(frozen=True)
class Reading:
    """The clocks at one moment.

    ``remaining`` is each seat's time (None without a clock); ``running`` is the seat whose
    clock runs; ``deadline`` is when it reaches zero; ``flagged`` is that seat once it has,
    unless a vacation holds the clock at zero (one is begun at the very moment to save it).
    """

    remaining: tuple[timedelta | None, timedelta | None]
    running: int | None = None
    deadline: datetime | None = None
    since: datetime | None = None  # when the running decision began
    paused: bool = False

    @property
    def flagged(self) -> int | None:
        if self.running is None or self.paused or self.remaining[self.running] is None:
            return None
        return self.running if self.remaining[self.running] <= timedelta(0) else None


UNTIMED = Reading(remaining=(None, None))


def read(
    control: TimeControl,
    started_at: datetime,
    decisions: Sequence[Decision],
    to_decide: int | None,
    now: datetime,
    pauses: Mapping[int, Sequence[Interval]] | None = None,
) -> Reading:
    """The clocks of a game that began at ``started_at`` after these decisions, at ``now``.

    ``pauses`` are each seat's vacations; they stop only a correspondence clock.
    """
    if not control.timed:
        return UNTIMED
    since = decisions[-1].at if decisions else started_at
    if control.correspondence:
        return _read_correspondence(control, since, to_decide, now, pauses or {})
    return _read_live(control, started_at, decisions, to_decide, now)


def _read_correspondence(control, since, to_decide, now, pauses) -> Reading:
    full = control.per_decision
    if to_decide is None:
        return Reading(remaining=(full, full))
    own = merged(pauses.get(to_decide, ()))
    used = (now - since) - overlap(own, since, now)
    remaining = [full, full]
    remaining[to_decide] = max(full - used, timedelta(0))
    return Reading(
        remaining=tuple(remaining),
        running=to_decide,
        deadline=deadline_after(since, full, own),
        since=since,
        paused=any(start <= now < end for start, end in own),
    )


def _read_live(control, started_at, decisions, to_decide, now) -> Reading:
    banks = [control.initial, control.initial]
    increment = timedelta(seconds=control.increment)
    last = started_at
    for decision in decisions:
        banks[decision.seat] -= decision.at - last
        banks[decision.seat] += increment
        last = decision.at
    if to_decide is None:
        return Reading(remaining=tuple(max(b, timedelta(0)) for b in banks))
    deadline = last + banks[to_decide]
    banks[to_decide] -= now - last
    return Reading(
        remaining=tuple(max(b, timedelta(0)) for b in banks),
        running=to_decide,
        deadline=deadline,
        since=last,
    )


def merged(intervals: Sequence[Interval]) -> list[Interval]:
    """The intervals sorted, with those that touch or overlap joined."""
    out: list[Interval] = []
    for start, end in sorted(intervals):
        if end <= start:
            continue
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def overlap(intervals: Sequence[Interval], start: datetime, end: datetime) -> timedelta:
    total = timedelta(0)
    for a, b in intervals:
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            total += hi - lo
    return total


def deadline_after(since: datetime, budget: timedelta, pauses: Sequence[Interval]) -> datetime:
    """When ``budget`` of running time is used up from ``since``, the (merged) pauses not
    counting. A pause that begins as the budget runs out stops the clock at zero (that is
    how a vacation day saves a game), so the deadline moves past it."""
    moment = since
    for start, end in pauses:
        if end <= moment:
            continue
        if start > moment:
            if moment + budget < start:
                return moment + budget
            budget -= start - moment
        moment = end
    return moment + budget


def warning_due(control: TimeControl, reading: Reading) -> bool:
    """Whether the running correspondence clock has used ``WARN_AT`` of its decision's time."""
    if not control.correspondence or reading.running is None:
        return False
    left = reading.remaining[reading.running]
    return left is not None and left <= control.per_decision * (1 - WARN_AT)


def unit_words(name: str, count: int) -> str:
    """The words for ``count`` of the clock's unit ``name`` ("day", "hour", "minute",
    "second"), their number still a ``%(count)d`` placeholder: the game page's script counts
    down with the same words (``games.web.presenters.page_words``)."""
    if name == "day":
        return ngettext("%(count)d day", "%(count)d days", count)
    if name == "hour":
        return ngettext("%(count)d hour", "%(count)d hours", count)
    if name == "minute":
        return ngettext("%(count)d minute", "%(count)d minutes", count)
    return ngettext("%(count)d second", "%(count)d seconds", count)


def unit(count: int, name: str) -> str:
    return unit_words(name, count) % {"count": count}


def words(left: timedelta | None) -> str:
    """A correspondence clock in words: "2 days 4 hours", "3 hours 12 minutes", "40 seconds"."""
    if left is None:
        return ""
    seconds = max(int(left.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return unit(days, "day") + (f" {unit(hours, 'hour')}" if hours else "")
    if hours:
        return unit(hours, "hour") + (f" {unit(minutes, 'minute')}" if minutes else "")
    if minutes:
        return unit(minutes, "minute")
    return unit(secs, "second")


def digits(left: timedelta | None) -> str:
    """A live clock to the second: "9:58", "1:02:03"."""
    if left is None:
        return ""
    seconds = max(int(left.total_seconds()), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"

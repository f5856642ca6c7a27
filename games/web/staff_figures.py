"""The staff's page of the site's figures (`/admin/figures/`, linked from the admin's index), for
an admin without Prometheus: the last day hour by hour, drawn by the server as small SVG bar
charts (no JavaScript; colours by presentation attributes, as the CSP forbids inline styles),
each with its words for those who do not see it, and the task queues as they are now."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from games.web import figures

WIDTH, HEIGHT = 480, 110
LEFT, RIGHT, TOP, BOTTOM = 28, 4, 6, 20  # room for the scale's number and the hours under the bars
GAP = 2  # between two bars


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    height: float
    title: str  # what pointing at the hour says: "14:00: 12 moves"


@dataclass(frozen=True)
class Chart:
    id: str
    title: str
    summary: str  # the chart in one sentence, shown under it
    bars: list[Bar]
    bar_width: float
    hours: list[tuple[float, str]]  # (x, "14:00") under every sixth bar
    most: int  # the scale: the tallest bar's count
    width: int = WIDTH
    height: int = HEIGHT
    top: int = TOP
    span: int = HEIGHT - TOP - BOTTOM  # the tallest bar's height
    baseline: int = HEIGHT - BOTTOM
    left: int = LEFT


# Each chart: its id, its title, one hour's figure in words, and the field of ``figures.Hourly``.
FIGURES = (
    ("moves", _("Moves"), ngettext_lazy("%(at)s: %(n)d move", "%(at)s: %(n)d moves", "n"), "moves"),
    (
        "begun",
        _("Games begun"),
        ngettext_lazy("%(at)s: %(n)d game begun", "%(at)s: %(n)d games begun", "n"),
        "begun",
    ),
    (
        "on-time",
        _("Games ended on time"),
        ngettext_lazy("%(at)s: %(n)d game ended on time", "%(at)s: %(n)d games ended on time", "n"),
        "ended_on_time",
    ),
    (
        "sent",
        _("Emails sent"),
        ngettext_lazy("%(at)s: %(n)d email sent", "%(at)s: %(n)d emails sent", "n"),
        "emails_sent",
    ),
    (
        "failed",
        _("Emails failed"),
        ngettext_lazy("%(at)s: %(n)d email failed", "%(at)s: %(n)d emails failed", "n"),
        "emails_failed",
    ),
)


def chart(name: str, title: str, counts: list[int], hours: list[datetime], words) -> Chart:
    """One bar an hour, the tallest the chart's height; ``words`` says one hour's figure."""
    most = max(counts)
    step = (WIDTH - LEFT - RIGHT) / len(counts)
    span = HEIGHT - TOP - BOTTOM
    bars = []
    for index, (hour, count) in enumerate(zip(hours, counts, strict=True)):
        height = round(count / most * span, 1) if most else 0
        x = round(LEFT + index * step + GAP / 2, 1)
        said = words % {"at": _hour(hour), "n": count}
        bars.append(Bar(x, round(HEIGHT - BOTTOM - height, 1), height, said))
    summary = gettext("In the last 24 hours: %(total)d; in the busiest hour: %(most)d.") % {
        "total": sum(counts),
        "most": most,
    }
    marks = [(round(LEFT + i * step, 1), _hour(hours[i])) for i in range(0, len(hours), 6)]
    return Chart(name, str(title), summary, bars, round(step - GAP, 1), marks, most)


def _hour(hour: datetime) -> str:
    return formats.time_format(hour, "H:i")


def charts(day: figures.Hourly) -> list[Chart]:
    return [
        chart(name, title, getattr(day, field), day.hours, words)
        for name, title, words, field in FIGURES
    ]


def page(request: HttpRequest) -> HttpResponse:
    """Staff only: ``admin.site.admin_view`` wraps it in the URLs, so that anyone else is sent
    to the admin's login as for any admin page."""
    day = figures.last_day()
    rows = zip(
        [_hour(hour) for hour in day.hours],
        day.moves,
        day.begun,
        day.ended_on_time,
        day.emails_sent,
        day.emails_failed,
        strict=True,
    )
    lag = figures.worker_lag()
    context = {
        **admin.site.each_context(request),
        "title": gettext("Site figures: the last 24 hours"),
        "charts": charts(day),
        "rows": list(rows),
        "queues": figures.queue_lengths(),
        "lag": None if lag == float("inf") else round(lag),
    }
    return render(request, "admin/games/figures.html", context)

"""A player's rating history as the points of an SVG chart, drawn by the server.

The template (``games/ratings/_chart.html``) draws what this computes: a line through the
ratings after each rated game, a dot per game (a link to it when the viewer may open it), and
a few labelled ratings and dates on the axes. No JavaScript; colours come from the stylesheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import formats, timezone
from django.utils.translation import pgettext

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 28  # margins for the axes' labels
STEP = 50  # ratings are labelled at multiples of this


@dataclass(frozen=True)
class Point:
    at: datetime
    rating: float
    title: str  # what pointing at the dot says: "1523 after game 12 against bob, won"
    url: str  # "" when the viewer may not open the game


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str
    url: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    line: str  # the polyline's points: "x,y x,y …"
    dots: list[Dot]
    ratings: list[tuple[float, int]]  # (y, rating) of each horizontal guide
    dates: list[tuple[float, str]]  # (x, date) under the axis
    left: int
    right: int
    bottom: int
    radius: float  # of each dot: smaller when there are many


def chart(points: list[Point]) -> Chart | None:
    """The chart of ``points`` (in time order); None without any."""
    if not points:
        return None
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    low, high = (low // STEP) * STEP, (high // STEP + 1) * STEP
    first, last = points[0].at.timestamp(), points[-1].at.timestamp()
    span_x = WIDTH - LEFT - RIGHT
    span_y = HEIGHT - TOP - BOTTOM

    def x_of(at: datetime) -> float:
        if last == first:
            return LEFT + span_x / 2
        return LEFT + (at.timestamp() - first) / (last - first) * span_x

    def y_of(rating: float) -> float:
        return TOP + (high - rating) / (high - low) * span_y

    dots = [Dot(round(x_of(p.at), 1), round(y_of(p.rating), 1), p.title, p.url) for p in points]
    every = max(STEP, ((high - low) // 4 // STEP) * STEP)
    guides = [(round(y_of(r), 1), int(r)) for r in _range(low, high, every)]
    dates = [(round(x_of(points[0].at), 1), _day(points[0].at))]
    if last - first > 86400 * 7:  # a second date only where it will not overwrite the first
        dates.append((round(x_of(points[-1].at), 1), _day(points[-1].at)))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        line=" ".join(f"{d.x},{d.y}" for d in dots),
        dots=dots,
        ratings=guides,
        dates=dates,
        left=LEFT,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - BOTTOM,
        radius=3 if len(dots) <= 100 else 2,
    )


def _day(at: datetime) -> str:
    """The day of ``at`` in the viewer's zone, as their language writes a short date."""
    return formats.date_format(timezone.localtime(at), pgettext("date format: a day", "j M Y"))


def _range(low: float, high: float, every: float) -> list[float]:
    out, value = [], low
    while value <= high:
        out.append(value)
        value += every
    return out

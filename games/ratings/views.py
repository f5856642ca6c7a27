"""The leaderboards: per game and speed, the players with a settled rating (not provisional)
who played a rated game in the last 90 days, best first. Open to anyone, signed in or not."""

from __future__ import annotations

from datetime import timedelta

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import kinds
from games.models import Rating, Speed
from games.ratings.service import PROVISIONAL, Standing, shown

TOP = 100
ON_THE_INDEX = 10
ACTIVE = timedelta(days=90)


def leaders(kind: str, speed: str, limit: int = TOP) -> list[dict]:
    """The best ``limit`` settled, active ratings at ``kind`` and ``speed``."""
    now = timezone.now()
    rows = (
        Rating.objects.filter(
            kind=kind,
            speed=speed,
            deviation__lte=PROVISIONAL,
            last_game_at__gte=now - ACTIVE,
            user__is_active=True,
        )
        .select_related("user")
        .order_by("-rating", "user__username")
    )
    out = []
    for row in rows.iterator(chunk_size=limit + 20):
        # The deviation shown has grown since the last game: it may have become provisional.
        rating = shown(Standing.of(row), now)
        if rating.provisional:
            continue
        out.append({"rank": len(out) + 1, "user": row.user, "rating": rating})
        if len(out) == limit:
            break
    return out


def boards() -> list[dict]:
    return [
        {
            "kind": kind,
            "speed": speed,
            "title": _("%(game)s, %(speed)s") % {"game": kind.title, "speed": label},
        }
        for kind in kinds.all_kinds()
        for speed, label in Speed.choices
    ]


@require_GET
def leaderboards(request: HttpRequest) -> HttpResponse:
    """Every leaderboard's top ten, with a link to its top hundred."""
    tables = [
        {**board, "leaders": leaders(board["kind"].key, board["speed"], ON_THE_INDEX)}
        for board in boards()
    ]
    return render(request, "games/ratings/leaderboards.html", {"tables": tables})


@require_GET
def leaderboard(request: HttpRequest, kind: str, speed: str) -> HttpResponse:
    try:
        game_kind = kinds.get(kind)
    except KeyError:
        raise Http404("no such game") from None
    if speed not in Speed.values:
        raise Http404("no such speed")
    context = {
        "kind": game_kind,
        "speed": speed,
        "title": _("%(game)s, %(speed)s") % {"game": game_kind.title, "speed": Speed(speed).label},
        "leaders": leaders(kind, speed),
        "boards": boards(),
        "top": TOP,
        "active_days": ACTIVE.days,
        "provisional": int(PROVISIONAL),
    }
    return render(request, "games/ratings/leaderboard.html", context)

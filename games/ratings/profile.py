"""A profile's part about play: the ratings with their charts, and results by edition and
against each opponent. A private game stays its players' and the staff's business: a stranger
sees its rating change as a dot of the chart, with no link, no opponent and no game number."""

from __future__ import annotations

from collections import defaultdict

from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import kinds
from games.models import Game, Rating, RatingChange, Speed, player_name, result_words
from games.ratings.chart import Point, chart
from games.ratings.service import Standing, shown

RESULT_WORDS = {1.0: "won", 0.5: "shared", 0.0: "lost"}
OPPONENTS_SHOWN = 30


def ratings(person, viewer) -> list[dict]:
    """Each of the person's ratings (kind and speed), with its chart."""
    history = defaultdict(list)
    changes = (
        RatingChange.objects.filter(user=person)
        .order_by("at", "pk")
        .values_list(
            "kind",
            "speed",
            "game_id",
            "rating_before",
            "rating_after",
            "score",
            "at",
            "opponent__username",
            "game__private",
            "game__seat0_id",
            "game__seat1_id",
        )
    )
    for kind, speed, game_id, before, after, score, at, opponent, private, *seats in changes:
        seen = not private or viewer.is_staff or viewer.pk in seats
        said = {
            "rating": round(after),
            "change": f"{round(after) - round(before):+d}",
            "date": formats.date_format(
                timezone.localtime(at), pgettext("date format: a day", "j M Y")
            ),
        }
        if seen:
            words = _(
                "%(rating)s (%(change)s) on %(date)s: game %(game)s against %(opponent)s, "
                "%(result)s"
            ) % {
                **said,
                "game": game_id,
                "opponent": player_name(opponent),
                "result": result_words(RESULT_WORDS.get(score, "")),
            }
            url = reverse("games:detail", args=[game_id])
        else:
            words = _("%(rating)s (%(change)s) on %(date)s: a private game") % said
            url = ""
        history[(kind, speed)].append(Point(at, after, words, url))
    rows = []
    for row in Rating.objects.filter(user=person).order_by("kind", "speed"):
        title = kinds.get(row.kind).title if row.kind in kinds.REGISTERED else row.kind
        speed = Speed(row.speed).label if row.speed in Speed.values else row.speed
        rows.append(
            {
                "id": f"chart-{row.kind}-{row.speed}",
                "title": _("%(game)s, %(speed)s") % {"game": title, "speed": speed},
                "kind": title,
                "speed": speed,
                "shown": shown(Standing.of(row)),
                "url": reverse("leaderboard", args=[row.kind, row.speed]),
                "chart": chart(history[(row.kind, row.speed)]),
            }
        )
    return rows


def results(person, viewer) -> dict:
    """Won, lost and shared, by game and edition and against each opponent (the most played
    first), over the finished games the viewer may see."""
    games = (
        Game.objects.involving(person)
        .visible_to(viewer)
        .filter(status=Game.Status.FINISHED, imported=False)
        .values_list("kind", "edition", "winners", "seat0_id", "seat0__username", "seat1__username")
    )
    by_edition: dict[str, dict] = defaultdict(lambda: {"won": 0, "lost": 0, "shared": 0})
    by_opponent: dict[str, dict] = defaultdict(lambda: {"won": 0, "lost": 0, "shared": 0})
    titles = dict(kinds.choices())
    for kind, edition, winners, seat0_id, name0, name1 in games:
        seat = 0 if seat0_id == person.pk else 1
        result = "shared" if sorted(winners) == [0, 1] else "won" if seat in winners else "lost"
        label = titles.get(kind, kind) + (f" {edition}" if edition and kind == "basilica" else "")
        by_edition[label][result] += 1
        by_opponent[name1 if seat == 0 else name0][result] += 1
    opponents = sorted(by_opponent.items(), key=lambda item: (-sum(item[1].values()), item[0]))
    return {
        "by_edition": sorted(by_edition.items()),
        "by_opponent": opponents[:OPPONENTS_SHOWN],
        "opponents": len(opponents),
    }


def running(person, viewer):
    """The person's games in play that the viewer may see, the last moved first."""
    return (
        Game.objects.involving(person)
        .visible_to(viewer)
        .running()
        .select_related("seat0", "seat1")
        .order_by("-updated_at")
    )

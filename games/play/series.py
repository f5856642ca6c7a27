"""A series: its games in order, each game's points by player, the running totals, the winner."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games import kinds
from games.models import Game, Series, player_name


def standings(series: Series) -> dict:
    """Each game of the series with its points, the players' running totals and the outcome.

    The players are named as in the first game (its seat 0 first); points follow the players,
    whose seats swap from game to game.
    """
    games = list(series.games.select_related("seat0", "seat1").order_by("series_number"))
    first = games[0]
    players = [first.seat0, first.seat1]
    totals = [0, 0]
    rows = []
    kind = kinds.get(series.kind)
    for game in games:
        points = None
        if game.status == Game.Status.FINISHED:
            by_seat = kind.series_points(game)
            points = [by_seat[game.seat_of(p)] for p in players]
            totals = [t + p for t, p in zip(totals, points, strict=True)]
        rows.append({"game": game, "points": points, "totals": list(totals)})
    done = [r for r in rows if r["points"] is not None]
    over = len(done) == series.length or any(g.status == Game.Status.ABORTED for g in games)
    winners = []
    if over and done:
        best = min(totals)
        winners = [p for p, t in zip(players, totals, strict=True) if t == best]
    return {
        "series": series,
        "players": players,
        "rows": rows,
        "totals": totals,
        "played": len(done),
        "over": over,
        "winners": winners,
    }


def line(game: Game) -> str:
    """The game page's words about its series: "Game 2 of 4 of a series: ann 12, bob 20"."""
    table = standings(game.series)
    names = [player_name(p) for p in table["players"]]
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, table["totals"], strict=True))
    said = {"number": game.series_number, "length": game.series.length, "totals": totals}
    if not table["over"]:
        return _("Game %(number)s of %(length)s of a series; totals %(totals)s") % said
    if len(table["winners"]) == 1:
        return _(
            "Game %(number)s of %(length)s of a series; totals %(totals)s. %(winner)s wins "
            "the series"
        ) % {**said, "winner": player_name(table["winners"][0])}
    return (
        _("Game %(number)s of %(length)s of a series; totals %(totals)s. The series is drawn")
        % said
    )

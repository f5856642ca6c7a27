"""Ratings as lichess keeps them: Glicko-2, each rated game its own rating period.

Before a game is rated, each player's deviation grows with the time since their last rated
game (lichess's 0.21436 rating periods a day), then the game is one period's result, and the
deviation is kept between a floor and a ceiling. A game is rated in the transaction that ends
it, on its locked row, with one ``RatingChange`` per seat (unique: never twice). The same
``rate_game`` fold, run over every rated game in the order they ended, is the recompute.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import kinds
from games.clock import TimeControl
from games.models import (
    CASUAL_COMPUTER,
    CASUAL_PAIRED,
    CASUAL_UNTIMED,
    Computer,
    Game,
    Rating,
    RatingChange,
    Speed,
    is_closed,
    player_name,
)
from games.ratings.glicko2 import SCALE, Glicko, Result, grown_phi, rate

TAU = 0.75  # lichess's system constant: how fast volatility may change
START = Glicko(1500.0, 350.0, 0.06)
DEVIATION_FLOOR, DEVIATION_CEILING = 45.0, 350.0
MAX_VOLATILITY = 0.1
PROVISIONAL = 110.0  # a deviation above this is shown with "?" and kept off leaderboards
PERIODS_PER_DAY = 0.21436
PAIR_LIMIT = 3  # rated games two players may start together in PAIR_WINDOW
PAIR_WINDOW = timedelta(hours=24)


@dataclass(frozen=True)
class Standing:
    """A player's rating at one kind and speed as of their last rated game."""

    glicko: Glicko = START
    games: int = 0
    last_game_at: datetime | None = None

    @classmethod
    def of(cls, row: Rating | None) -> Standing:
        if row is None:
            return cls()
        return cls(Glicko(row.rating, row.deviation, row.volatility), row.games, row.last_game_at)

    def now(self, at: datetime) -> Glicko:
        """The rating as it stands at ``at``: the deviation grown by the time without games."""
        if self.last_game_at is None:
            return self.glicko
        days = max((at - self.last_game_at).total_seconds(), 0) / 86400
        phi = grown_phi(self.glicko.phi, self.glicko.volatility, days * PERIODS_PER_DAY)
        return replace(self.glicko, deviation=min(phi * SCALE, DEVIATION_CEILING))


@dataclass(frozen=True)
class Shown:
    """A rating as a player reads it: "1523", or "1500?" while provisional."""

    rating: int
    deviation: int
    provisional: bool
    games: int

    def __str__(self) -> str:
        return f"{self.rating}?" if self.provisional else str(self.rating)


def shown(standing: Standing, at: datetime | None = None) -> Shown:
    glicko = standing.now(at or timezone.now())
    return Shown(
        round(glicko.rating),
        round(glicko.deviation),
        glicko.deviation > PROVISIONAL,
        standing.games,
    )


def speed_of(time_control: str) -> str | None:
    """The rating's speed class of a clock; None for untimed games, which are never rated."""
    speed = TimeControl.parse(time_control).speed
    return speed if speed in Speed.values else None


def scores_of(winners: list[int]) -> tuple[float, float] | None:
    """Each seat's score: 1 a win, 0.5 a shared result, 0 a loss; None without a winner."""
    if sorted(winners) == [0, 1]:
        return 0.5, 0.5
    if winners in ([0], [1]):
        return (1.0, 0.0) if winners == [0] else (0.0, 1.0)
    return None


def rate_game(
    standings: tuple[Standing, Standing], scores: tuple[float, float], at: datetime
) -> tuple[tuple[Glicko, Glicko], tuple[Standing, Standing]]:
    """One rated game ending at ``at``: both players' ratings before it (the deviation grown
    by idle time), and their standings after it."""
    before = (standings[0].now(at), standings[1].now(at))
    after = []
    for seat in (0, 1):
        new = rate(before[seat], [Result(before[1 - seat], scores[seat])], TAU, periods=0)
        new = Glicko(
            new.rating,
            min(max(new.deviation, DEVIATION_FLOOR), DEVIATION_CEILING),
            min(new.volatility, MAX_VOLATILITY),
        )
        after.append(Standing(new, standings[seat].games + 1, at))
    return (before[0], before[1]), (after[0], after[1])


# -- rated or casual ----------------------------------------------------------------------------


def seek_terms(user, kind: str, time_control: str, rated: bool, private: bool, spread) -> dict:
    """A new game's rating fields: rated as asked (an untimed game never is), and a seek's
    range of strength around its creator's rating (none for an invitation or untimed game)."""
    speed = speed_of(time_control)
    terms = {"rated": rated and speed is not None, "casual_reason": ""}
    if rated and speed is None:
        terms["casual_reason"] = CASUAL_UNTIMED
    if spread and speed is not None and not private:
        centre = rating_of(user, kind, speed).rating
        terms["rating_min"] = max(centre - spread, 0)
        terms["rating_max"] = centre + spread
    return terms


def asked(game: Game) -> bool:
    """Whether ``game`` was asked to be rated (a rule may have made it casual): for a rematch."""
    return game.rated or (bool(game.casual_reason) and not _against_the_computer(game))


def decide_at_start(game: Game) -> None:
    """As the game starts (both seats taken): casual if one of the site's rules says so."""
    if _against_the_computer(game):
        game.rated, game.casual_reason = False, CASUAL_COMPUTER
        return
    if not game.rated:
        return
    if speed_of(game.time_control) is None:
        game.rated = False
        game.casual_reason = CASUAL_UNTIMED
        return
    since = (game.started_at or timezone.now()) - PAIR_WINDOW
    together = (
        Game.objects.filter(
            Q(seat0=game.seat0_id, seat1=game.seat1_id)
            | Q(seat0=game.seat1_id, seat1=game.seat0_id),
            rated=True,
            started_at__gte=since,
        )
        .exclude(status=Game.Status.ABORTED)
        .exclude(pk=game.pk)
        .count()
    )
    if together >= PAIR_LIMIT:
        game.rated = False
        game.casual_reason = CASUAL_PAIRED.format(count=together)


def _against_the_computer(game: Game) -> bool:
    seats = [s for s in (game.seat0_id, game.seat1_id) if s is not None]
    return Computer.objects.filter(user_id__in=seats).exists()


# -- the end of a rated game --------------------------------------------------------------------


def game_over(game: Game) -> list[RatingChange]:
    """Rate ``game`` (locked, just finished) in the transaction that ends it; nothing for a
    casual, imported, aborted or untimed game."""
    speed = speed_of(game.time_control)
    scores = scores_of(list(game.winners))
    if not game.rated or game.imported or game.status != Game.Status.FINISHED:
        return []
    if speed is None or scores is None or None in (game.seat0_id, game.seat1_id):
        return []
    at = game.finished_at or timezone.now()
    seats = (game.seat0_id, game.seat1_id)
    rows = {}
    for user_id in sorted(seats):  # locked in one order: two games ending at once never deadlock
        rows[user_id], _ = Rating.objects.select_for_update().get_or_create(
            user_id=user_id, kind=game.kind, speed=speed
        )
    standings = (Standing.of(rows[seats[0]]), Standing.of(rows[seats[1]]))
    before, after = rate_game(standings, scores, at)
    changes = [
        _change(game, seat, seats, speed, scores[seat], before[seat], after[seat])
        for seat in (0, 1)
    ]
    RatingChange.objects.bulk_create(changes)  # unique per (game, seat): fails a second time
    for seat in (0, 1):
        _write(rows[seats[seat]], after[seat])
    return changes


def _change(game, seat, seats, speed, score, before: Glicko, after: Standing) -> RatingChange:
    return RatingChange(
        game=game,
        seat=seat,
        user_id=seats[seat],
        opponent_id=seats[1 - seat],
        kind=game.kind,
        speed=speed,
        score=score,
        rating_before=before.rating,
        deviation_before=before.deviation,
        rating_after=after.glicko.rating,
        deviation_after=after.glicko.deviation,
        volatility_after=after.glicko.volatility,
        at=after.last_game_at,
    )


def _write(row: Rating, standing: Standing, save: bool = True) -> None:
    row.rating = standing.glicko.rating
    row.deviation = standing.glicko.deviation
    row.volatility = standing.glicko.volatility
    row.games = standing.games
    row.last_game_at = standing.last_game_at
    if save:
        row.save()


def rated_games():
    """Every game that moves ratings, in the order they ended."""
    return (
        Game.objects.filter(rated=True, imported=False, status=Game.Status.FINISHED)
        .exclude(seat0=None)
        .exclude(seat1=None)
        .order_by("finished_at", "pk")
    )


def recompute() -> dict:
    """Every rating again from the stored games, in the order they ended: a referee's
    correction propagates to every later game. One transaction; returns what it did."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # A game ending meanwhile waits: row locks would miss a pair's first rating, whose
            # row does not exist yet, and its change would be deleted below and never redone.
            with connection.cursor() as cursor:
                tables = f"{Rating._meta.db_table}, {RatingChange._meta.db_table}"
                cursor.execute(f"LOCK TABLE {tables} IN EXCLUSIVE MODE")
        else:  # SQLite runs one writing transaction at a time (IMMEDIATE): nothing can meanwhile
            locked = Rating.objects.select_for_update().order_by("user_id", "kind", "speed")
            list(locked.values_list("pk", flat=True))
        standings: dict[tuple, Standing] = {}
        changes: list[RatingChange] = []
        games = rated_games().only(
            "pk", "kind", "time_control", "winners", "finished_at", "seat0", "seat1"
        )
        for game in games.iterator(chunk_size=2000):
            speed, scores = speed_of(game.time_control), scores_of(list(game.winners))
            if speed is None or scores is None:
                continue
            seats = (game.seat0_id, game.seat1_id)
            keys = [(user_id, game.kind, speed) for user_id in seats]
            pair = (standings.get(keys[0], Standing()), standings.get(keys[1], Standing()))
            before, after = rate_game(pair, scores, game.finished_at)
            for seat in (0, 1):
                standings[keys[seat]] = after[seat]
                changes.append(
                    _change(game, seat, seats, speed, scores[seat], before[seat], after[seat])
                )
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        RatingChange.objects.bulk_create(changes, batch_size=1000)
        rows = []
        for (user_id, kind, speed), standing in standings.items():
            row = Rating(user_id=user_id, kind=kind, speed=speed)
            _write(row, standing, save=False)
            rows.append(row)
        Rating.objects.bulk_create(rows, batch_size=1000)
    return {"games": len(changes) // 2, "ratings": len(standings)}


# -- reading ratings ------------------------------------------------------------------------------


def rating_of(user, kind: str, speed: str) -> Shown:
    row = Rating.objects.filter(user=user, kind=kind, speed=speed).first()
    return shown(Standing.of(row))


def ratings_by_user(pairs) -> dict[tuple, Shown]:
    """Shown ratings for (user_id, kind, speed) triples, in one query; a start for the rest."""
    pairs = set(pairs)
    users = {p[0] for p in pairs}
    rows = Rating.objects.filter(user_id__in=users)
    found = {(r.user_id, r.kind, r.speed): shown(Standing.of(r)) for r in rows}
    return {p: found.get(p) or shown(Standing()) for p in pairs}


def range_refusal(game: Game, user) -> str:
    """Why ``user`` may not accept ``game``'s seek for their strength; "" if they may."""
    if game.rating_min is None or game.rating_max is None:
        return ""
    speed = speed_of(game.time_control)
    if speed is None:
        return ""
    mine = rating_of(user, game.kind, speed)
    if game.rating_min <= mine.rating <= game.rating_max:
        return ""
    return _(
        "This seek is for players rated %(low)s to %(high)s at %(game)s (%(speed)s); your "
        "rating there is %(mine)s. Nothing was changed."
    ) % {
        "low": game.rating_min,
        "high": game.rating_max,
        "game": kinds.get(game.kind).title,
        "speed": Speed(speed).label,
        "mine": mine,
    }


def seek_rows(seeks, viewer) -> list[dict]:
    """The lobby's seeks, each with its creator's rating at its game and speed ("?" while
    provisional), rated or casual, and whether ``viewer`` is outside its range of strength."""
    seeks = list(seeks)
    speeds = {g.pk: speed_of(g.time_control) for g in seeks}
    wanted = {(g.seat0_id, g.kind, speeds[g.pk]) for g in seeks if speeds[g.pk]}
    wanted |= {(viewer.pk, kind, speed) for _, kind, speed in wanted}
    found = ratings_by_user(wanted)
    rows = []
    for game in seeks:
        speed = speeds[game.pk]
        row = {"game": game, "label": game.rated_label, "rating": None, "outside": False}
        if speed:
            row["rating"] = found[(game.seat0_id, game.kind, speed)]
            if game.rating_min is not None and game.seat0_id != viewer.pk:
                mine = found[(viewer.pk, game.kind, speed)].rating
                row["outside"] = not game.rating_min <= mine <= game.rating_max
        rows.append(row)
    return rows


def changes_of(game: Game) -> list[dict]:
    """What a finished rated game did to its players' ratings, by seat, as the page says it."""
    if not game.rated or game.status != Game.Status.FINISHED:
        return []
    rows = game.rating_changes.select_related("user").order_by("seat")
    return [
        {
            "name": player_name(row.user),
            "profile": "" if is_closed(row.user) else row.user.username,
            "before": f"{round(row.rating_before)}{'?' if row.deviation_before > PROVISIONAL else ''}",
            "after": f"{round(row.rating_after)}{'?' if row.deviation_after > PROVISIONAL else ''}",
            "difference": row.difference,
        }
        for row in rows
    ]

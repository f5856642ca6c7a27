"""A tournament runs by itself: the task runner (``games.tasks``) calls ``advance`` when one of
its games ends, and the minute sweep calls it for every tournament due or running, as a safety
net. Each call does what is due now, and nothing twice: it holds the tournament's row lock, and
the pairings' unique constraints refuse a second round of the same player.

- open: at its start time (or once full) it starts with three players or more, or is cancelled;
- round robin: every game starts at once (the rounds of Berger's tables only balance who moves
  first, and order the page);
- Swiss: round 1 at the start, each next round once every game of the round before is over,
  paired by ``pairing.swiss_round``; a round that cannot be paired without a rematch ends the
  tournament early, saying so;
- a withdrawal after the start forfeits the player's games still being played (resigned through
  the game service) and leaves them out of later pairings; so does losing more games on time
  than the organiser allows;
- the last round over, the final places are recorded and every player is told theirs.
"""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import kinds
from games.models import Block, Entry, Game, Pairing, Series, Tournament
from games.play import services, states, timing
from games.play.refusals import MoveRejected
from games.ratings import service as ratings
from games.tournaments import notices, pairing, results

log = logging.getLogger(__name__)

# Kept in English in the row (``Tournament.ended_reason``), said in the reader's language by the
# page: the same words are in the catalogue.
NOT_ENOUGH = gettext_noop("Cancelled: fewer than three players had joined at the start time.")
# Said with the round that could not be paired: the one after ``current_round``.
NO_PAIRING = gettext_noop("Ended early: round %(round)s could not be paired without a rematch.")
ALL_PLAYED = gettext_noop("Every round has been played.")
NOBODY_LEFT = gettext_noop("Ended early: fewer than two players were left to pair.")


def due(now: datetime | None = None):
    """The tournaments the sweep looks at: running, open and past their start time, or open
    until full (the entry that fills one starts it at the next minute)."""
    now = now or timezone.now()
    return Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING)
        | Q(status=Tournament.Status.OPEN, starts_at__lte=now)
        | Q(status=Tournament.Status.OPEN, starts_at__isnull=True)
    )


def advance(tournament_id: int, now: datetime | None = None) -> None:
    """Do whatever is due in the tournament now (see the module's words)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None:
            return
        if tournament.status == Tournament.Status.OPEN:
            _start_if_due(tournament, now)
        elif tournament.status == Tournament.Status.RUNNING:
            _progress(tournament, now)


def tournament_of(game: Game) -> int | None:
    """The tournament whose game (or series) ``game`` ended, if it is one of a tournament: an
    ended game may finish a round. The task runner then ``advance``s it."""
    if not game.over:
        return None
    first = Pairing.objects.filter(game=game).first()
    if first is None and game.series_id is not None:
        first = Pairing.objects.filter(game__series=game.series_id).first()
    return first.tournament_id if first is not None else None


def sweep(now: datetime | None = None) -> int:
    """``advance`` every tournament due; how many were looked at."""
    count = 0
    for pk in due(now).values_list("pk", flat=True):
        try:
            advance(pk, now)
        except Exception:  # one broken tournament must not stop the others
            log.exception("sweep: could not advance tournament %s", pk)
        count += 1
    return count


# -- the start -----------------------------------------------------------------------------------


def active_entries(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.filter(withdrawn_at__isnull=True).select_related("user"))


def full(tournament: Tournament) -> bool:
    return tournament.entries.count() >= tournament.max_players


def _start_if_due(tournament: Tournament, now: datetime) -> None:
    if tournament.starts_at is not None and tournament.starts_at > now:
        return
    if tournament.starts_at is None and not full(tournament):
        return
    entries = active_entries(tournament)
    if len(entries) < Tournament.MIN_PLAYERS:
        _close(tournament, Tournament.Status.CANCELLED, NOT_ENOUGH, now)
        return
    if tournament.swiss:
        tournament.rounds = min(tournament.rounds, len(entries) - 1)
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.current_round = 1
    tournament.save()
    if tournament.swiss:
        _pair_swiss(tournament, 1, now)
        return
    rounds = pairing.round_robin([entry.user_id for entry in entries])
    for number, pairs in enumerate(rounds, start=1):
        for first, second in pairs:
            _pair(tournament, number, first, second)
    tournament.rounds = tournament.current_round = len(rounds)
    tournament.save(update_fields=["rounds", "current_round"])


def _pair(tournament: Tournament, number: int, first: int, second: int | None) -> Pairing:
    """A pairing of round ``number``, its game started (a bye scores its point at once)."""
    if second is None:
        return Pairing.objects.create(
            tournament=tournament, round=number, first_id=first, score=Decimal(1)
        )
    made = Pairing.objects.create(
        tournament=tournament, round=number, first_id=first, second_id=second
    )
    made.game = start_game(tournament, made.first, made.second)
    made.save(update_fields=["game"])
    notices.game_starts(tournament, made.game)
    return made


def start_game(tournament: Tournament, first, second) -> Game:
    """A game of ``tournament`` in play between two known players: ``first`` takes the kind's
    first role (seat 0), on the terms the tournament was created with."""
    terms = tournament.terms
    kind = kinds.get(tournament.kind)
    options = kind.new_options(terms.get("options", {}), 0).to_json()
    series = None
    if terms.get("series"):
        series = Series.objects.create(kind=kind.key, length=terms["series"])
    game = Game.objects.create(
        created_by=first,
        seat0=first,
        seat1=second,
        kind=kind.key,
        edition=options.get("edition", ""),
        options=options,
        engine_version=kind.engine.VERSION,
        time_control=terms["time_control"],
        series=series,
        series_number=1 if series else None,
        status=Game.Status.ACTIVE,
        started_at=timezone.now(),
        **ratings.seek_terms(
            first, kind.key, terms["time_control"], terms.get("rated", False), True, 0
        ),
    )
    ratings.decide_at_start(game)
    game.to_decide = states.load_state(game).to_decide
    game.save()
    timing.refresh_deadline(game)
    services.changed_on_commit(game)  # the first player's "your turn", the pages' news
    return game


# -- while it runs ------------------------------------------------------------------------------


def _progress(tournament: Tournament, now: datetime) -> None:
    _remove_timeouts(tournament, now)
    _record_scores(tournament)
    pairings = list(tournament.pairings.all())
    if any(p.score is None for p in pairings):
        return
    if not tournament.swiss or tournament.current_round >= tournament.rounds:
        finish(tournament, ALL_PLAYED, now)
        return
    _pair_swiss(tournament, tournament.current_round + 1, now)


def _record_scores(tournament: Tournament) -> None:
    waiting = tournament.pairings.filter(score__isnull=True).select_related("game")
    for made in waiting:
        score = results.score_of(made)
        if score is not None:
            made.score = Decimal(score.numerator) / Decimal(score.denominator)
            made.save(update_fields=["score"])


def pure_games(tournament: Tournament) -> list[pairing.Game]:
    """The tournament's pairings as ``pairing`` reads them."""
    return [
        pairing.Game(
            p.round,
            p.first_id,
            p.second_id,
            None if p.score is None else Fraction(str(p.score)).limit_denominator(2),
        )
        for p in tournament.pairings.all()
    ]


def _pair_swiss(tournament: Tournament, number: int, now: datetime) -> None:
    players = [entry.user_id for entry in active_entries(tournament)]
    if len(players) < 2:
        finish(tournament, NOBODY_LEFT, now)
        return
    try:
        games = pairing.swiss_round(
            number, players, pure_games(tournament), _ratings(tournament), _apart(players)
        )
    except pairing.NoPairing:
        finish(tournament, NO_PAIRING, now)
        return
    tournament.current_round = number
    tournament.save(update_fields=["current_round"])
    for game in games:
        _pair(tournament, number, game.first, game.second)


def _apart(players: list[int]) -> set[frozenset[int]]:
    """The pairs of ``players`` of whom one blocked the other."""
    blocks = Block.objects.filter(blocker__in=players, blocked__in=players)
    return {frozenset(pair) for pair in blocks.values_list("blocker", "blocked")}


def _ratings(tournament: Tournament) -> dict[int, float]:
    """Each entrant's rating at the tournament's game and speed: the Swiss's order within a
    score group."""
    speed = ratings.speed_of(tournament.terms["time_control"])
    if speed is None:
        return {}
    return {
        entry.user_id: ratings.rating_of(entry.user, tournament.kind, speed).rating
        for entry in tournament.entries.select_related("user")
    }


def _remove_timeouts(tournament: Tournament, now: datetime) -> None:
    lost = results.timeouts(tournament)
    for entry in active_entries(tournament):
        if lost[entry.user_id] > tournament.timeouts_allowed:
            withdraw_locked(tournament, entry, Entry.Left.TIMEOUTS, now)


def withdraw_locked(tournament: Tournament, entry: Entry, why: str, now: datetime) -> None:
    """On a locked running tournament: ``entry`` takes no further pairings, and every game of
    theirs still being played is resigned (a series to its end); they stay in the standings."""
    entry.withdrawn_at = now
    entry.left = why
    entry.save(update_fields=["withdrawn_at", "left"])
    for game in _running_games(tournament, entry.user_id):
        _forfeit(game, entry.user)


def _running_games(tournament: Tournament, user_id: int):
    return results.games_of(tournament).filter(status=Game.Status.ACTIVE).filter(
        seat0=user_id
    ) | results.games_of(tournament).filter(status=Game.Status.ACTIVE, seat1=user_id)


def _forfeit(game: Game, user) -> None:
    """Resign ``game`` for ``user``, and each next game of its series as it starts."""
    while game is not None:
        with contextlib.suppress(MoveRejected):  # it ended meanwhile: nothing to forfeit
            services.resign(game, user)
        game.refresh_from_db()
        following = None
        if game.series_id is not None:
            following = game.series.games.filter(status=Game.Status.ACTIVE).first()
        game = following


# -- the end ------------------------------------------------------------------------------------


def finish(tournament: Tournament, reason: str, now: datetime) -> None:
    """Record the final places and tell every player theirs."""
    entries = list(tournament.entries.select_related("user"))
    table = pairing.standings(
        [e.user_id for e in entries], pure_games(tournament), tournament.swiss
    )
    places = {line.player: line.place for line in table}
    for entry in entries:
        entry.place = places[entry.user_id]
        entry.save(update_fields=["place"])
    _close(tournament, Tournament.Status.FINISHED, reason, now)
    for entry in entries:
        notices.tournament_over(tournament, entry)


def _close(tournament: Tournament, status: str, reason: str, now: datetime) -> None:
    tournament.status = status
    tournament.ended_reason = reason
    tournament.finished_at = now
    tournament.save()

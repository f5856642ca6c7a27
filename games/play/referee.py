"""The referee's decisions: abort a game, or set or correct its result, with a written reason.

Each goes through the game's row lock like every other ending, and is kept as a
``RefereeDecision`` with the winners and scores before and after: ratings are recomputed from
stored results, and must be able to tell a result decided by hand, and why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import audit
from games.models import Ending, Game, RefereeDecision, player_name
from games.play import conditional, services
from games.ratings import service as ratings

TERMINATION = Ending.REFEREE


class RefereeRefused(ValueError):
    """A decision the site refuses; the message says why, in a sentence."""


def abort_game(game: Game, referee, reason: str) -> Game:
    """End a game in play with no result."""
    reason = _checked(referee, reason)
    with transaction.atomic():
        game = services.lock(game)
        if game.over:
            raise RefereeRefused(
                _("Game %(number)s is already over: to change its outcome, set its result.")
                % {"number": game.pk}
            )
        if game.status != Game.Status.ACTIVE:
            raise RefereeRefused(
                _("Game %(number)s is not in play: only a game in play is aborted.")
                % {"number": game.pk}
            )
        before = _snapshot(game)
        game.status = Game.Status.ABORTED
        game.winners = []
        game.ended_by = None
        _close(game)
        _record(game, referee, RefereeDecision.Kind.ABORT, reason, before)
    return game


def set_result(
    game: Game, referee, winners: Iterable[int], scores: Sequence[int] | None, reason: str
) -> Game:
    """Finish a game with ``winners`` (seats; both for a shared result), and ``scores`` by seat
    if given (else the scores stand): a game in play, or one over whose outcome was wrong."""
    reason = _checked(referee, reason)
    winners = _checked_winners(winners)
    scores = _checked_scores(scores)
    with transaction.atomic():
        game = services.lock(game)
        if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
            raise RefereeRefused(
                _("Game %(number)s never began: there is no result to give.") % {"number": game.pk}
            )
        if game.series_id and len(winners) == 2:
            # A series counts a decided game as lost by one player (see its kind's points).
            raise RefereeRefused(
                _("Game %(number)s belongs to a series: name its one winner.") % {"number": game.pk}
            )
        before = _snapshot(game)
        game.status = Game.Status.FINISHED
        game.winners = winners
        # Like a resignation, a decided game was lost by one seat (none when shared): a series
        # counts its points from that.
        game.ended_by = 1 - winners[0] if len(winners) == 1 else None
        if scores is not None:
            game.scores = scores
        _close(game)
        if before["status_before"] == Game.Status.ACTIVE:
            ratings.game_over(game)  # its end, like any other; a correction needs a recompute
        services.continue_series(game)  # it checks that the next game is not there already
        _record(game, referee, RefereeDecision.Kind.RESULT, reason, before)
    return game


def referee_line(game: Game) -> str:
    """The sentence for a game a referee decided last: "The referee ann decided: <reason>"."""
    if game.termination != TERMINATION:
        return ""
    decision = game.referee_decisions.select_related("referee").order_by("-created_at").first()
    if decision is None:
        return ""
    return _("The referee %(referee)s decided: %(reason)s") % {
        "referee": player_name(decision.referee),
        "reason": decision.reason,
    }


def _checked(referee, reason: str) -> str:
    if not (referee.is_authenticated and referee.is_active and referee.is_staff):
        raise RefereeRefused(_("Only a member of the staff can decide a game as its referee."))
    reason = (reason or "").strip()
    if not reason:
        raise RefereeRefused(_("A referee's decision needs a written reason."))
    return reason


def _checked_winners(winners: Iterable[int]) -> list[int]:
    chosen = set(winners)
    if not chosen <= {0, 1}:
        raise RefereeRefused(_("The winners are seats: 0, 1, or both for a shared result."))
    if not chosen:
        raise RefereeRefused(_("A result needs a winner (both seats for a shared result)."))
    return sorted(chosen)


def _checked_scores(scores: Sequence[int] | None) -> list[int] | None:
    if scores is None:
        return None
    if len(scores) != 2 or not all(isinstance(s, int) for s in scores):
        raise RefereeRefused(_("The scores are two whole numbers, one for each seat."))
    return list(scores)


def _snapshot(game: Game) -> dict:
    return {
        "status_before": game.status,
        "termination_before": game.termination,
        "winners_before": list(game.winners),
        "scores_before": list(game.scores),
    }


def _close(game: Game) -> None:
    """What every referee decision leaves on a locked game: nobody to decide, no clock."""
    game.termination = TERMINATION
    game.to_decide = None
    game.deadline = None
    # A corrected result keeps the moment its game ended: lists are ordered by it.
    game.finished_at = game.finished_at or timezone.now()
    game.save()
    conditional.drop_all(game)  # nothing more will be replied


def _record(game: Game, referee, kind: str, reason: str, before: dict) -> RefereeDecision:
    decision = RefereeDecision.objects.create(
        game=game,
        referee=referee,
        kind=kind,
        reason=reason,
        winners_after=list(game.winners),
        scores_after=list(game.scores),
        **before,
    )
    audit.record(
        referee,
        f"referee.{kind}",
        game=game,
        reason=reason,
        **before,
        winners_after=decision.winners_after,
        scores_after=decision.scores_after,
    )
    services.changed_on_commit(game)
    return decision

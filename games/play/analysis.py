"""The computer's analysis of a finished game: asked for by a player, made on the compute queue
(``games.tasks.analyse_game``, below a bot's moves and hints), kept once per game and version.

Each action of the log is judged by the search bot from the seat that took it, with only what
that seat could see then (``games.bots.judge``, which draws a determinization of the seat's view
first). Its generator is seeded by the game's id and the position, never by the game's seed: the
same game gives the same analysis every time, and nothing in it depends on the stack's order or
on a Jester colour the player who acted had not seen.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games import bots
from games.engine import takeback
from games.models import Analysis, Game

log = logging.getLogger(__name__)


class Refused(Exception):
    """An analysis that may not be asked for now; ``message`` says why, in the player's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def offered(game: Game) -> bool:
    """Whether an analysis may be asked for: only of a game that is finished (never during play,
    when it would be help), and only with moves to judge."""
    return game.status == Game.Status.FINISHED and game.seq > 0


# An analysis running this long was dropped by its worker (it died, its machine stopped), and
# one queued this long was lost with its queue: either counts as failed, and may be asked again.
RUNNING_AT_MOST = timedelta(minutes=15)
QUEUED_AT_MOST = timedelta(days=1)


def _stalled(now) -> Q:
    return Q(status=Analysis.Status.RUNNING, started_at__lt=now - RUNNING_AT_MOST) | Q(
        status=Analysis.Status.QUEUED, asked_at__lt=now - QUEUED_AT_MOST
    )


def current(game: Game) -> Analysis | None:
    """The game's analysis by the present version of the bot, whatever its state; one that
    stalled is shown as failed."""
    analysis = Analysis.objects.filter(game=game, version=bots.ANALYSIS_VERSION).first()
    if analysis is not None and stalled(analysis):
        analysis.status = Analysis.Status.FAILED
    return analysis


def stalled(analysis: Analysis) -> bool:
    return Analysis.objects.filter(pk=analysis.pk).filter(_stalled(timezone.now())).exists()


def request(game: Game, user) -> tuple[Analysis, bool]:
    """Ask for the analysis of ``game`` on behalf of ``user``: (the analysis, whether it must be
    queued now). An analysis already made or on its way is the answer as it is; a failed one is
    asked for again. Refused for a game not finished, and while another analysis the player
    asked for is queued or running (one at a time each)."""
    if not offered(game):
        if game.status == Game.Status.ACTIVE:
            raise Refused(
                gettext("The game is still being played: the computer analyses it once it is over.")
            )
        raise Refused(gettext("Only a finished game can be analysed."))
    with transaction.atomic():
        # The player's row, locked: two requests at once are counted one after the other.
        get_user_model().objects.select_for_update().get(pk=user.pk)
        analysis = (
            Analysis.objects.select_for_update()
            .filter(game=game, version=bots.ANALYSIS_VERSION)
            .first()
        )
        now = timezone.now()
        failed = analysis is not None and (
            analysis.status == Analysis.Status.FAILED or stalled(analysis)
        )
        if analysis is not None and not failed:
            return analysis, False
        waiting = Analysis.objects.filter(requested_by=user, status__in=Analysis.WAITING).exclude(
            _stalled(now)
        )
        if waiting.exists():
            other = waiting.values_list("game_id", flat=True).first()
            raise Refused(
                gettext(
                    "Your analysis of game %(number)s is not finished yet: you may ask for "
                    "another once it is."
                )
                % {"number": other}
            )
        if analysis is None:
            analysis = Analysis(game=game, version=bots.ANALYSIS_VERSION)
        analysis.requested_by = user
        analysis.status = Analysis.Status.QUEUED
        analysis.simulations = bots.ANALYSIS_BUDGETS[game.kind].simulations
        analysis.asked_at = now
        analysis.started_at = analysis.finished_at = None
        analysis.save()
    return analysis, True


def run(analysis_id: int) -> None:
    """Make the analysis ``analysis_id`` (the compute queue's task): judge every action, then
    keep the judgements. One already done is left as it is (a task run twice)."""
    with transaction.atomic():
        analysis = (
            Analysis.objects.select_for_update()
            .select_related("game")
            .filter(pk=analysis_id)
            .first()
        )
        if analysis is None or analysis.status == Analysis.Status.DONE:
            return
        analysis.status = Analysis.Status.RUNNING
        analysis.started_at = timezone.now()
        analysis.attempts += 1
        analysis.save(update_fields=["status", "started_at", "attempts"])
    budget = bots.Budget(simulations=analysis.simulations)
    moves = judge_game(analysis.game, budget)
    Analysis.objects.filter(pk=analysis_id).update(
        status=Analysis.Status.DONE, moves=moves, finished_at=timezone.now()
    )


def failed(analysis_id: int, last: bool) -> None:
    """An attempt failed: queued again for the queue's retry, or failed for good (the page then
    offers to ask again)."""
    status = Analysis.Status.FAILED if last else Analysis.Status.QUEUED
    Analysis.objects.filter(pk=analysis_id).update(status=status, finished_at=timezone.now())
    if last:
        log.error("the analysis %s failed on every try", analysis_id)


def judge_game(game: Game, budget: bots.Budget) -> list[dict]:
    """Every action of ``game`` judged from the seat that took it (``Analysis.moves``)."""
    engine = game.engine
    options = game.engine_options
    state = engine.replay(options, game.seed, [])
    moves = []
    log = list(game.actions.order_by("seq").values_list("data", flat=True))
    standing = takeback.in_force(log)
    for seq, data in enumerate(log, 1):
        if not standing[seq - 1]:
            # A takeback, or the action it took back: the game went on without it, and so
            # does the analysis (its position is the one the action was taken back to).
            state = engine.replay(options, game.seed, [data], start=state)
            continue
        played = engine.Action.from_log(data)
        seat = state.to_decide
        # Seeded by what is public, so that the analysis is the same every time it is made.
        rng = random.Random(f"analysis:{game.pk}:{seq}")
        judgement = bots.judge(game.kind, state, played, budget, rng)
        moves.append(
            {
                "seq": seq,
                "player": seat,
                "before": judgement.before,
                "after": judgement.after,
                "drop": round(judgement.drop, 1),
                "preferred": judgement.preferred.to_json() if judgement.preferred else None,
            }
        )
        state = engine.replay(options, game.seed, [data], start=state)
    return moves

"""Work done outside a request, by the task runner (huey; `make run` starts its worker):
the sweep of clocks every minute, a live game's flag at its moment, the computer's moves and
hints, notifications, the daily digest and the emails held through quiet hours; and the
listeners that schedule them when a game changes (``games.events``, connected in
``GamesConfig.ready``).

Huey names a task by its module and function: a task moved elsewhere would strand the ones
already queued under its old name, so they stay here."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from huey import crontab
from huey.contrib.djhuey import db_periodic_task, db_task

from games.correspondence import notify
from games.models import Game
from games.play import computer, services

log = logging.getLogger(__name__)


def sweep(now=None) -> dict:
    """End every game whose clock has run out, and warn the players whose correspondence time
    is almost up. ``manage.py sweep_games`` runs it once. ``ended`` counts the games this sweep
    ended itself: another sweep running at the same time ends some of the same games first."""
    now = now or timezone.now()
    ended = 0
    for game in Game.objects.running().filter(deadline__lte=now).only("pk"):
        try:
            ended += services.ended_on_time(game, now)
        except Exception:  # one broken game must not keep the others from ending on time
            log.exception("sweep: could not check the clock of game %s", game.pk)
    warned = notify.warn_running_out(now)
    return {"ended": ended, "warned": warned}


@db_periodic_task(crontab(minute="*"))
def sweep_every_minute() -> None:
    result = sweep()
    if result["ended"] or result["warned"]:
        log.info("sweep: %(ended)s games ended on time, %(warned)s warned", result)


@db_task()
def check_clock(game_id: int) -> None:
    """A live game's running clock should reach zero about now."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None:
        services.enforce_clock(game)


@db_task(retries=3, retry_delay=2)
def computer_move(game_id: int, seq: int) -> None:
    """A bot's move, thought out here and never in a web process; a crash is retried."""
    computer.move(game_id, seq)


@db_task(expires=60)
def computer_hint(game_id: int, seat: int, seq: int) -> dict:
    """A hint for a player, thought out here and never in a web process; its answer is read by
    the page from the result store (``views.hint_answer``)."""
    return computer.hint_at(game_id, seat, seq)


@db_task()
def check_notification(kind: str, game_id: int, seat: int, seq: int) -> None:
    notify.check(kind, game_id, seat, seq)


@db_task()
def tell_reply_played(game_id: int, seat: int, seq: int) -> None:
    notify.reply_played(game_id, seat, seq)


@db_task(retries=settings.NOTIFY_RETRIES, retry_delay=60, context=True)
def deliver(notification_id: int, task=None) -> None:
    notify.deliver(notification_id, final=task is None or task.retries == 0)


@db_periodic_task(crontab(minute="0"))
def daily_digest() -> None:
    """Hourly: the digest of those whose own clock reads seven (zones half or three quarters
    of an hour off UTC read 7:30 or 7:45)."""
    notify.daily_digests()


@db_periodic_task(crontab(minute="*/15"))
def send_held_emails() -> None:
    """The emails held through quiet hours, at their end: an hour in the player's zone, which
    may begin at a quarter past an hour of UTC."""
    notify.send_held()


# -- what a committed change schedules (listeners of games.events) ------------------------------


def schedule_checks(game: Game, by: int | None, **_facts) -> None:
    """A live game's flag at the moment its clock reaches zero (not at the next sweep), and a
    check of each notification the change may call for."""
    if game.status == Game.Status.ACTIVE and game.deadline and game.clock_control.live:
        check_clock.schedule(args=(game.pk,), eta=game.deadline + timedelta(milliseconds=300))
    for kind, seat in notify.due_after(game, by):
        _check_later(kind, game, seat)


def schedule_rematch_offer(game: Game, **_facts) -> None:
    for kind, seat in notify.due_after_rematch_offer(game):
        _check_later(kind, game, seat)


def _check_later(kind: str, game: Game, seat: int) -> None:
    """Check after a short delay whether the player still needs telling (not if they are
    watching the game meanwhile)."""
    delay = settings.NOTIFY_DELAY_SECONDS
    if delay > 0:
        check_notification.schedule(args=(kind, game.pk, seat, game.seq), delay=delay)
    else:
        check_notification(kind, game.pk, seat, game.seq)


def schedule_reply_news(game: Game, seat: int, seq: int, **_facts) -> None:
    """The player whose prepared reply the server played is told, after the same short delay
    as "your turn" (not if they watch the game meanwhile)."""
    delay = settings.NOTIFY_DELAY_SECONDS
    if delay > 0:
        tell_reply_played.schedule(args=(game.pk, seat, seq), delay=delay)
    else:
        tell_reply_played(game.pk, seat, seq)


def schedule_computer_move(game: Game, **_facts) -> None:
    """The bot's move, when a bot must decide now."""
    if computer.deciding_bot(game) is not None:
        computer_move(game.pk, game.seq)


def schedule_delivery(notification, **_facts) -> None:
    deliver(notification.pk, retry_delay=settings.NOTIFY_RETRY_DELAY_SECONDS)

"""Work done outside a request, by the task runner (huey; `make run` starts its consumers),
on two queues served by consumers of their own (``settings.HUEY``, ``settings.HUEY_COMPUTE``):

- light work (``HUEY``, `manage.py run_huey`): the sweep of clocks every minute, a live game's
  flag at its moment, notifications, the daily digest and the emails held through quiet hours;
- the computer's thinking (``COMPUTE``, `manage.py run_compute`): bot moves and hints, in
  process workers, a live game's first, finished games' analyses last (``Priority``). A
  game's bot move at a given point is asked for once (``request_computer_move``); one a dead
  worker dropped is asked for again, once, by the minute sweep (``computer_moves_stalled``).

And the listeners that schedule them when a game changes (``games.events``, connected in
``GamesConfig.ready``).

Huey names a task by its module and function: a task moved elsewhere would strand the ones
already queued under its old name, so they stay here."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from enum import IntEnum
from functools import wraps

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.utils import timezone
from huey import crontab
from huey.contrib.djhuey import HUEY, db_periodic_task, db_task
from huey.signals import SIGNAL_INTERRUPTED
from huey.utils import load_class

from games import upkeep as upkeep_work
from games.correspondence import notify
from games.models import Computer, Game
from games.play import analysis, computer, services
from games.tournaments import running as tournaments

log = logging.getLogger(__name__)


def _huey(config: dict):
    """A huey instance from a settings dict, as ``huey.contrib.djhuey`` makes ``HUEY``."""
    options = {key: value for key, value in config.items() if key != "consumer"}
    return load_class(options.pop("huey_class"))(options.pop("name"), **options)


COMPUTE = _huey(settings.HUEY_COMPUTE)


class Priority(IntEnum):
    """The compute queue's order: the highest first, in the order asked within one."""

    LIVE = 30  # a bot's move in a live game, whose clock runs; a hint, which a player awaits
    CORRESPONDENCE = 20  # a bot's move in a game of days
    ANALYSIS = 10  # a finished game's analysis


def compute_task(**options):
    """A task of the compute queue, which may read and write the database."""

    def decorator(function):
        @wraps(function)
        def inner(*args, **kwargs):
            if not COMPUTE.immediate:
                close_old_connections()
            try:
                return function(*args, **kwargs)
            finally:
                if not COMPUTE.immediate:
                    close_old_connections()

        task = COMPUTE.task(**options)(inner)
        task.call_local = function
        return task

    return decorator


def first_to_claim(name: str, every: timedelta, now: datetime | None = None) -> bool:
    """Whether this copy of periodic task ``name`` (of period ``every``) is the first to run
    for the present tick of its schedule: every light consumer's scheduler queues the periodic
    tasks, and only one copy a tick may do the work. A claim is kept for three ticks, so that a
    copy late by a tick or two (a busy queue, a clock behind) still finds its tick taken."""
    now = (now or timezone.now()).replace(second=0, microsecond=0)
    minutes = int(every / timedelta(minutes=1))
    tick = now - timedelta(minutes=(now.hour * 60 + now.minute) % minutes)
    stamp = "%Y-%m-%dT%H:%M"
    if not HUEY.put_if_empty(f"periodic:{name}:{tick:{stamp}}", "1"):
        return False
    HUEY.delete(f"periodic:{name}:{tick - 3 * every:{stamp}}")
    return True


def sweep(now=None) -> dict:
    """End every game whose clock has run out, warn the players whose correspondence time is
    almost up, and ask again for the bot moves a worker dropped. ``manage.py sweep_games`` runs
    it once. ``ended`` counts the games this sweep ended itself: another sweep running at the
    same time ends some of the same games first."""
    now = now or timezone.now()
    ended = 0
    for game in Game.objects.running().filter(deadline__lte=now).only("pk"):
        try:
            ended += services.ended_on_time(game, now)
        except Exception:  # one broken game must not keep the others from ending on time
            log.exception("sweep: could not check the clock of game %s", game.pk)
    warned = notify.warn_running_out(now)
    asked_again = computer_moves_stalled(now)
    # After the clocks: a game ended on time may finish a tournament's round.
    tournaments.sweep(now)
    return {"ended": ended, "warned": warned, "asked_again": asked_again}


HEARTBEAT = "heartbeat:light"


def last_heartbeat() -> float | None:
    """When a light consumer last ran its minute sweep (a Unix time), if one ever did."""
    return HUEY.get(HEARTBEAT, peek=True)


@db_periodic_task(crontab(minute="*"))
def sweep_every_minute() -> None:
    HUEY.put(HEARTBEAT, timezone.now().timestamp())  # for /health/: a light consumer is alive
    if not first_to_claim("sweep", timedelta(minutes=1)):
        return
    result = sweep()
    if any(result.values()):
        log.info(
            "sweep: %(ended)s games ended on time, %(warned)s warned, "
            "%(asked_again)s bot moves asked for again",
            result,
        )


@db_task()
def check_clock(game_id: int) -> None:
    """A live game's running clock should reach zero about now."""
    game = Game.objects.filter(pk=game_id).first()
    if game is not None:
        services.enforce_clock(game)


# -- the computer's thinking, on the compute queue ------------------------------------------------


def _move_key(game_id: int, seq: int) -> str:
    return f"computer-move:{game_id}:{seq}"


def _note(state: str, attempt: int) -> dict:
    return {"state": state, "attempt": attempt, "at": timezone.now().timestamp()}


def request_computer_move(game_id: int, seq: int, live: bool, attempt: int = 1) -> bool:
    """Queue the bot's move in game ``game_id`` at ``seq``, unless it is queued or being
    thought out already; whether it was queued. A note beside the queue says where the request
    is: ``queued`` (or waiting for a retry), ``thinking`` since when, ``failed``; it is gone once
    the move is made."""
    key = _move_key(game_id, seq)
    if not COMPUTE.put_if_empty(key, _note("queued", attempt)):
        return False
    try:
        computer_move(game_id, seq, priority=Priority.LIVE if live else Priority.CORRESPONDENCE)
    except BaseException:
        COMPUTE.delete(key)  # nothing was queued: the next change or sweep asks again
        raise
    return True


@compute_task(retries=3, retry_delay=2, retry_backoff=2, context=True)
def computer_move(game_id: int, seq: int, task=None) -> None:
    """A bot's move, thought out here and never in a web process. An error is retried (2, 4
    and 8 s later); a worker that dies in the middle is noticed by the minute sweep, which asks
    once more. Either way the game's seq refuses a second move at the same point: a retry of a
    move that was made finds the game past it and does nothing."""
    key = _move_key(game_id, seq)
    attempt = (COMPUTE.get(key, peek=True) or {}).get("attempt", 1)
    COMPUTE.put(key, _note("thinking", attempt))
    try:
        computer.move(game_id, seq)
    except Exception:
        last = task is None or task.retries == 0
        COMPUTE.put(key, _note("failed" if last else "queued", attempt))
        if last:
            log.error("the bot's move in game %s at %s failed on every try", game_id, seq)
        raise
    COMPUTE.delete(key)


@COMPUTE.signal(SIGNAL_INTERRUPTED)
def _asked_again_when_interrupted(signal, task) -> None:
    """A consumer stopped at once in the middle of a move (SIGINT): queued again as it was."""
    if task.name == "computer_move":
        game_id, seq = task.args[:2]
        note = COMPUTE.get(_move_key(game_id, seq)) or {}  # taken off
        request_computer_move(game_id, seq, task.priority == Priority.LIVE, note.get("attempt", 1))


def computer_moves_stalled(now: datetime) -> int:
    """Ask again for the bot moves that stalled (the minute sweep); how many were asked for.

    - a move a worker took and did not finish within ``COMPUTER_STALLED_SECONDS`` (it died,
      its machine stopped), or that failed on every try, is asked for once more, and never a
      third time (it is logged as an error, and the game waits for an admin);
    - a move whose request is gone (a queue emptied, a task of an earlier release), or still
      "queued" after ten times that long (lost between its note and the queue), is asked for
      anew: a double is harmless, the game's seq refuses it;
    - a move queued for less long waits its turn."""
    stalled = settings.COMPUTER_STALLED_SECONDS
    since = (now - timedelta(seconds=stalled)).timestamp()
    lost = (now - timedelta(seconds=10 * stalled)).timestamp()
    bots = Computer.USERNAME_PREFIX
    waiting = (
        Game.objects.running()
        .filter(updated_at__lte=now - timedelta(seconds=stalled))
        .filter(
            Q(to_decide=0, seat0__username__startswith=bots)
            | Q(to_decide=1, seat1__username__startswith=bots)
        )
        .select_related("seat0", "seat1")
    )
    asked = 0
    for game in waiting:
        try:
            asked += _ask_again_if_stalled(game, since, lost)
        except Exception:  # one broken game must not keep the others waiting
            log.exception("sweep: could not look at the bot's move in game %s", game.pk)
    return asked


def _ask_again_if_stalled(game: Game, since: float, lost: float) -> bool:
    if computer.deciding_bot(game) is None:
        return False
    key = _move_key(game.pk, game.seq)
    note = COMPUTE.get(key, peek=True)
    live = game.clock_control.live
    if note is None or (note["state"] == "queued" and note["at"] <= lost):
        log.warning("the bot's move in game %s at %s was lost: asked again", game.pk, game.seq)
        COMPUTE.delete(key)
        return request_computer_move(game.pk, game.seq, live, (note or {}).get("attempt", 1))
    stopped = note["state"] == "failed" or (note["state"] == "thinking" and note["at"] <= since)
    if not stopped:
        return False
    if note["attempt"] >= 2:
        log.error(
            "the bot's move in game %s at %s stopped twice: not asked again", game.pk, game.seq
        )
        COMPUTE.put(key, _note("given up", note["attempt"]))
        return False
    log.warning("the bot's move in game %s at %s stalled: asked again", game.pk, game.seq)
    COMPUTE.delete(key)
    return request_computer_move(game.pk, game.seq, live, attempt=note["attempt"] + 1)


@compute_task(expires=60, priority=Priority.LIVE)
def computer_hint(game_id: int, seat: int, seq: int) -> dict:
    """A hint for a player, thought out here and never in a web process; its answer is read by
    the page from the compute queue's result store (``views.hint_answer``)."""
    return computer.hint_at(game_id, seat, seq)


@compute_task(retries=2, retry_delay=10, priority=Priority.ANALYSIS, context=True)
def analyse_game(analysis_id: int, task=None) -> None:
    """A finished game's analysis (``games.play.analysis``), behind every bot move and hint. An
    error is retried twice, 10 and 10 s later; after the last the analysis shows as failed and
    the replay page offers to ask again."""
    try:
        analysis.run(analysis_id)
    except Exception:
        analysis.failed(analysis_id, last=task is None or task.retries == 0)
        raise


def request_analysis(analysis_id: int) -> bool:
    """Queue the analysis ``analysis_id``; whether it was. One the queue could not take shows
    as failed at once (the page offers to ask again) rather than queued for ever."""
    try:
        analyse_game(analysis_id)
    except Exception:
        log.exception("the analysis %s could not be queued", analysis_id)
        analysis.failed(analysis_id, last=True)
        return False
    return True


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
    if first_to_claim("digest", timedelta(hours=1)):
        notify.daily_digests()


@db_periodic_task(crontab(minute="*/15"))
def send_held_emails() -> None:
    """The emails held through quiet hours, at their end: an hour in the player's zone, which
    may begin at a quarter past an hour of UTC."""
    if first_to_claim("held-emails", timedelta(minutes=15)):
        notify.send_held()


@db_periodic_task(crontab(minute="40", hour="3"))
def upkeep() -> None:
    """Daily, at a quiet hour: the expired sessions and the old records of logins cleared."""
    if first_to_claim("upkeep", timedelta(days=1)):
        log.info(
            "upkeep: %(sessions)s sessions and %(login records)s login records cleared",
            upkeep_work.clear_expired(),
        )


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
        request_computer_move(game.pk, game.seq, game.clock_control.live)


@db_task()
def advance_tournament(tournament_id: int) -> None:
    tournaments.advance(tournament_id)


def schedule_tournament(game: Game, **_facts) -> None:
    """A tournament game that ended may finish its round: the tournament advances in the task
    runner, not in the request of the last move."""
    tournament_id = tournaments.tournament_of(game)
    if tournament_id is not None:
        advance_tournament(tournament_id)


def schedule_delivery(notification, **_facts) -> None:
    deliver(notification.pk, retry_delay=settings.NOTIFY_RETRY_DELAY_SECONDS)

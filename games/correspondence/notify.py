"""Telling players what waits for them: "your turn", "time almost up", "game over", "rematch
offered" and a daily digest, by email through Django's email framework.

The rules are decided here, in the task runner, after the move's transaction has committed, so
a slow or broken mail server never slows or breaks a move. Every notification is recorded
(``Notification``), at most one per key (one "your turn" per decision, one "game over" per
game...), and each delivery is retried a few times before it is recorded as failed.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import clock, events, kinds
from games.correspondence import push
from games.models import Ending, Game, GameVisit, Notification, PlayerSettings
from games.play import computer, referee, services, timing

log = logging.getLogger(__name__)
Kind = Notification.Kind
UNSUBSCRIBE_SALT = "games.notify.unsubscribe"  # as first issued: links in old emails still work

SUBJECTS = {
    Kind.YOUR_TURN: "Your turn against {opponent} (game {game})",
    Kind.TIME_RUNNING_OUT: "Time almost up against {opponent}: {left} left (game {game})",
    Kind.GAME_OVER: "Game over against {opponent} (game {game})",
    Kind.REMATCH_OFFERED: "{opponent} offers you a rematch (game {game})",
    Kind.DAILY_DIGEST: "{count} game{plural} waiting for you",
}


# -- what happened: decide what may be due, later, in the task runner --------------------------


def due_after(game: Game, by: int | None) -> list[tuple[str, int]]:
    """The notifications a committed change may call for, as (kind, seat): each is checked
    after a short delay (``check``), when the player may have seen the change already."""
    if game.status == Game.Status.ACTIVE:
        if game.to_decide is not None and game.to_decide != by:
            return _for_people(game, [(Kind.YOUR_TURN, game.to_decide)])
        return []
    if game.over:
        return _for_people(game, [(Kind.GAME_OVER, 0), (Kind.GAME_OVER, 1)])
    return []


def due_after_rematch_offer(game: Game) -> list[tuple[str, int]]:
    if game.rematch_offered_by is None:
        return []
    return _for_people(game, [(Kind.REMATCH_OFFERED, 1 - game.rematch_offered_by)])


def _for_people(game: Game, due: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return [(kind, seat) for kind, seat in due if not computer.level_of(game.player(seat))]


def check(kind: str, game_id: int, seat: int, seq: int) -> Notification | None:
    """Send ``kind`` to the player in ``seat`` if it is still due."""
    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    if game is None or not still_due(kind, game, seat, seq):
        return None
    user = game.player(seat)
    if watching(user, game):
        return None
    push.offer(user, kind, game, seq)
    return queue(user, kind, game, key=f"{kind}:{game.pk}:{seq}")


def still_due(kind: str, game: Game, seat: int, seq: int) -> bool:
    if kind == Kind.YOUR_TURN:
        return game.status == Game.Status.ACTIVE and game.seq == seq and game.to_decide == seat
    if kind == Kind.GAME_OVER:
        # Who resigned or aborted by hand knows it already.
        by_hand = game.termination in Ending.BY_HAND and game.ended_by == seat
        return game.over and not by_hand
    if kind == Kind.REMATCH_OFFERED:
        return game.rematch_offered_by == 1 - seat and not hasattr(game, "rematch")
    return False


def watching(user, game: Game) -> bool:
    """Whether the player has had the game open in the last few minutes."""
    since = timezone.now() - timedelta(seconds=settings.NOTIFY_WATCHING_SECONDS)
    return GameVisit.objects.filter(user=user, game=game, seen_at__gte=since).exists()


def seen(user, game_id: int) -> None:
    """The player has the game open now (a page, a partial, or a push to their socket)."""
    if not user.is_authenticated:
        return
    GameVisit.objects.update_or_create(
        user=user, game_id=game_id, defaults={"seen_at": timezone.now()}
    )


# -- periodic: time almost up, and the daily digest ---------------------------------------------


def warn_running_out(now=None) -> int:
    """ "Time almost up" for every correspondence decision past its warning point; once each."""
    now = now or timezone.now()
    longest = timedelta(days=max(clock.CORRESPONDENCE_DAYS)) * (1 - clock.WARN_AT)
    sent = 0
    soon = (
        Game.objects.running()
        .filter(deadline__lte=now + longest)
        .exclude(time_control__in=[clock.NO_CLOCK])
    )
    for game in soon.select_related("seat0", "seat1"):
        control = game.clock_control
        reading = timing.read(game, now)
        if reading.flagged is None and clock.warning_due(control, reading):
            user = game.player(reading.running)
            push.offer(user, Kind.TIME_RUNNING_OUT, game, game.seq, reading=reading)
            key = f"{Kind.TIME_RUNNING_OUT}:{game.pk}:{game.seq}"
            sent += queue(user, Kind.TIME_RUNNING_OUT, game, key, reading=reading) is not None
    return sent


def daily_digests(now=None) -> int:
    now = now or timezone.now()
    sent = 0
    wanting = PlayerSettings.objects.filter(email_daily_digest=True).select_related("user")
    for row in wanting:
        games = list(Game.objects.deciding(row.user).select_related("seat0", "seat1"))
        if games:
            key = f"{Kind.DAILY_DIGEST}:{now:%Y-%m-%d}"
            sent += queue(row.user, Kind.DAILY_DIGEST, None, key, games=games) is not None
    return sent


# -- recording and sending ----------------------------------------------------------------------


def queue(user, kind: str, game: Game | None, key: str, **extra) -> Notification | None:
    """Record the notification (once per key); on commit it is handed to the task runner to
    deliver (``games.events.notification_queued``)."""
    prefs = PlayerSettings.objects.filter(user=user).first()
    if not user.email or (prefs is not None and not prefs.wants(kind)):
        return None
    subject, body = compose(user, kind, game, **extra)
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user=user,
                game=game,
                kind=kind,
                key=key,
                address=user.email,
                subject=subject,
                body=body,
            )
    except IntegrityError:
        return None  # already sent for this decision
    events.send_on_commit(events.notification_queued, notification=note)
    return note


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(user, kind: str) -> str:
    return signing.dumps([user.pk, kind], salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The (user id, kind) a token names; ``signing.BadSignature`` if forged."""
    user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if kind not in Kind.values:
        raise signing.BadSignature("no such kind of notification")
    return int(user_id), kind


def unsubscribe_url(user, kind: str) -> str:
    return absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kind)]))


def compose(user, kind: str, game: Game | None, **extra) -> tuple[str, str]:
    """The subject and plain-text body of a notification."""
    context = {"user": user, "kind": Kind(kind).label, "site": settings.SITE_URL, **extra}
    facts = {"count": 0, "plural": "s", "game": "", "opponent": "", "left": ""}
    if game is not None:
        seat = game.seat_of(user)
        opponent = game.player(1 - seat) if seat is not None else None
        reading = extra.get("reading") or timing.read(game)
        left = reading.remaining[seat] if seat is not None else None
        facts.update(
            game=game.pk,
            opponent=opponent.username if opponent else "your opponent",
            left=game.clock_control.show(left),
        )
        # The subject names the game by number; the body's templates get the game itself.
        context.update(facts)
        context.update(
            game=game, url=absolute(game.get_absolute_url()), result=game.result_for(user)
        )
        if kind == Kind.GAME_OVER:
            context.update(verdict=VERDICTS.get(context["result"], ""), how=how_it_ended(game))
    if "games" in extra:
        facts.update(count=len(extra["games"]), plural="" if len(extra["games"]) == 1 else "s")
        context["rows"] = [_digest_row(g, user) for g in extra["games"]]
        context["mine"] = absolute(reverse("games:mine"))
    context["unsubscribe"] = unsubscribe_url(user, kind)
    context["settings_url"] = absolute(reverse("settings"))
    subject = SUBJECTS[kind].format(**facts)
    return subject, render_to_string(f"emails/{kind}.txt", context)


VERDICTS = {"won": _("you won"), "lost": _("you lost"), "shared": _("a shared victory")}


def how_it_ended(game: Game) -> str:
    """A game over in words, as its page says it: how it ended off the board (time,
    resignation, abort, a referee), or its final score in the game's own words."""
    if game.termination == referee.TERMINATION:
        return referee.referee_line(game)
    if game.termination in services.ENDINGS:
        return services.ending_words(game)
    if game.status == Game.Status.FINISHED and len(game.scores) == 2:
        return kinds.of(game).final_score(game.scores, game.names)
    return ""


def _digest_row(game: Game, user) -> dict:
    seat = game.seat_of(user)
    opponent = game.player(1 - seat)
    reading = timing.read(game)
    left = reading.remaining[seat]
    return {
        "game": game,
        "opponent": opponent.username if opponent else "?",
        "left": game.clock_control.show(left),
        "url": absolute(game.get_absolute_url()),
    }


def deliver(notification_id: int, final: bool) -> None:
    """Send a recorded notification; on failure record why, and raise unless ``final`` so that
    the task runner tries again."""
    note = Notification.objects.select_related("user").get(pk=notification_id)
    if note.outcome == Notification.Outcome.SENT:
        return
    unsubscribe = unsubscribe_url(note.user, note.kind)
    message = EmailMessage(
        subject=note.subject,
        body=note.body,
        to=[note.address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    note.attempts += 1
    try:
        message.send()
    except Exception as error:
        note.error = f"{type(error).__name__}: {error}"[:2000]
        if final:
            note.outcome = Notification.Outcome.FAILED
            log.warning("notification %s failed for good: %s", note.pk, note.error)
        note.save(update_fields=["attempts", "error", "outcome"])
        if not final:
            raise
        return
    note.outcome = Notification.Outcome.SENT
    note.sent_at = timezone.now()
    note.save(update_fields=["attempts", "outcome", "sent_at"])

"""Telling players what waits for them: "your turn", "time almost up", "game over", "rematch
offered" and a daily digest, by email through Django's email framework.

The rules are decided here, in the task runner, after the move's transaction has committed, so
a slow or broken mail server never slows or breaks a move. Every notification is recorded
(``Notification``), at most one per key (one "your turn" per decision, one "game over" per
game...), and each delivery is retried a few times before it is recorded as failed.

Each email is written in its recipient's language and time zone (``writing_to``), whoever's
request or task wrote it. One that falls in the recipient's quiet hours is recorded but held,
and handed over when they end (``send_held``); only "time almost up", a warning the player
asked for to save a game, goes at any hour.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy, pgettext_lazy

from games import clock, events, kinds
from games.correspondence import push
from games.models import (
    ConditionalLine,
    Ending,
    Game,
    GameVisit,
    Notification,
    PlayerSettings,
    player_name,
)
from games.play import computer, referee, services, states, takebacks, timing

log = logging.getLogger(__name__)
Kind = Notification.Kind
UNSUBSCRIBE_SALT = "games.notify.unsubscribe"  # as first issued: links in old emails still work
DIGEST_HOUR = 7  # o'clock, in each recipient's own zone
NEVER_HELD = {Kind.TIME_RUNNING_OUT}  # the last warning before a timeout comes at any hour
# A delivery never tried after this long was lost (a task runner's queue wiped): handed over
# again. Quiet hours last less than a day, and older emails say what is no longer true.
LOST_AFTER = timedelta(hours=1)
HELD_AT_MOST = timedelta(days=1)

SUBJECTS = {
    Kind.YOUR_TURN: gettext_lazy("Your turn against %(opponent)s (game %(game)s)"),
    Kind.TIME_RUNNING_OUT: gettext_lazy(
        "Time almost up against %(opponent)s: %(left)s left (game %(game)s)"
    ),
    Kind.GAME_OVER: gettext_lazy("Game over against %(opponent)s (game %(game)s)"),
    Kind.REMATCH_OFFERED: gettext_lazy("%(opponent)s offers you a rematch (game %(game)s)"),
    Kind.CONDITIONAL_PLAYED: gettext_lazy(
        "Your prepared reply was played against %(opponent)s (game %(game)s)"
    ),
    Kind.INVITED: gettext_lazy("%(opponent)s invites you to a game (game %(game)s)"),
    Kind.FOLLOWED_SEEK: gettext_lazy("%(opponent)s is looking for an opponent (game %(game)s)"),
    Kind.TOURNAMENT_GAME: gettext_lazy(
        "%(tournament)s: your game against %(opponent)s starts (game %(game)s)"
    ),
    Kind.TOURNAMENT_OVER: gettext_lazy("%(tournament)s is over"),
    Kind.TAKEBACK_ASKED: gettext_lazy(
        "%(opponent)s asks to take back their last action (game %(game)s)"
    ),
}
# A deadline in an email, in Django's date format, the recipient's zone named (T). Each
# language says its months its own way in "6 March": Polish in the genitive (E), French in
# lower case (F).
DEADLINE_FORMAT = pgettext_lazy("the date format of a deadline in an email", "j E Y, H:i T")


# -- what happened: decide what may be due, later, in the task runner --------------------------


def due_after(game: Game, by: int | None) -> list[tuple[str, int]]:
    """The notifications a committed change may call for, as (kind, seat): each is checked
    after a short delay (``check``), when the player may have seen the change already."""
    if game.status == Game.Status.ACTIVE:
        due = []
        if game.to_decide is not None and game.to_decide != by:
            due.append((Kind.YOUR_TURN, game.to_decide))
        if by is not None and takebacks.asked(game) == by:  # the change was the request
            due.append((Kind.TAKEBACK_ASKED, 1 - by))
        return _for_people(game, due)
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


def reply_played(game_id: int, seat: int, seq: int) -> Notification | None:
    """Tell the player in ``seat`` that the server played their prepared reply as action
    ``seq`` (``games.play.conditional``): what the opponent played, and what was replied."""
    game = Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()
    if game is None or game.seq < seq:
        return None
    user = game.player(seat)
    if user is None or watching(user, game):
        return None  # they saw it played
    push.offer(user, Kind.CONDITIONAL_PLAYED, game, seq)
    key = f"{Kind.CONDITIONAL_PLAYED}:{game.pk}:{seq}"
    return queue(user, Kind.CONDITIONAL_PLAYED, game, key, seq=seq)


def reply_words(game: Game, seat: int, seq: int) -> tuple[str, str]:
    """What the opponent played before action ``seq``, and the reply ``seq`` itself, in the
    words of the game's log as the player in ``seat`` sees it (the active language)."""
    state = states.state_at(game, seq)
    seen = game.engine.view(state, seat)
    kind, names = kinds.of(game), [player_name(u) for u in (game.seat0, game.seat1)]
    entries = [e for e in seen["log"] if e.get("seq")]
    replied = [e for e in entries if e["seq"] == seq]
    theirs = []
    for entry in reversed([e for e in entries if e["seq"] < seq]):
        if entry.get("player") == seat:
            break
        theirs.append(entry)
    theirs.reverse()

    def said(run: list[dict]) -> str:
        return "; ".join(kind.describe_entry(e, seen, names) for e in run)

    return said(theirs), said(replied)


def still_due(kind: str, game: Game, seat: int, seq: int) -> bool:
    if kind == Kind.YOUR_TURN:
        return game.status == Game.Status.ACTIVE and game.seq == seq and game.to_decide == seat
    if kind == Kind.GAME_OVER:
        # Who resigned or aborted by hand knows it already.
        by_hand = game.termination in Ending.BY_HAND and game.ended_by == seat
        return game.over and not by_hand
    if kind == Kind.REMATCH_OFFERED:
        return game.rematch_offered_by == 1 - seat and not hasattr(game, "rematch")
    if kind == Kind.TAKEBACK_ASKED:
        return game.seq == seq and takebacks.asked(game) == 1 - seat
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
    """The digest of the games waiting for each player who asked for one, at ``DIGEST_HOUR``
    in their own zone: the task runs hourly, and every zone's seventh hour holds one of its
    runs. Once a day: the key is the player's own date, and a second run in that hour (or a
    change of zone) finds it taken."""
    now = now or timezone.now()
    sent = 0
    wanting = PlayerSettings.objects.filter(email_daily_digest=True).select_related("user")
    for row in wanting:
        local = now.astimezone(row.zone())
        if local.hour != DIGEST_HOUR:
            continue
        games = list(Game.objects.deciding(row.user).select_related("seat0", "seat1"))
        if games:
            key = f"{Kind.DAILY_DIGEST}:{local:%Y-%m-%d}"
            sent += queue(row.user, Kind.DAILY_DIGEST, None, key, games=games) is not None
    return sent


def send_held(now=None) -> int:
    """Hand over each email held through its recipient's quiet hours, once these have ended,
    as it was written (its deadlines are named, not counted down). A delivery never tried for
    ``LOST_AFTER`` was lost on its way to the task runner, and is handed over again too."""
    now = now or timezone.now()
    waiting = list(
        Notification.objects.filter(
            channel="email",  # a push held through quiet hours is the push task's (push.send)
            outcome=Notification.Outcome.PENDING,
            attempts=0,
            created_at__gte=now - HELD_AT_MOST,
        ).order_by("created_at")
    )
    prefs = {
        row.user_id: row
        for row in PlayerSettings.objects.filter(user_id__in={n.user_id for n in waiting})
    }
    sent = 0
    for note in waiting:
        row = prefs.get(note.user_id) or PlayerSettings()
        held = note.kind not in NEVER_HELD and row.quiet_at(note.created_at)
        lost = note.created_at <= now - LOST_AFTER
        if (held or lost) and (note.kind in NEVER_HELD or not row.quiet_at(now)):
            events.send_on_commit(events.notification_queued, notification=note)
            sent += 1
    return sent


# -- recording and sending ----------------------------------------------------------------------


def queue(user, kind: str, game: Game | None, key: str, **extra) -> Notification | None:
    """Record the notification (once per key), written in the player's language and zone; on
    commit it is handed to the task runner to deliver (``games.events.notification_queued``),
    unless it falls in their quiet hours: then ``send_held`` hands it over when they end."""
    prefs = PlayerSettings.of(user)
    emailed = bool(user.email) and prefs.wants(kind)
    pushed = (
        kind in push.NEWS
        and (kind not in push.ASKED_FOR or prefs.wants(kind))
        and push.has_browsers(user)
    )
    if not (emailed or pushed):
        return None
    with writing_to(prefs):
        subject, body = compose(user, kind, game, **extra)
    if pushed:  # news for the player reaches their browsers, emailed or not (push.NEWS)
        push.news(user, kind, game, key, subject, _answered_at(kind, game, extra))
    if not emailed:
        return None
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
    if kind in NEVER_HELD or not prefs.quiet_at(note.created_at):
        events.send_on_commit(events.notification_queued, notification=note)
    return note


def _answered_at(kind: str, game: Game | None, extra: dict) -> str:
    """The address that answers a piece of news: an invitation's own link (a private game
    opens by it alone), a tournament's page, else the game's."""
    if kind == Kind.INVITED:
        return absolute(reverse("games:invitation", args=[game.invite_token]))
    if game is None:
        return extra.get("page", "") or absolute("/")
    return absolute(game.get_absolute_url())


@contextmanager
def writing_to(prefs: PlayerSettings) -> Iterator[None]:
    """The recipient's language and time zone, activated once for the whole of one email."""
    with translation.override(prefs.speaks()), timezone.override(prefs.zone()):
        yield


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def unsubscribe_token(user, kind: str) -> str:
    """The same token whenever it is made, so that an email's body and its List-Unsubscribe
    header name one link (a token never expires: an old email's link still works)."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object([user.pk, kind], compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """The (user id, kind) a token names; ``signing.BadSignature`` if forged."""
    if token.count(signing.Signer().sep) == 2:
        # Emails sent before tokens lost their timestamp carry a timestamped one.
        user_id, kind = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    else:
        user_id, kind = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    if kind not in Kind.values:
        raise signing.BadSignature("no such kind of notification")
    return int(user_id), kind


def unsubscribe_url(user, kind: str) -> str:
    return absolute(reverse("unsubscribe", args=[unsubscribe_token(user, kind)]))


def compose(user, kind: str, game: Game | None, **extra) -> tuple[str, str]:
    """The subject and plain-text body of a notification, in the active language and zone
    (``queue`` makes them the recipient's)."""
    context = {"user": user, "kind": Kind(kind).label, "site": settings.SITE_URL, **extra}
    facts = {"game": "", "opponent": "", "left": "", "tournament": str(extra.get("tournament", ""))}
    if game is not None:
        seat = game.seat_of(user)
        # Not yet seated (an invitation, a followed player's seek): the one who opened it.
        opponent = game.player(1 - seat) if seat is not None else game.seat0
        reading = extra.get("reading") or timing.read(game)
        left = reading.remaining[seat] if seat is not None else None
        facts.update(
            game=game.pk,
            opponent=player_name(opponent, missing=_("your opponent")),
            left=time_left(game.clock_control, left),
        )
        # The subject names the game by number; the body's templates get the game itself.
        context.update(facts)
        context.update(
            game=game,
            url=absolute(game.get_absolute_url()),
            result=game.result_for(user),
            deadline=deadline_of(reading, seat),
        )
        if kind == Kind.GAME_OVER:
            context.update(verdict=VERDICTS.get(context["result"], ""), how=how_it_ended(game))
        if kind == Kind.INVITED:  # a private game opens by its invitation's link only
            context["url"] = absolute(reverse("games:invitation", args=[game.invite_token]))
        if kind == Kind.CONDITIONAL_PLAYED:
            answered, played = reply_words(game, seat, extra["seq"])
            context.update(answered=answered, played=played, lines=_lines_left(game, user))
    if "games" in extra:
        count = len(extra["games"])
        context["rows"] = [_digest_row(g, user) for g in extra["games"]]
        context["count"] = count
        context["mine"] = absolute(reverse("games:mine"))
        subject = ngettext(
            "%(count)s game waiting for you", "%(count)s games waiting for you", count
        ) % {"count": count}
    else:
        subject = SUBJECTS[kind] % facts
    context["unsubscribe"] = unsubscribe_url(user, kind)
    context["settings_url"] = absolute(reverse("settings"))
    return subject, render_to_string(f"emails/{kind}.txt", context)


def _lines_left(game: Game, user) -> int:
    return ConditionalLine.objects.filter(game=game, user=user).count()


VERDICTS = {
    "won": gettext_lazy("you won"),
    "lost": gettext_lazy("you lost"),
    "shared": gettext_lazy("a shared victory"),
}


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
    return {
        "game": game,
        "opponent": player_name(opponent),
        "left": time_left(game.clock_control, reading.remaining[seat]),
        "deadline": deadline_of(reading, seat),
        "url": absolute(game.get_absolute_url()),
    }


def deadline_of(reading: clock.Reading, seat: int | None) -> str:
    """When ``seat``'s running clock reaches zero, in the active zone, which is named: an
    email may be read hours later, or held through quiet hours, and still be right."""
    if seat is None or reading.running != seat or reading.paused or reading.deadline is None:
        return ""
    return formats.date_format(timezone.localtime(reading.deadline), str(DEADLINE_FORMAT))


DAYS = ngettext_lazy("%(count)s day", "%(count)s days", "count")
HOURS = ngettext_lazy("%(count)s hour", "%(count)s hours", "count")
MINUTES = ngettext_lazy("%(count)s minute", "%(count)s minutes", "count")
SECONDS = ngettext_lazy("%(count)s second", "%(count)s seconds", "count")


def time_left(control: clock.TimeControl, left: timedelta | None) -> str:
    """Time left in the active language, as ``clock.words`` says it in English: "2 days 4
    hours", "3 hours 12 minutes", "40 seconds"; a live clock to the second."""
    if left is None:
        return ""
    if control.live:
        return clock.digits(left)
    seconds = max(int(left.total_seconds()), 0)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return _and(DAYS % {"count": days}, hours and HOURS % {"count": hours})
    if hours:
        return _and(HOURS % {"count": hours}, minutes and MINUTES % {"count": minutes})
    if minutes:
        return MINUTES % {"count": minutes}
    return SECONDS % {"count": seconds}


def _and(larger: str, smaller: str) -> str:
    return f"{larger} {smaller}" if smaller else larger


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

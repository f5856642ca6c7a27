"""Telling a player's browsers (Web Push): "your turn", "time almost up" and "game over", each
with the game's link and what the opponent did last, in the player's language; and the news
addressed to the player (an invitation, a rematch offered, a tournament game that starts, a
tournament's end), and a followed player's seek to those who asked for it, with the link that
answers it.

``notify`` decides, in the task runner, that a player should be told; ``offer`` records the push
(a ``Notification`` on the "push" channel, once per key) and hands it to the task runner
(``send``), at once or when the player's quiet hours end. ``deliver`` encrypts it to each of the
player's browsers and posts it to their push services, signed with the site's VAPID key; a
browser whose push service answers 404 or 410 has unsubscribed, and is forgotten."""

from __future__ import annotations

import base64
import json
import logging
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from huey.contrib.djhuey import db_task

from games import kinds
from games.models import (
    Follow,
    Game,
    Notification,
    PlayerSettings,
    PushDevice,
    player_name,
)
from games.play import states, timing

if TYPE_CHECKING:
    from py_vapid import Vapid

log = logging.getLogger(__name__)
Kind = Notification.Kind
CHANNEL = "push"
PUSHED = (
    Kind.YOUR_TURN,
    Kind.TIME_RUNNING_OUT,
    Kind.GAME_OVER,
    Kind.CONDITIONAL_PLAYED,
    Kind.TAKEBACK_ASKED,
)
# News, pushed by ``notify.queue``: what is addressed to the player whatever their email
# settings (a browser with notifications on is told of everything meant for its player), and a
# followed player's seek, addressed to no one, to those who asked for its news (``ASKED_FOR``).
NEWS = (
    Kind.INVITED,
    Kind.REMATCH_OFFERED,
    Kind.TOURNAMENT_GAME,
    Kind.TOURNAMENT_OVER,
    Kind.FOLLOWED_SEEK,
)
# News the player asked for (the setting that emails it), not addressed to them: pushed only then.
ASKED_FOR = (Kind.FOLLOWED_SEEK,)
GONE = (404, 410)  # the push service's word for a subscription that is no more
TTL = 24 * 3600  # how long a push service keeps a push for a browser that is offline
LONGEST_MOVE = 300  # characters of the opponent's move: a push is a glance, the page has it all


# -- the site's VAPID key pair ------------------------------------------------------------------


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_key_pair() -> tuple[str, str]:
    """A new VAPID key pair, (public, private), base64url as browsers and the settings take it."""
    key = ec.generate_private_key(ec.SECP256R1())
    return _public_of(key), _b64(key.private_numbers().private_value.to_bytes(32, "big"))


def _public_of(key: ec.EllipticCurvePrivateKey) -> str:
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return _b64(point)


def key_pair() -> tuple[str, str] | None:
    """The site's (public, private) key pair: the settings', else in development one made once
    and kept in ``VAPID_DEV_FILE``; None in production without keys (no push is sent)."""
    if settings.VAPID_PRIVATE_KEY:
        return settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    if not settings.DEBUG:
        return None
    return _development_pair(str(settings.VAPID_DEV_FILE))


@cache
def _development_pair(path: str) -> tuple[str, str]:
    try:
        with open(path) as kept:
            pair = json.load(kept)
        return pair["public"], pair["private"]
    except FileNotFoundError:
        pass
    public, private = new_key_pair()
    try:
        # Exclusive: two processes starting at once keep the first one's pair.
        with open(path, "x") as kept:
            json.dump({"public": public, "private": private}, kept)
    except FileExistsError:
        _development_pair.cache_clear()
        return _development_pair(path)
    return public, private


def public_key() -> str:
    """The key a browser subscribes with (``applicationServerKey``); empty without push."""
    pair = key_pair()
    return pair[0] if pair else ""


@cache
def _signer(public: str, private: str) -> Vapid:
    from py_vapid import Vapid  # here: pywebpush and its HTTP clients load in the worker alone

    signer = Vapid.from_string(private_key=private)
    if _public_of(signer.private_key) != public:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY is not the public half of VAPID_PRIVATE_KEY")
    return signer


# -- quiet hours ---------------------------------------------------------------------------------


def quiet_until(prefs: PlayerSettings, now: datetime) -> datetime | None:
    """When the player's quiet hours (``PlayerSettings.quiet_at``) end, if ``now`` is within
    them; else None."""
    if not prefs.quiet_at(now):
        return None
    # Wall-clock arithmetic in the zone, so that the end stays at its hour across a DST change.
    local = now.astimezone(prefs.zone())
    ends = local.replace(hour=prefs.quiet_until, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends.astimezone(UTC)


# -- offering a push: recorded once, sent by the task runner -------------------------------------


def offer(user, kind: str, game: Game, seq: int, reading=None) -> Notification | None:
    """Push ``kind`` about ``game`` (at its ``seq``) to every browser of ``user``: now, or when
    their quiet hours end. Once per key; nothing for a player without a browser subscribed.
    Never raises: a push that cannot be made must not keep the email from going."""
    try:
        return _offer(user, kind, game, seq, reading)
    except Exception:
        log.exception("push: could not offer %s of game %s to %s", kind, game.pk, user)
        return None


def _offer(user, kind: str, game: Game, seq: int, reading) -> Notification | None:
    if kind not in PUSHED or key_pair() is None:
        return None
    devices = _devices(user)
    key = f"{CHANNEL}:{kind}:{game.pk}:{seq}"
    if not devices or Notification.objects.filter(user=user, key=key).exists():
        return None
    prefs = PlayerSettings.of(user)
    with translation.override(prefs.speaks()):
        title, body = compose(user, kind, game, reading)
    return _record(user, kind, game, key, devices, title, body, seq=seq, prefs=prefs)


def has_browsers(user) -> bool:
    """Whether a push to ``user`` would reach a browser (the site can push, and one is on)."""
    return key_pair() is not None and PushDevice.objects.filter(user=user).exists()


def news(user, kind: str, game: Game | None, key: str, title: str, link: str) -> None:
    """Push a piece of news addressed to ``user`` (``NEWS``): ``title`` already in their
    language, ``link`` the absolute address that answers it. Once per ``key``, held through
    their quiet hours; dropped when sent if it no longer holds (``still_due``). Never raises:
    the email must still go."""
    try:
        devices = _devices(user) if kind in NEWS and key_pair() is not None else []
        if devices:
            _record(user, kind, game, f"{CHANNEL}:{key}", devices, title, "", link=link)
    except Exception:
        log.exception("push: could not offer %s to %s", kind, user)


def _devices(user) -> list[str]:
    return list(PushDevice.objects.filter(user=user).values_list("name", flat=True))


def _record(
    user, kind: str, game: Game | None, key: str, devices, title, body, seq=0, link="", prefs=None
) -> Notification | None:
    """Record a push (once per key) and hand it to the task runner on commit: at once, or when
    the player's quiet hours end (``prefs``: their settings, if already read)."""
    try:
        with transaction.atomic():
            note = Notification.objects.create(
                user=user,
                game=game,
                kind=kind,
                key=key[:80],
                channel=CHANNEL,
                address=", ".join(name or "?" for name in devices)[:254],
                subject=title[:200],
                body=body,
                link=link[:300],
            )
    except IntegrityError:
        return None  # offered already, by a task running at the same time
    # The last warning before a timeout comes at any hour, as its email does.
    last_warning = kind == Notification.Kind.TIME_RUNNING_OUT
    prefs = prefs or PlayerSettings.of(user)
    held = None if last_warning else quiet_until(prefs, timezone.now())
    transaction.on_commit(lambda: _send_later(note.pk, seq, held))
    return note


def _send_later(notification_id: int, seq: int, at: datetime | None) -> None:
    if at is None:
        send(notification_id, seq)
    else:
        send.schedule(args=(notification_id, seq), eta=at)


def compose(user, kind: str, game: Game, reading=None) -> tuple[str, str]:
    """The push's title and text, in the active language."""
    seat = game.seat_of(user)
    opponent = game.player(1 - seat)
    facts = {"opponent": player_name(opponent), "number": game.pk}
    reading = reading or timing.read(game)
    left = game.clock_control.show(reading.remaining[seat])
    lines = []
    if kind == Kind.YOUR_TURN:
        title = _("Your turn against %(opponent)s (game %(number)s)") % facts
        if left:
            lines.append(_("%(left)s left for this decision.") % {"left": left})
    elif kind == Kind.TIME_RUNNING_OUT:
        title = _("Time almost up against %(opponent)s (game %(number)s)") % facts
        lines.append(_("Only %(left)s left for this decision.") % {"left": left})
    elif kind == Kind.CONDITIONAL_PLAYED:
        title = _("Your prepared reply was played against %(opponent)s (game %(number)s)") % facts
    elif kind == Kind.TAKEBACK_ASKED:
        title = _("%(opponent)s asks to take back their last action (game %(number)s)") % facts
        lines.append(_("Accept or decline on the game's page."))
    else:
        title = _("Game over against %(opponent)s (game %(number)s)") % facts
        lines.append(_ending(game, user))
    move = last_move(game, seat)
    if len(move) > LONGEST_MOVE:
        move = move[: LONGEST_MOVE - 1].rstrip() + "…"
    return title, "\n".join(line for line in [move, *lines] if line)


def _ending(game: Game, user) -> str:
    from games.correspondence import notify  # notify calls this module: import when used

    verdict = {
        "won": _("You won."),
        "lost": _("You lost."),
        "shared": _("A shared victory."),
    }.get(game.result_for(user), "")
    return " ".join(part for part in (verdict, str(notify.how_it_ended(game))) if part)


def last_move(game: Game, seat: int) -> str:
    """What the others did since the player in ``seat`` last acted, in the words of the game's
    log as that player sees it; empty if the player acted last."""
    state = states.load_state(game)
    start = states.since_start(state, seat)
    if all(entry["player"] == seat for entry in state.history[start:]):
        return ""
    seen = game.engine.view(state, seat)
    names = [player_name(u) for u in (game.seat0, game.seat1)]
    kind = kinds.of(game)
    words = [
        str(kind.describe_entry(entry, seen, names))
        for entry in seen["log"]
        if entry.get("seq") and entry["seq"] > start and entry.get("kind", "place") != "pass"
    ]
    return "; ".join(words)


# -- sending -------------------------------------------------------------------------------------


@db_task(retries=2, retry_delay=60, context=True)
def send(notification_id: int, seq: int, task=None) -> None:
    deliver(notification_id, seq, final=task is None or task.retries == 0)


def still_due(note: Notification, seq: int) -> bool:
    """A push held through quiet hours may have lost its point: the player moved meanwhile, or
    the game ended; an invitation or a followed player's seek was taken or withdrawn, a rematch
    made or declined."""
    game = note.game
    if note.kind in (Kind.GAME_OVER, Kind.TOURNAMENT_OVER):
        return True
    if note.kind == Kind.INVITED:
        return game.status == Game.Status.OPEN  # not yet taken, nor withdrawn
    if note.kind == Kind.FOLLOWED_SEEK:
        # Still open, and still news the follower wants of a player they follow: a block, an
        # unfollow or the setting turned off during the night keeps it from them.
        return (
            game.status == Game.Status.OPEN
            and Follow.objects.followers_of(game.seat0).filter(follower=note.user).exists()
            and PlayerSettings.of(note.user).wants(note.kind)
        )
    if note.kind == Kind.TOURNAMENT_GAME:
        return game.status == Game.Status.ACTIVE
    if note.kind == Kind.REMATCH_OFFERED:
        seat = game.seat_of(note.user)
        offered = seat is not None and game.rematch_offered_by == 1 - seat
        return offered and not game.rematch_declined and not hasattr(game, "rematch")
    return game.status == Game.Status.ACTIVE and game.seq == seq


def deliver(notification_id: int, seq: int, final: bool = True) -> None:
    """Post the push to each of the player's browsers; record what became of it. If no browser
    took it and some may later, raise (unless ``final``) so that the task runner tries again."""
    note = Notification.objects.select_related("user", "game").get(pk=notification_id)
    if note.outcome == Notification.Outcome.SENT:
        return
    if not still_due(note, seq):
        note.outcome, note.error = Notification.Outcome.FAILED, "no longer due"
        note.save(update_fields=["outcome", "error"])
        return
    payload = json.dumps(
        {
            "title": note.subject,
            "body": note.body,
            "url": note.link or settings.SITE_URL.rstrip("/") + note.game.get_absolute_url(),
            "tag": f"game-{note.game_id}" if note.game_id else note.key,
        }
    )
    urgency = "high" if note.kind == Kind.TIME_RUNNING_OUT else "normal"
    delivered, failures = 0, []
    for device in PushDevice.objects.filter(user=note.user):
        failure = _post(device, payload, urgency)
        if failure is None:
            delivered += 1
        elif failure:
            failures.append(f"{device.name or device.pk}: {failure}")
    note.attempts += 1
    note.error = "\n".join(failures)[:2000]
    if delivered:
        note.outcome, note.sent_at = Notification.Outcome.SENT, timezone.now()
    elif final or not failures:
        note.outcome = Notification.Outcome.FAILED
        note.error = note.error or "no browser subscribed any more"
    note.save(update_fields=["attempts", "error", "outcome", "sent_at"])
    if not delivered and failures and not final:
        raise RuntimeError(f"push {note.pk} reached no browser: {note.error}")


def _post(device: PushDevice, payload: str, urgency: str) -> str | None:
    """Post to one browser: None if its push service took the push, "" if the subscription is
    gone (and the device forgotten), else what went wrong."""
    import requests
    from pywebpush import WebPushException, webpush

    public, private = key_pair()
    try:
        webpush(
            device.subscription,
            data=payload,
            vapid_private_key=_signer(public, private),
            # A new dict each time: pywebpush writes the push service's origin into it ("aud").
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL,
            timeout=10,
            headers={"Urgency": urgency},
        )
    except WebPushException as error:
        if error.status_code in GONE:
            log.info("push: %s is gone (%s), forgotten", device, error.status_code)
            device.delete()
            return ""
        return f"{error.status_code}: {error.message}"[:300]
    except requests.RequestException as error:
        return f"{type(error).__name__}: {error}"[:300]
    PushDevice.objects.filter(pk=device.pk).update(last_used_at=timezone.now())
    return None

"""Whether a player is on the site now, and when they were last: from their open sockets.

Every socket of a signed-in player stamps ``Presence.seen_at`` when it opens, every ``EVERY``
seconds while it lives, and when it closes. The stamp is in the database, which every web
process shares; "online" means stamped within ``ONLINE_WITHIN``, so a socket whose process died
without closing it stops counting a minute or two later. A player who hides their presence
shows neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone

from games.models import PlayerSettings, Presence

EVERY = 60  # seconds between two stamps of a living socket
ONLINE_WITHIN = timedelta(seconds=2 * EVERY + 30)  # a missed stamp or a slow one is forgiven


def touch(user, now: datetime | None = None) -> None:
    """One of ``user``'s sockets is open now (or has just closed)."""
    if user is None or not user.is_authenticated:
        return
    Presence.objects.update_or_create(user=user, defaults={"seen_at": now or timezone.now()})


@dataclass(frozen=True)
class Seen:
    """What another player may read of someone's presence: online now, or the last time."""

    online: bool = False
    last_seen: datetime | None = None

    @property
    def shown(self) -> bool:
        return self.online or self.last_seen is not None


HIDDEN = Seen()


def seen(person, now: datetime | None = None) -> Seen:
    """``person``'s presence as others read it: nothing if they hide it or were never seen."""
    return seen_many([person], now).get(person.pk, HIDDEN)


def seen_many(people, now: datetime | None = None) -> dict[int, Seen]:
    """The presence of each of ``people``, by id, in two queries."""
    now = now or timezone.now()
    ids = [person.pk for person in people]
    hiding = set(
        PlayerSettings.objects.filter(user_id__in=ids, hide_presence=True).values_list(
            "user_id", flat=True
        )
    )
    stamps = Presence.objects.filter(user_id__in=ids).exclude(user_id__in=hiding)
    return {
        row.user_id: Seen(online=now - row.seen_at <= ONLINE_WITHIN, last_seen=row.seen_at)
        for row in stamps
    }

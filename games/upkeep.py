"""What the site keeps for a while only: sessions past their expiry, and the records of logins
(the address and browser of each login, each failed one and whether it locked the name out:
django-axes' tables) after ``LOGIN_RECORDS_DAYS``. The task runner clears both once a day
(``games.tasks.upkeep``).

A player's own records of logins are theirs: they are in the data they download, and they go
with a closed account.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from importlib import import_module

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.utils import timezone

LOGIN_RECORDS = (AccessLog, AccessFailureLog, AccessAttempt)


def clear_expired(now: datetime | None = None) -> dict[str, int]:
    """Forget the sessions past their expiry and the records of logins older than
    ``LOGIN_RECORDS_DAYS``; how many of each went."""
    now = now or timezone.now()
    gone = {"sessions": _clear_sessions(now)}
    before = now - timedelta(days=settings.LOGIN_RECORDS_DAYS)
    gone["login records"] = sum(
        model.objects.filter(attempt_time__lt=before).delete()[0] for model in LOGIN_RECORDS
    )
    return gone


def _clear_sessions(now: datetime) -> int:
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not hasattr(store, "get_model_class"):
        # Not in the database: a cache forgets by itself, a file store clears its own (not
        # counted), signed cookies expire in the browser.
        store.clear_expired()
        return 0
    return store.get_model_class().objects.filter(expire_date__lt=now).delete()[0]


def logins_of(user) -> list[dict]:
    """The records of ``user``'s logins since their account began, newest first: when, from
    which address and browser. A failed one says only when, and whether it locked the name out:
    whoever typed the wrong password may not have been the player, and their address is not
    the player's to have."""
    since = {"username": user.username, "attempt_time__gte": user.date_joined}
    logins = [
        {"at": r.attempt_time, "address": r.ip_address, "browser": r.user_agent, "ok": True}
        for r in AccessLog.objects.filter(**since)
    ]
    failures = [
        {"at": r.attempt_time, "ok": False, "locked_out": r.locked_out}
        for r in AccessFailureLog.objects.filter(**since)
    ]
    return sorted([*logins, *failures], key=lambda record: record["at"], reverse=True)


def forget_logins(username: str) -> None:
    """A closed account's records of logins, which name it and its addresses."""
    for model in LOGIN_RECORDS:
        model.objects.filter(username=username).delete()

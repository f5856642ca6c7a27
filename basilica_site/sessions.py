"""Django's sessions in the database, each request's row read by a query compiled once.

Every request of a signed-in player reads their session's row first; compiling that query cost
several times running it (``games.compiled``). Everything else is Django's database sessions.
"""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.compiled import Compiled

_UNEXPIRED = Compiled(lambda key, now: Session.objects.filter(session_key=key, expire_date__gt=now))


class SessionStore(DatabaseSessionStore):
    def _get_session_from_db(self):
        if self.session_key is None or self.model is not Session:
            return super()._get_session_from_db()
        session = _UNEXPIRED.first(self.session_key, timezone.now())
        if session is None:
            self._session_key = None  # as Django's: a key without a live row starts afresh
        return session

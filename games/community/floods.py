"""Floods answered for next to nothing: who has been told to wait, in this process.

A player whose chat line was refused for going too fast, or whose line just used up their bucket
(``games.community.chat``), and a socket closed for talking (the page never sends anything up its
socket), are told to wait for a while. Until then the same session's chat posts by htmx and its
socket handshakes are answered before anything is read (no session, no user, no game, no write):
``games.web.middleware.ChatFloodGate`` (``chat_flood_gate`` over WSGI) and ``games.live.gate``.
What decides the refusal in the first place stays where it was (the chat's bucket in the cache,
which every process shares, and the consumer); this is only each process's memory of it, so a
flood costs the process that answers it a dictionary lookup.

A key names a session (its cookie's value): a visitor without one is never told to wait here,
since their address may be a whole school's. A script that makes up a new cookie for every
request is not stopped here but by the proxy's own limit (README, "Running in production":
nginx's ``limit_req``).
"""

from __future__ import annotations

import time
from threading import Lock

MOST_KEYS = 10_000  # past this, what has expired is forgotten; then the oldest


class Waiting:
    """Keys told to wait until a moment (by the clock the cache expires by), and what they were
    told."""

    def __init__(self) -> None:
        self._until: dict[str, tuple[float, str]] = {}
        self._lock = Lock()

    def tell(self, key: str | None, seconds: float, reason: str = "") -> None:
        if not key:
            return
        with self._lock:
            self._until[key] = (time.time() + seconds, reason)
            if len(self._until) > MOST_KEYS:
                self._forget_expired()

    def reason(self, key: str | None) -> str | None:
        """What ``key`` was told while it still waits ("" if nothing was said), else None.

        No lock: a dictionary read is atomic, and this runs on every handshake."""
        if not key:
            return None
        told = self._until.get(key)
        if told is None:
            return None
        if told[0] <= time.time():
            with self._lock:
                if self._until.get(key) is told:
                    del self._until[key]
            return None
        return told[1]

    def forget(self) -> None:
        with self._lock:
            self._until.clear()

    def _forget_expired(self) -> None:
        now = time.time()
        for key in [key for key, (until, _) in self._until.items() if until <= now]:
            del self._until[key]
        while len(self._until) > MOST_KEYS:  # all still waiting: the oldest told go first
            del self._until[next(iter(self._until))]


class Window:
    """At most ``most`` events per key in a fixed window of ``seconds`` (from its first)."""

    def __init__(self) -> None:
        self._counts: dict[str, tuple[float, int]] = {}
        self._lock = Lock()

    def allow(self, key: str | None, most: int, seconds: float) -> bool:
        if not key:
            return True
        now = time.time()
        with self._lock:
            started, count = self._counts.get(key, (now, 0))
            if now - started >= seconds:
                started, count = now, 0
            if count >= most:
                return False
            self._counts[key] = (started, count + 1)
            if len(self._counts) > MOST_KEYS:
                for old in [k for k, (at, _) in self._counts.items() if now - at >= seconds]:
                    del self._counts[old]
                while len(self._counts) > MOST_KEYS:
                    del self._counts[next(iter(self._counts))]
            return True

    def forget(self) -> None:
        with self._lock:
            self._counts.clear()


CHAT_POSTS = Waiting()  # sessions told to wait by the chat's bucket, until they may write again
SOCKETS = Waiting()  # sessions whose socket talked, and was closed for it
HANDSHAKES = Window()  # socket handshakes per session


def forget() -> None:
    """Everything this process remembers (for tests)."""
    CHAT_POSTS.forget()
    SOCKETS.forget()
    HANDSHAKES.forget()

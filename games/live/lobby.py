"""Lists that follow the site without asking on a timer: the lobby's open seeks and the games
being played now.

A committed change that alters a list sends its group a notice that says only which list
changed: no HTML, nothing of anyone. Each page then asks the view for its list once over HTTP, so
a viewer's own rendering (their rating range, their Cancel button, their CSRF token) stays the
view's. Notices of one list leave a process at most once every ``EVERY`` seconds: the first at
once, the rest of a burst in one notice at the end of it.

Each change also stamps the list's time in the cache (shared by the processes exactly when the
channel layer is): a socket opened after its page was drawn says at once whether the list changed
in between, which covers the page's first moments and a socket that came back after losing its
connection.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache

from games.live.announce import server_loop

log = logging.getLogger(__name__)

SEEKS, NOW = "seeks", "now"
# Seconds between two notices of a list: a seek is news at once; the games being played move
# many times a second on a busy site, and each notice costs every viewer a rendering of 30 boards.
EVERY = {SEEKS: 1.0, NOW: 5.0}
STAMP_SECONDS = 24 * 3600  # a page older than this asks once when its socket comes back


def group_name(which: str) -> str:
    return f"lobby-{which}"


def _stamp_key(which: str) -> str:
    return f"lobby:changed:{which}"


# -- the listeners (games.events) --------------------------------------------------------------


def on_seek_changed(game, **_facts) -> None:
    """A public seek opened, accepted or cancelled: the lobby's list of open seeks changed."""
    if not game.private:
        changed(SEEKS)


def on_game_changed(game, **_facts) -> None:
    """A public game started, moved or ended: the list of games being played now changed
    (it shows each game's moves and who is to play, the last moved first)."""
    if not game.private:
        changed(NOW)


# -- notices, at most one a list every EVERY seconds -------------------------------------------

_lock = threading.Lock()
_sent_at: dict[str, float] = {}  # list -> when its last notice left (time.monotonic)
_due_at: dict[str, float] = {}  # list -> when the notice of the burst in progress leaves


def changed(which: str) -> None:
    """Stamp list ``which`` as changed now and tell its pages: at once, or with the notice
    already due at the end of the quiet interval."""
    try:
        cache.set(_stamp_key(which), time.time(), STAMP_SECONDS)
    except Exception:  # best-effort, like the notice: the change itself is committed
        log.exception("could not stamp the list %s", which)
    now = time.monotonic()
    with _lock:
        due = _due_at.get(which)
        # The notice at the end of this burst will tell it; one due long ago that never left
        # (its event loop was closed) is not waited for.
        if due is not None and now < due + 1:
            return
        wait = _sent_at.get(which, float("-inf")) + EVERY[which] - now
        if wait <= 0:
            _sent_at[which] = now
            _due_at.pop(which, None)
        else:
            _due_at[which] = now + wait
    if wait <= 0:
        _send(which)
    else:
        _send_later(which, wait)


_pending: dict[str, asyncio.TimerHandle | threading.Timer] = {}  # list -> its notice due


def _send_later(which: str, wait: float) -> None:
    loop = server_loop()
    if loop is not None:
        # On the server's loop, where the in-memory layer's sockets listen.
        loop.call_soon_threadsafe(_arm, loop, wait, which)
    else:  # the task runner's process, a command: only a shared layer carries it anywhere
        timer = threading.Timer(wait, _send_due, (which,))
        timer.daemon = True
        with _lock:
            _pending[which] = timer
        timer.start()


def _arm(loop: asyncio.AbstractEventLoop, wait: float, which: str) -> None:
    handle = loop.call_later(wait, _send_due_on_loop, which)
    with _lock:
        _pending[which] = handle


def _leaving(which: str) -> None:
    with _lock:
        _due_at.pop(which, None)
        _pending.pop(which, None)
        _sent_at[which] = time.monotonic()


def _send_due(which: str) -> None:
    _leaving(which)
    _send(which)


_sending: set[asyncio.Future] = set()  # the loop keeps only weak references to its tasks


def _send_due_on_loop(which: str) -> None:
    _leaving(which)
    sending = asyncio.ensure_future(_group_send(which))
    _sending.add(sending)
    sending.add_done_callback(_sending.discard)


def _send(which: str) -> None:
    try:
        async_to_sync(_group_send)(which)
    except Exception:
        log.exception("could not tell the list %s", which)


async def _group_send(which: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        await layer.group_send(group_name(which), {"type": "list.changed", "list": which})
    except Exception:  # a notice is best-effort: the page asks again when its socket returns
        log.exception("could not tell the list %s", which)


def changed_since(which: str, since: float) -> bool:
    """Whether list ``which`` changed after ``since`` (a time.time() as the page was drawn)."""
    stamp = cache.get(_stamp_key(which))
    return stamp is not None and stamp > since


def forget() -> None:
    """Forget the notices sent, and drop the ones due (tests: none may outlive its test)."""
    with _lock:
        for due in _pending.values():
            due.cancel()
        _pending.clear()
        _sent_at.clear()
        _due_at.clear()

"""The bot's moves pushed from the web process, on the embedded default.

A push sent by the worker reaches the browsers only through a shared channel layer (Redis). On
the embedded default (the in-memory layer, `make run`) the worker is another process, so the web
process in which a change left a bot to decide watches the game's row for the bot's move in a
daemon thread, a few times a second and for a bounded time, and announces each new version from
where the browsers' sockets are.
"""

from __future__ import annotations

import logging
import threading
import time

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection

from games.live import announce
from games.models import Game
from games.play import computer

log = logging.getLogger(__name__)


def on_game_changed(game: Game, **_facts) -> None:
    """After a committed change that leaves a bot to decide: watch for its move, unless this is
    the worker's own bot move (the worker's pushes are not heard here) or pushes reach the
    browsers without help."""
    if (
        not computer.moving_now()
        and pushes_stay_in_process()
        and computer.deciding_bot(game) is not None
    ):
        watch(game)


def pushes_stay_in_process() -> bool:
    """Whether a push sent by the compute worker would reach no browser: an in-memory channel
    layer, and a task runner that is another process (not huey's immediate mode)."""
    from games.tasks import COMPUTE

    return isinstance(get_channel_layer(), InMemoryChannelLayer) and not COMPUTE.immediate


_watched: set[int] = set()
_watched_lock = threading.Lock()


def watch(game: Game) -> None:
    """Announce from this process the bot's moves in ``game`` as the worker commits them, until
    a person must decide, the game is over, or nothing moved for ``COMPUTER_WATCH_SECONDS``.
    One watcher a game; it never holds up a request."""
    with _watched_lock:
        if game.pk in _watched:
            return
        _watched.add(game.pk)
    thread = threading.Thread(
        target=_watch,
        args=(game.pk, announce.version(game), announce.server_loop()),
        name=f"computer-watch-{game.pk}",
    )
    thread.daemon = True
    thread.start()


def watch_if_waiting(game: Game) -> None:
    """A player's page opened on a game where the bot must decide: watch for its move, in case
    no watcher is there (this process restarted, or the last one gave up on a busy worker)."""
    if pushes_stay_in_process() and computer.deciding_bot(game) is not None:
        watch(game)


def _watch(game_id: int, announced: str, loop) -> None:
    patience = settings.COMPUTER_WATCH_SECONDS
    try:
        moved_at = time.monotonic()
        while True:
            quiet = time.monotonic() - moved_at
            # Quick looks while the bot's move is due; slower ones while it waits in a busy
            # queue; none past a long wait (the worker is down: the next page opened re-arms it).
            if quiet >= patience * 60:
                return
            slow = quiet >= patience
            time.sleep(settings.COMPUTER_WATCH_INTERVAL * (20 if slow else 1))
            try:
                game = _look(game_id)
            except DatabaseError:  # busy (SQLite locks a table while a move is written)
                log.info("game %s could not be read now: looking again", game_id)
                connection.close()
                continue
            if game is None:
                return
            if announce.version(game) != announced:
                announced = announce.version(game)
                announce.announce(game, loop)
                moved_at = time.monotonic()
            if computer.deciding_bot(game) is None:
                return
    except Exception:  # a push is best-effort: the page's seq check catches up
        log.exception("could not watch for the computer's move in game %s", game_id)
    finally:
        with _watched_lock:
            _watched.discard(game_id)
        connection.close()


def _look(game_id: int) -> Game | None:
    return Game.objects.select_related("seat0", "seat1").filter(pk=game_id).first()

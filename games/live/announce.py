"""Telling connected viewers that a game moved on (the consumer renders for each viewer)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def version(game) -> str:
    """What tells one state of a game's row from another: its seq and its last change (a game
    can end without a move, by a clock)."""
    return f"{game.seq}@{game.updated_at.isoformat()}"


def changed_at(announced: str) -> datetime:
    """When the change a ``version`` names was written: the game's row, in the transaction
    that made it, a few milliseconds before its commit."""
    return datetime.fromisoformat(announced.split("@", 1)[1])


def announce(game, loop: asyncio.AbstractEventLoop | None = None, by: int | None = None) -> None:
    """Send the game's new seq to its group; a lost message is caught up by the seq check.
    The version lets a socket find a push already rendered without asking the database.

    ``by``: the seat whose own request made the change. That request's answer already shows it,
    so that player's sockets are told only the seq (a tab of theirs left behind catches up over
    HTTP) instead of each rendering the page for nobody.

    ``loop``: the server's event loop, for a thread of our own (``server_loop``), where
    ``async_to_sync`` would run the send on a loop of its own that the in-memory layer's
    sockets never hear from."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {
        "type": "game.moved",
        "seq": game.seq,
        "status": str(game.status),
        "version": version(game),
        "by": by,
    }
    try:
        if loop is None:
            async_to_sync(layer.group_send)(group_name(game.pk), message)
        else:
            sent = asyncio.run_coroutine_threadsafe(
                layer.group_send(group_name(game.pk), message), loop
            )
            sent.result(timeout=10)
    except Exception:  # a push is best-effort: the move itself is committed
        log.exception("could not announce game %s seq %s", game.pk, game.seq)


def send_to_group(group: str, message: dict) -> None:
    """Best-effort ``group_send`` from a request's synchronous code; a failure is logged, never
    raised: what was stored stays stored."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("could not tell %s of %s", group, message.get("type"))


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server that runs this request's synchronous code in a thread
    (asgiref's, which Django and Channels use), or None outside one."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


def on_game_changed(game, by: int | None = None, **_facts) -> None:
    """The push of a committed change (a listener of ``games.events.game_changed``)."""
    announce(game, by=by)


def on_rematch_offered(game, **_facts) -> None:
    announce(game)


def on_seek_changed(game, **_facts) -> None:
    """A game waiting for an opponent was cancelled: its waiting pages hear of it (an accepted
    one is told by ``game_changed``; a new one has no page open yet)."""
    if game.status == game.Status.CANCELLED:
        announce(game)

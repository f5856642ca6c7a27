"""Telling connected viewers that a game moved on (the consumer renders for each viewer)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def version(game) -> str:
    """What tells one state of a game's row from another: its seq and its last change (a game
    can end without a move, by a clock)."""
    return f"{game.seq}@{game.updated_at.isoformat()}"


def announce(game) -> None:
    """Send the game's new seq to its group; a lost message is caught up by the seq check.
    The version lets a socket find a push already rendered without asking the database."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(game.pk),
            {"type": "game.moved", "seq": game.seq, "version": version(game)},
        )
    except Exception:  # a push is best-effort: the move itself is committed
        log.exception("could not announce game %s seq %s", game.pk, game.seq)

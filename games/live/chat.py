"""Telling a game's sockets that a chat message was posted: each socket decides whether its
viewer may read it, and renders it in their language (``GameConsumer.chat_posted``)."""

from __future__ import annotations

from games.live.announce import group_name, send_to_group


def on_chat_posted(message, **_facts) -> None:
    """The push of a committed chat message (a listener of ``games.events.chat_posted``)."""
    send_to_group(group_name(message.game_id), {"type": "chat.posted", "message": message.pk})

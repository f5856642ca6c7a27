"""Telling a game's sockets that a chat message was posted: each socket decides whether its
viewer may read it, and renders it in their language (``GameConsumer.chat_posted``).

The announcement carries what the room's rules ask of a message (its room, its author, whether
it is held back), so that a socket whose viewer may not read it drops it without a query or a
worker thread: a watcher's socket, for every line of the players' room. The message's row is
read once in this process for the sockets that draw it.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from games.live.announce import group_name, send_to_group
from games.models import ChatMessage


def on_chat_posted(message, **_facts) -> None:
    """The push of a committed chat message (a listener of ``games.events.chat_posted``)."""
    send_to_group(group_name(message.game_id), {"type": "chat.posted", **facts_of(message)})


def facts_of(message: ChatMessage) -> dict:
    """The message as its announcement names it (``chat.may_reach`` reads these)."""
    return {
        "message": message.pk,
        "room": message.room,
        "author": message.author_id,
        "held": message.held,
    }


_MESSAGES_MAX = 256
_messages: OrderedDict[tuple[int, bool | None], ChatMessage | None] = OrderedDict()
_messages_lock = Lock()


def message_row(message_id: int, held: bool | None) -> ChatMessage | None:
    """The message, with its game and author, read once in this process for every socket that
    draws it; ``held`` as its announcement said (a held message released by a moderator is
    announced again, and read again)."""
    key = (message_id, held)
    with _messages_lock:
        if key in _messages:
            _messages.move_to_end(key)
            return _messages[key]
    message = ChatMessage.objects.select_related("game", "author").filter(pk=message_id).first()
    with _messages_lock:
        _messages[key] = message
        while len(_messages) > _MESSAGES_MAX:
            _messages.popitem(last=False)
    return message


def forget_messages() -> None:
    with _messages_lock:
        _messages.clear()

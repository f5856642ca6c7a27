"""What a game page's chat shows (templates/games/_chat.html), read for the page's own viewer
when the page is drawn, never from the context its partials and pushes are drawn from:

{% load game_chat %}{% chat_box as box %}
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from games.community import chat
from games.models import ChatMessage, ChatRoom, Sanction

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_box(context) -> dict:
    """The rooms the viewer may read, each with its last messages and, if they may write in it,
    its form (a refused post's text and reason, ``chat_refused``, kept in its place)."""
    game, user = context["game"], context["user"]
    seat = game.seat_of(user)
    on = chat.chat_on(game, user)
    refused = context.get("chat_refused") or {}
    rooms = []
    for room in chat.rooms_of(game, user) if on else []:
        rooms.append(
            {
                "room": room,
                "title": _room_title(room, seat),
                "messages": chat.readable(game, user, room),
                "writable": chat.may_write(game, user, room),
                "quick": list(chat.QUICK.items()) if room == ChatRoom.PLAYERS else [],
                "text": refused.get("text", "") if refused.get("room") == room else "",
                "error": refused.get("error", "") if refused.get("room") == room else "",
                "most": ChatMessage.MAX_LENGTH,
            }
        )
    return {
        "rooms": rooms,
        "on": on,
        "player": seat is not None,
        "silenced": _told(user, "silence") if rooms else "",
        "warning": _told(user, "warning") if rooms else "",
        "signed_in": user.is_authenticated,
    }


def _room_title(room: str, seat: int | None) -> str:
    if room == ChatRoom.PLAYERS:
        return _("Players' chat: only the two of you read it")
    if seat is not None:
        return _("Spectators' chat, open to you now that the game is over")
    return _("Spectators' chat: the players read it only after the game")


def _told(user, what: str) -> str:
    """What a moderator's sanction of ``what`` kind tells the viewer ("silence", "warning")."""
    sanction = Sanction.objects.told_to(user).get(what)
    return sanction.told() if sanction is not None else ""


@register.filter
def said(message: ChatMessage) -> str:
    """The message's words: its text, or a quick message in the reader's language."""
    return chat.words_of(message)

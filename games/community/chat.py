"""A game's chat: one room for its two players, private to them for good, and one for the
people watching it, which its players may read once the game is over (never during: it could
tell them what watchers see in the position).

``post`` is the only way a message is stored: it checks who writes where, the player's own
settings, a moderator's mute or suspension, the text and the rate limits, holds back a message
the word filter catches (its author sees it, marked as waiting for a moderator), and tells the
game's sockets once the message is committed (``games.events.chat_posted``).
"""

from __future__ import annotations

import math
import unicodedata
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games import clock, events
from games.compiled import Compiled
from games.models import (
    Block,
    ChatMessage,
    ChatOff,
    ChatRoom,
    Computer,
    Game,
    HiddenWord,
    PlayerSettings,
    Report,
    Sanction,
)

# Pre-written messages, kept as their key and said in each reader's own language.
QUICK = {
    "good_luck": pgettext_lazy("quick chat", "Good luck"),
    "well_played": pgettext_lazy("quick chat", "Well played"),
    "thanks": pgettext_lazy("quick chat", "Thanks for the game"),
}
SHOWN = 100  # the last messages of a room a page shows


class ChatRefused(Exception):
    """A message not stored; ``message`` says why in the writer's language, ``status`` is the
    HTTP status that fits."""

    def __init__(self, message: str, status: int = 400, wait: float = 0):
        super().__init__(message)
        self.message = message
        self.status = status
        self.wait = wait  # seconds before trying again can succeed (a rate limit's refusal)


# -- who reads and writes where ----------------------------------------------------------------


def may_read(game: Game, user, room: str) -> bool:
    """The players' room: its two players only. The spectators' room: whoever may watch the
    game, and its players once it is over."""
    seat = game.seat_of(user)
    if room == ChatRoom.PLAYERS:
        return seat is not None
    if room == ChatRoom.SPECTATORS:
        if seat is not None:
            return game.over
        return game.can_watch(user)
    return False


def may_write(game: Game, user, room: str) -> bool:
    """Players write in their own room (during the game and after it); signed-in watchers in
    theirs. A game still waiting for its opponent has no chat; the computer never writes."""
    if not user.is_authenticated or game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        return False
    seat = game.seat_of(user)
    if room == ChatRoom.PLAYERS:
        return seat is not None
    return room == ChatRoom.SPECTATORS and seat is None and game.can_watch(user)


def rooms_of(game: Game, user) -> list[str]:
    """The rooms ``user`` may read in ``game``, their own first."""
    rooms = [ChatRoom.PLAYERS, ChatRoom.SPECTATORS]
    if game.seat_of(user) is None:
        rooms.reverse()
    return [room for room in rooms if may_read(game, user, room)]


def chat_on(game: Game, user) -> bool:
    """Whether ``user`` wants ``game``'s chat: their account's setting, then this game's."""
    if not user.is_authenticated:
        return True  # a visitor reads the spectators' room; they have no setting
    if not PlayerSettings.of(user).chat:
        return False
    return _CHAT_OFF.first(game.pk, user.pk) is None


# The reads of every chat line and of each of its pushes, compiled once (games.compiled): a
# line costs the process that much less beside the moves.
_CHAT_OFF = Compiled(
    lambda game_id, user_id: ChatOff.objects.filter(game_id=game_id, user_id=user_id)[:1]
)
_SILENCING = Compiled(
    lambda user_id, now: Sanction.objects.silencing_of(user_id, now).longest_first()[:1]
)
_WRITTEN_SINCE = Compiled(
    lambda user_id, game_id, since: ChatMessage.objects.filter(
        author_id=user_id, game_id=game_id, created_at__gt=since
    )
)


def turn_chat(game: Game, user, on: bool) -> None:
    """A player turns ``game``'s chat on or off for themselves."""
    if on:
        ChatOff.objects.filter(game=game, user=user).delete()
    else:
        ChatOff.objects.get_or_create(game=game, user=user)


def silenced_words(user) -> str:
    """Why ``user`` may not chat now and until when (a mute or a suspension), or ""."""
    if not user.is_authenticated:
        return ""
    sanction = _SILENCING.first(user.pk, timezone.now())
    return sanction.told() if sanction is not None else ""


# -- reading -----------------------------------------------------------------------------------


def readable(game: Game, user, room: str) -> list[ChatMessage]:
    """The last messages of ``room`` as ``user`` sees them: a held message only to its author,
    a removed one to nobody."""
    if not may_read(game, user, room):
        return []
    messages = ChatMessage.objects.filter(game=game, room=room, removed=False)
    if user.is_authenticated:
        messages = messages.filter(Q(held=False) | Q(author=user))
        # A blocked pair never reads each other: asked inside the same query.
        messages = messages.exclude(
            author__in=Block.objects.filter(blocked=user).values("blocker")
        ).exclude(author__in=Block.objects.filter(blocker=user).values("blocked"))
    else:
        messages = messages.filter(held=False)
    latest = messages.select_related("author").order_by("-created_at", "-pk")[:SHOWN]
    return list(reversed(latest))


def shows_to(message: ChatMessage, user) -> bool:
    """Whether a message just posted goes to ``user``'s page (its push)."""
    if message.removed:
        return False
    if message.held and (not user.is_authenticated or user.pk != message.author_id):
        return False
    if message.author_id in Block.objects.hidden_from(user):
        return False  # a blocked pair never reads each other, and neither is told
    return may_read(message.game, user, message.room)


def may_reach(facts: dict, seat: int | None, user) -> bool:
    """Whether a message announced with ``facts`` (``games.live.chat.facts_of``) may be for a
    socket of ``user`` in ``seat`` (None: watching), asked before anything is read: the room's
    rule (``may_read``) as far as it goes without the game, and a held message's. ``shows_to``
    then decides with the message itself (blocks, a removal, a players' reading of the watchers'
    room once the game is over). An announcement without them is left to ``shows_to``."""
    if "room" not in facts:
        return True
    if facts["held"] and (not user.is_authenticated or user.pk != facts["author"]):
        return False
    return facts["room"] != ChatRoom.PLAYERS or seat is not None


def words_of(message: ChatMessage) -> str:
    """The message's text; a quick message in the active language."""
    if message.quick:
        return str(QUICK.get(message.quick, ""))
    return message.text


# -- writing -----------------------------------------------------------------------------------


def post(game: Game, user, room: str, text: str = "", quick: str = "") -> ChatMessage:
    """Store ``user``'s message in ``room`` of ``game``, or raise ChatRefused saying why (and
    store nothing)."""
    if not may_write(game, user, room) or (
        Computer.may_be(user) and Computer.objects.filter(user=user).exists()
    ):
        raise ChatRefused(_("You cannot write in this chat."), status=403)
    silenced = silenced_words(user)
    if silenced:
        raise ChatRefused(silenced, status=403)
    if not chat_on(game, user):
        raise ChatRefused(_("Your chat is off: turn it on to write."), status=403)
    text = _cleaned(text, quick)
    with transaction.atomic():
        _check_rate(game, user)
        held = not quick and _catches(text)
        message = ChatMessage.objects.create(
            game=game, author=user, room=room, text=text, quick=quick, held=held
        )
        if held:
            Report.objects.create(
                reported=user, game=game, message=message, reason=Report.Reason.FILTER
            )
        events.send_on_commit(events.chat_posted, message=message)
    return message


def _cleaned(text: str, quick: str) -> str:
    """The text as stored: plain, without control characters, 1 to 500 characters; empty for
    a quick message, which is its key."""
    if quick:
        if quick not in QUICK:
            raise ChatRefused(_("That quick message is not one of the chat's."))
        return ""
    text = "".join(c for c in text if c in "\n" or unicodedata.category(c)[0] != "C").strip()
    if not text:
        raise ChatRefused(_("Write something first: the message is empty."))
    if len(text) > ChatMessage.MAX_LENGTH:
        raise ChatRefused(
            _("A message holds at most %(most)d characters; this one has %(count)d.")
            % {"most": ChatMessage.MAX_LENGTH, "count": len(text)}
        )
    return text


def _check_rate(game: Game, user) -> None:
    """At most CHAT_BURST messages at once anywhere, then one every CHAT_EVERY_SECONDS (a
    bucket that refills at that pace), and CHAT_PER_GAME_DAY in one game in a day.

    The bucket is in the cache, which every server process shares, and a turn is taken from it
    in one step (``basilica_site.cache``): posts of one player arriving at the same instant in
    several processes pass no faster than one at a time. A flood is let through at the steady
    pace, never as a burst each time a window opens: what it costs the site is spread out, and
    moves beside it are not held up."""
    key, every = BUCKET.format(user.pk), settings.CHAT_EVERY_SECONDS
    early = cache.take_turn(key, every=every, burst=settings.CHAT_BURST)
    if early > 0:
        raise ChatRefused(too_fast(early), status=429, wait=early)
    daily = settings.CHAT_PER_GAME_DAY
    if _WRITTEN_SINCE.count(user.pk, game.pk, timezone.now() - timedelta(days=1)) >= daily:
        cache.give_back_turn(key, every=every)  # counted only for a message stored
        raise ChatRefused(
            ngettext(
                "Not sent: at most %(count)d message a day in one game. Try again tomorrow.",
                "Not sent: at most %(count)d messages a day in one game. Try again tomorrow.",
                daily,
            )
            % {"count": daily},
            status=429,  # the other games' chats stay open: nobody is told to wait
        )


def wait_before_next(user) -> float:
    """Seconds before ``user``'s next message may go; 0 if it may go now."""
    return cache.turn_wait(
        BUCKET.format(user.pk), every=settings.CHAT_EVERY_SECONDS, burst=settings.CHAT_BURST
    )


def _pace() -> dict:
    every = settings.CHAT_EVERY_SECONDS
    return {"count": settings.CHAT_BURST, "every": clock.unit(every, "second")}


def too_fast(wait: float) -> str:
    """Why a message is refused while the player's bucket is empty for ``wait`` seconds."""
    return ngettext(
        "Not sent: at most %(count)d message at once, then one every %(every)s. Wait %(wait)s.",
        "Not sent: at most %(count)d messages at once, then one every %(every)s. Wait %(wait)s.",
        settings.CHAT_BURST,
    ) % {**_pace(), "wait": clock.unit(math.ceil(wait), "second")}


def next_in(wait: float) -> str:
    """Said under the form of a message just sent that emptied the player's bucket."""
    return ngettext(
        "Sent. The next message can go in %(wait)s (at most %(count)d message at once, then one "
        "every %(every)s).",
        "Sent. The next message can go in %(wait)s (at most %(count)d messages at once, then one "
        "every %(every)s).",
        settings.CHAT_BURST,
    ) % {**_pace(), "wait": clock.unit(math.ceil(wait), "second")}


BUCKET = "chat-turns:{}"  # a player's bucket of messages, as integer ms (``basilica_site.cache``)


HIDDEN_WORDS = "chat-hidden-words"  # the admin's list, in the site's cache (Redis: every process's)
HIDDEN_WORDS_KEPT = 300  # seconds: a list changed behind the admin's back (a restore) is read again


def hidden_words() -> set[str]:
    """The word filter's list: the setting's and the admin's (read from the database, then
    from the cache until the admin changes it, or for five minutes at most)."""
    kept = cache.get(HIDDEN_WORDS)
    if kept is None:
        kept = sorted(w.lower() for w in HiddenWord.objects.values_list("word", flat=True))
        cache.set(HIDDEN_WORDS, kept, timeout=HIDDEN_WORDS_KEPT)
    return {w.lower() for w in settings.CHAT_HIDDEN_WORDS} | set(kept)


def on_hidden_word_changed(**_facts) -> None:
    """A word added to the admin's list, changed or taken off: read again at the next line.
    Forgotten at once, and again once the admin's change commits: a line posted in between
    would read the list before the change and keep it. (Without Redis each process has a cache
    of its own, and the others read the change within HIDDEN_WORDS_KEPT.)"""
    cache.delete(HIDDEN_WORDS)
    transaction.on_commit(lambda: cache.delete(HIDDEN_WORDS))


def _catches(text: str) -> bool:
    """Whether ``text`` holds a hidden word, as a whole word, in any case."""
    words = hidden_words()
    if not words:
        return False
    said = "".join(c if c.isalnum() else " " for c in text.lower()).split()
    phrase = f" {' '.join(said)} "
    return any(f" {' '.join(w.split())} " in phrase for w in words)


# -- a player's own data -----------------------------------------------------------------------


def forget(user) -> int:
    """Delete every chat message ``user`` wrote (their account is closing); how many."""
    deleted, _by_model = ChatMessage.objects.filter(author=user).delete()
    return deleted


def on_account_closed(user, **_facts) -> None:
    """A closed account's chat goes with it."""
    forget(user)


def messages_written_by(user) -> list[dict]:
    """``user``'s own chat messages, for the download of their data: plain, JSON-safe dicts."""
    rows = ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
    return [
        {
            "game": message.game_id,
            "room": message.room,
            "text": message.text or str(QUICK.get(message.quick, message.quick)),
            "quick": message.quick,
            "written_at": message.created_at.isoformat(),
            "held_by_filter": message.held,
            "removed_by_moderator": message.removed,
        }
        for message in rows
    ]

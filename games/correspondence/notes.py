"""A player's private notes on a game: written and read by that player alone, while the game runs
and after it is over. Nobody else is ever handed one: not the opponent, not a spectator, not a
record or a push (the staff open one on purpose in the admin)."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import ngettext

from games.models import Game, GameNote

# Notes belong to a game that has begun: a seek has no opponent to think about yet, and a
# cancelled game has no page.
WRITABLE = (Game.Status.ACTIVE, Game.Status.FINISHED, Game.Status.ABORTED)


class NotYourGame(Exception):
    """Only the two players of a game keep notes on it."""


class NoteRefused(ValueError):
    """A note the site does not keep; ``message`` says why, in the writer's language."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def may_write(game: Game, user) -> bool:
    return game.status in WRITABLE and game.seat_of(user) is not None


def note_of(game: Game, user) -> GameNote | None:
    """``user``'s own note on ``game``; None for anyone who is not one of its players."""
    if game.seat_of(user) is None:
        return None
    return GameNote.objects.filter(game=game, user=user).first()


def write(game: Game, user, text: str) -> GameNote | None:
    """Keep ``text`` as ``user``'s note on ``game`` (None when an empty text deletes it).

    Line ends are kept as a text box shows them (a browser sends each as two characters), so
    that the length counted is the one the writer sees."""
    if not may_write(game, user):
        raise NotYourGame(f"user {user.pk} keeps no notes on game {game.pk}")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > GameNote.MAX_LENGTH:
        raise NoteRefused(too_long(len(text)))
    if not text.strip():
        GameNote.objects.filter(game=game, user=user).delete()
        return None
    note, _created = GameNote.objects.update_or_create(
        game=game, user=user, defaults={"text": text}
    )
    return note


def too_long(length: int) -> str:
    return ngettext(
        "Not saved: notes hold at most %(most)s characters, and this text has %(count)s. "
        "Shorten it by %(over)s character and save again.",
        "Not saved: notes hold at most %(most)s characters, and this text has %(count)s. "
        "Shorten it by %(over)s characters and save again.",
        length - GameNote.MAX_LENGTH,
    ) % {
        "most": _number(GameNote.MAX_LENGTH),
        "count": _number(length),
        "over": _number(length - GameNote.MAX_LENGTH),
    }


def _number(value: int) -> str:
    return number_format(value, force_grouping=True)

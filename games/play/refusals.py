"""What the site says when it refuses a change of a game: the exceptions of the play layer,
each with the HTTP status that fits."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.words import say


class MoveRejected(Exception):
    """A move the site refuses; ``status`` is the HTTP status that fits. ``message`` is in the
    language active where it was refused: the player's, who asked."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(MoveRejected):
    status = 403


class StaleMove(MoveRejected):
    status = 409
    PAGE = gettext_lazy("the game has moved on since your page was drawn: here it is now")


def refusal_of(error: Exception) -> str:
    """An engine's refusal (MalformedAction, IllegalAction) in the player's words: its message
    is an engine's ``Reason`` where the engine marked it."""
    return say(error.args[0]) if error.args else str(error)


def suspension_words(user) -> str:
    """Why ``user`` may not play now and until when (their suspension's own words), or ""."""
    from games.models import Sanction  # the models sit below: imported late, refusals are light

    suspension = Sanction.objects.suspending(user).longest()
    return suspension.told() if suspension is not None else ""


def refuse_if_suspended(user, refusal: type[Exception] = NotAllowed) -> None:
    """Raise ``refusal`` saying why, before anything is written, if ``user`` is suspended."""
    words = suspension_words(user)
    if words:
        raise refusal(words)

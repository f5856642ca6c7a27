"""A player's notes box on a game page (templates/games/_notes.html): saved as they type with
HTMX, its status said politely beside it; without JavaScript its Save button posts and comes
back to the game. A save refused (too long, too many) keeps the text in the box and says why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.correspondence import notes
from games.models import Game, GameNote
from games.play import states
from games.web import errors
from games.web.presenters import game_context
from games.web.ratelimit import spend
from games.web.validation import body_at_most

# A full note with every character four bytes of UTF-8, each sent as %XX, and the form's token.
NOTE_BODY_MAX = GameNote.MAX_LENGTH * 4 * 3 + 4096


@require_POST
@login_required
@body_at_most(NOTE_BODY_MAX)
def save(request: HttpRequest, pk: int) -> HttpResponse:
    game = errors.game_or_404(request, pk)
    if not notes.may_write(game, request.user):
        raise PermissionDenied("only the two players of a game keep notes on it")
    text = request.POST.get("text", "")
    if not spend("note", f"player:{request.user.pk}"):
        return _refused(request, game, text, _too_many(), status=429)
    try:
        note = notes.write(game, request.user, text)
    except notes.NoteRefused as refusal:
        return _refused(request, game, text, refusal.message, status=400)
    if request.htmx:
        box = {"note": note, "error": ""}
        return render(request, "games/_notes.html#status", {"box": box, "just_saved": True})
    if note is None:
        messages.info(request, _("Your notes on this game are cleared."))
    else:
        messages.info(request, _("Your notes on this game are saved."))
    return redirect(f"{game.get_absolute_url()}#notes")


def _refused(request: HttpRequest, game: Game, text: str, why: str, status: int) -> HttpResponse:
    """The status saying why; without JavaScript, the game page again with the text still in
    its box (a redirect would lose it)."""
    if request.htmx:
        box = {"note": None, "error": why}
        return render(request, "games/_notes.html#status", {"box": box}, status=status)
    context = game_context(game, states.load_state(game), request.user)
    context.update(error="", notes_refused={"text": text, "error": why})
    return render(request, context["kind"].template, context, status=status)


def _too_many() -> str:
    return _(
        "Not saved: your notes were saved more often than the site allows in a short time. "
        "Your text is still here: save it again in a minute."
    )

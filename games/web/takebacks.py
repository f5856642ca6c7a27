"""The takeback form of the game page (templates/games/_takeback.html): ask to take back one's
last action, or answer the opponent's request. With HTMX the answer is the game's live region,
as for a move; without JavaScript the form posts and comes back to the game (Post/Redirect/Get).
A refusal (stale page, forged form, not a player, not allowed by the rules) changes nothing and
says why."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.play import takebacks
from games.play.refusals import MoveRejected, NotAllowed
from games.web import errors
from games.web.views import _render_game as render_game

ANSWERS = ("ask", "accept", "decline")


@require_POST
@login_required
def takeback(request: HttpRequest, pk: int) -> HttpResponse:
    game = errors.game_or_404(request, pk)
    if game.seat_of(request.user) is None:
        raise PermissionDenied(
            _("only the two players of this game can ask for or answer a takeback")
        )
    answer = request.POST.get("answer", "")
    try:
        seq = int(request.POST.get("seq", ""))
    except ValueError:
        seq = None
    if answer not in ANSWERS or seq is None:
        return _refused(
            request, game, 400, _("that form was not a takeback request: reload the page")
        )
    try:
        if answer == "ask":
            game = takebacks.ask(game, request.user, seq)
        else:
            game = takebacks.answer(game, request.user, seq, accept=answer == "accept")
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except MoveRejected as error:
        game.refresh_from_db()
        return _refused(request, game, error.status, error.message)
    if request.htmx:
        return render_game(request, game, partial="live")
    messages.info(request, DONE[answer]())
    return redirect(game)


DONE = {
    "ask": lambda: _("You asked to take back your last action: your opponent answers."),
    "accept": lambda: _("The action was taken back."),
    "decline": lambda: _("You declined the takeback."),
}


def _refused(request: HttpRequest, game, status: int, message: str) -> HttpResponse:
    if request.htmx:
        return render_game(request, game, status=status, error=message, partial="live")
    messages.error(request, message)
    return redirect(game)

"""A player's prepared replies in a game of perfect information (``games.play.conditional``): the
analysis copy of the board where a line is built, the form that keeps it and those that delete
lines. Only the game's two players reach them: a stranger gets the 404 of a game that is not
there (``errors.game_or_404``), a spectator of a public game a 403.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from basilica_site.compression import never_compressed
from games.kinds.cathedral import prepare as cathedral_board
from games.models import Game
from games.play import conditional, states
from games.play.refusals import MoveRejected, NotAllowed, StaleMove
from games.web import errors
from games.web.presenters import seat_names
from games.web.validation import body_at_most

# The kinds whose players prepare lines on an analysis board of their own.
BOARDS = {"cathedral": cathedral_board}
TEMPLATE = "games/cathedral/prepare.html"
# A kept line: twenty moves of JSON, their tokens and the CSRF token, URL-encoded.
KEEP_BODY_MAX = 16_384
LONGEST_ADDRESS = 25 * conditional.MAX_MOVES  # characters of a line read from the address


def _player_game(request: HttpRequest, pk: int) -> tuple[Game, int]:
    """The game and the seat of the player asking; PermissionDenied for anyone else who may
    see the game."""
    game = errors.game_or_404(request, pk)
    if game.status == Game.Status.CANCELLED:
        raise Http404("this game was cancelled")
    seat = game.seat_of(request.user)
    if seat is None:
        raise PermissionDenied("only the two players of this game prepare replies in it")
    return game, seat


def _closed(game: Game, seat: int) -> str:
    """Why the player cannot prepare a line in ``game`` now, or ""."""
    if not game.engine.PERFECT_INFORMATION:
        return _("%(game)s has hidden information: replies cannot be prepared in it") % {
            "game": game.kind_title
        }
    if game.clock_control.live and game.status == Game.Status.ACTIVE:
        return _("replies are prepared in correspondence and untimed games, not live")
    if not conditional.offered(game) or game.kind not in BOARDS:
        return _("this game is not in play")
    if game.to_decide == seat:
        return _("it is your move: play it, and prepare replies while you wait")
    return ""


@require_GET
@login_required
def board(request: HttpRequest, pk: int) -> HttpResponse:
    """The analysis board at the position the line in the address reaches."""
    game, seat = _player_game(request, pk)
    asked = {"line": request.GET.get("line", ""), "pick": request.GET.get("pick", "")}
    return _board_page(request, game, seat, asked, request.GET.get("seq"))


@never_compressed  # the lines kept, beside a line read from the address (or a form)
def _board_page(request, game: Game, seat: int, asked: dict, seq, status=200, error=""):
    """The analysis board, or the page saying why there is none now. A line begun at another
    ``seq`` than the game's is from a position the game has left: the board starts afresh."""
    context = {"game": game, "seat": seat, "names": seat_names(game), "error": error}
    closed = _closed(game, seat)
    if closed:
        hidden = not game.engine.PERFECT_INFORMATION
        context.update(closed=closed, hidden=hidden, error="" if error == closed else error)
        # There is no analysis board of a game of hidden information: the page says why.
        return render(request, TEMPLATE, context, status=404 if hidden and not error else status)
    moved_on = seq not in (None, "", str(game.seq))
    if moved_on:
        asked = {}
    asked = {"line": asked.get("line", "")[:LONGEST_ADDRESS], "pick": asked.get("pick", "")[:40]}
    state = states.load_state(game)
    kind = BOARDS[game.kind]
    context.update(
        kind.analysis_context(game, state, seat, context["names"], asked, conditional.MAX_MOVES),
        moved_on=moved_on,
        kept=len(conditional.lines_of(game, request.user)),
        most=conditional.MAX_LINES,
    )
    return render(request, TEMPLATE, context, status=status)


@require_POST
@login_required
@body_at_most(KEEP_BODY_MAX)
def keep(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep the line the board built (the core checks it all again, against the game as it
    was when the page was drawn); refused, the board again with the reason."""
    game, seat = _player_game(request, pk)
    asked = {"line": request.POST.get("line", ""), "pick": ""}
    try:
        moves = json.loads(request.POST.get("moves", ""))
        seq = int(request.POST.get("seq", ""))
    except (ValueError, RecursionError):  # RecursionError: JSON nested deeper than Python goes
        refusal = _("That form was not a prepared line: build the line again.")
        return _board_page(request, game, seat, asked, None, status=400, error=refusal)
    try:
        conditional.prepare(game, request.user, moves, seq)
    except NotAllowed as error:
        raise PermissionDenied(error.message) from None
    except MoveRejected as error:
        game.refresh_from_db()
        return _board_page(
            request, game, seat, asked, str(seq), status=error.status, error=error.message
        )
    messages.success(
        request,
        _("Your line is kept: if %(name)s plays its first move, your reply is played at once.")
        % {"name": seat_names(game)[1 - seat]},
    )
    return redirect(game)


@require_POST
@login_required
def delete(request: HttpRequest, pk: int, line_id: int) -> HttpResponse:
    game, seat = _player_game(request, pk)
    try:
        conditional.withdraw(game, request.user, line_id)
    except StaleMove as error:
        return _told(request, game, seat, error.message, ok=False)
    return _told(request, game, seat, _("The line is deleted."), ok=True)


@require_POST
@login_required
def delete_all(request: HttpRequest, pk: int) -> HttpResponse:
    game, seat = _player_game(request, pk)
    count = conditional.withdraw_all(game, request.user)
    if not count:
        return _told(request, game, seat, _("You had no prepared line in this game."), ok=False)
    told = ngettext(
        "%(count)d prepared line deleted.", "%(count)d prepared lines deleted.", count
    ) % {"count": count}
    return _told(request, game, seat, told, ok=True)


@require_GET
@login_required
def lines(request: HttpRequest, pk: int) -> HttpResponse:
    """The game page's list of the player's lines, as it is now: asked for by the page when a
    push brings a move, which may have played a line or dropped them all."""
    game, seat = _player_game(request, pk)
    return render(request, "games/_conditional.html", {"game": game, "seat": seat})


def _told(request: HttpRequest, game: Game, seat: int, text: str, ok: bool) -> HttpResponse:
    """Back to the game page's list of lines with ``text``: the list alone for HTMX."""
    text = capfirst(text)
    if request.htmx:
        context = {"game": game, "seat": seat, "told": text, "told_ok": ok}
        return render(request, "games/_conditional.html", context, status=200 if ok else 409)
    (messages.success if ok else messages.error)(request, text)
    return redirect(f"{game.get_absolute_url()}#prepared")


def lines_in_words(game: Game, user, seat: int) -> list[dict]:
    """``user``'s lines in ``game``, each with its id and one sentence saying it."""
    kind = BOARDS.get(game.kind)
    lines = conditional.lines_of(game, user)
    if kind is None or not lines:
        return []
    names, rules, at = seat_names(game), game.engine, {}
    out = []
    for line in lines:
        if line.base_seq not in at:
            at[line.base_seq] = states.state_at(game, line.base_seq)
        words = kind.line_sentence(rules, at[line.base_seq], seat, names, line.moves)
        out.append({"id": line.pk, "words": words})
    return out

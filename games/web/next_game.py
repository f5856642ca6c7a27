"""From one game waiting for the player to the next: the address that goes to the most urgent,
the offer a game page makes once it waits for the opponent, the move that goes on by itself
when the player chose so in Settings, and the order and last activity of My games."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRedirect

from games.models import Action, Computer, Game, PlayerSettings

LARGEST_PK = 2**63 - 1


def waiting(user, left: int | None = None) -> Game | None:
    """The game most urgently waiting for ``user``'s decision (the nearest deadline, then the
    longest waiting), other than the game ``left``."""
    games = Game.objects.deciding(user)
    if left is not None:
        games = games.exclude(pk=left)
    return games.first()


def _game_number(text: str) -> int | None:
    try:
        number = int(text)
    except ValueError:
        return None
    return number if 0 < number <= LARGEST_PK else None


@require_GET
@login_required
def next_game(request: HttpRequest) -> HttpResponse:
    """To the game most urgently waiting for the player, other than ``?after=`` (the one they
    just left); to My games when none is."""
    found = waiting(request.user, _game_number(request.GET.get("after", "")))
    if found is None:
        messages.info(request, _("No game is waiting for your move."))
        return redirect("games:mine")
    return redirect(found)


def with_offer(request: HttpRequest, game: Game, response: HttpResponse) -> HttpResponse:
    """A move's answer to htmx (the live region) with the page's offer of the next game, swapped
    out of band: the offer stands outside the live region, which pushes share between pages."""
    offer = render_to_string(
        "games/_next_game.html",
        {"game": game, "seat": game.seat_of(request.user), "oob": True},
        request,
    )
    response.content += offer.encode(response.charset)
    return response


def go_on(request: HttpRequest, game: Game) -> HttpResponse | None:
    """After the player's move in ``game``: to the next game waiting for them, if they chose so
    in Settings and their turn here is over; None to stay. Not from a live game nor one against
    the computer, whose answer comes within seconds."""
    user = request.user
    if game.status == Game.Status.ACTIVE and game.to_decide == game.seat_of(user):
        return None  # still theirs: a turn of several actions, or the opponent's answer was quick
    if game.clock_control.live or not PlayerSettings.of(user).next_game_after_move:
        return None
    if Computer.objects.filter(user_id__in=[game.seat0_id, game.seat1_id]).exists():
        return None
    found = waiting(user, left=game.pk)
    if found is None:
        return None
    if game.over:
        said = _("Your move in game %(number)s was sent: that game is over.")
    else:
        said = _("Your move in game %(number)s was sent.")
    messages.info(request, said % {"number": game.pk})
    if request.htmx:
        return HttpResponseClientRedirect(found.get_absolute_url())
    return redirect(found)


# -- My games --------------------------------------------------------------------------------

GROUPS = {"yours": 0, "theirs": 1, "open": 2, "over": 3}


def with_last_move(games):
    """``games`` with who made the last action (``last_mover``, a seat) and when
    (``last_moved_at``), in the query that lists them."""
    last = Action.objects.filter(game=OuterRef("pk")).order_by("-seq")
    return games.annotate(
        last_mover=Subquery(last.values("player")[:1]),
        last_moved_at=Subquery(last.values("created_at")[:1]),
    )


def urgency(row: dict) -> tuple:
    """My games' order: the games waiting for the player, then those waiting for the opponent,
    each the nearest deadline first and those with none after, then the longest waiting first
    (as ``Game.objects.deciding``); then open seeks and finished games as listed."""
    game = row["game"]
    if row["group"] not in ("yours", "theirs"):
        return (GROUPS[row["group"]],)
    last = game.updated_at
    return (GROUPS[row["group"]], game.deadline is None, game.deadline or last, last)


def last_activity(game: Game, seat: int | None) -> dict:
    """What last happened in ``game`` for the list, and when: a move (by whom), its start, its
    opening, its end."""
    if game.over:
        return {"what": "ended", "at": game.finished_at or game.updated_at}
    if game.last_moved_at is not None:
        by = game.names[game.last_mover]
        return {"what": "moved", "at": game.last_moved_at, "you": game.last_mover == seat, "by": by}
    if game.status == Game.Status.ACTIVE:
        return {"what": "started", "at": game.started_at or game.created_at}
    return {"what": "opened", "at": game.created_at}

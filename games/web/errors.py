"""The pages of a missing thing and of a server error, in words a player understands.

A 404 names what is missing from the address asked for, never from the reason a view gave: a
private game and a game that never existed must read the same to a stranger.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from games import kinds
from games.engine.basilica.components import EDITIONS
from games.models import Game, game_with_players


def game_or_404(request: HttpRequest, pk: int) -> Game:
    """Game ``pk`` (with its players) for every view that names one, if this visitor may know it
    exists: a private game is its players' and the staff's only, and anyone else gets the very
    404 of a number that was never a game, whatever they asked of it, so that no answer tells a
    stranger which numbers are private games."""
    game = game_with_players(pk, request.user)
    if game is None:
        raise Http404("no such game")
    return game


def no_player(username: str) -> str:
    return _("No player called %(name)s.") % {"name": username}


def _all_of(words: list[str]) -> str:
    """The words as a sentence lists them: "a, b and c"."""
    if len(words) < 2:
        return "".join(words)
    return _("%(some)s and %(last)s") % {"some": ", ".join(words[:-1]), "last": words[-1]}


def missing_thing(path: str) -> str:
    """What the address ``path`` would have shown, as a sentence saying it is not there."""
    try:
        match = resolve(path)
    except Resolver404:
        return _("There is no page at this address.")
    kwargs = match.kwargs
    if match.view_name == "profile":
        return no_player(kwargs["username"])
    if match.view_name == "games:invitation":
        return _("This invitation link leads nowhere: it was cancelled, or mistyped.")
    if "pk" in kwargs and match.namespace == "games":
        return _(
            "No game %(number)s here: it never existed, was cancelled, or is a private game "
            "between two other players."
        ) % {"number": kwargs["pk"]}
    if match.view_name == "rules-kind":
        return _("No rules for a game called %(name)s: this site hosts %(games)s.") % {
            "name": kwargs["kind"],
            "games": _all_of([title for _key, title in kinds.choices()]),
        }
    if match.view_name == "rules-edition":
        return _(
            "No rules for an edition called %(name)s: there are the %(editions)s editions."
        ) % {"name": kwargs["edition"], "editions": _all_of(list(EDITIONS))}
    return _("There is nothing at this address.")


def not_found_page(request: HttpRequest, missing: str) -> HttpResponse:
    return render(request, "404.html", {"missing": missing, "path": request.path}, status=404)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's ``handler404`` (used when DEBUG is off)."""
    return not_found_page(request, missing_thing(request.path_info))

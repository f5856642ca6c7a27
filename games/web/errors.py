"""The pages of a missing thing and of a server error, in words a player understands.

A 404 names what is missing from the address asked for, never from the reason a view gave: a
private game and a game that never existed must read the same to a stranger.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import Resolver404, resolve

from games import kinds
from games.engine.basilica.components import EDITIONS
from games.models import Game


def game_or_404(request: HttpRequest, pk: int) -> Game:
    """Game ``pk`` (with its players) for every view that names one, if this visitor may know it
    exists: a private game is its players' and the staff's only, and anyone else gets the very
    404 of a number that was never a game, whatever they asked of it, so that no answer tells a
    stranger which numbers are private games."""
    games = Game.objects.visible_to(request.user).select_related("seat0", "seat1")
    return get_object_or_404(games, pk=pk)


def missing_thing(path: str) -> str:
    """What the address ``path`` would have shown, as a sentence saying it is not there."""
    try:
        match = resolve(path)
    except Resolver404:
        return "There is no page at this address."
    kwargs = match.kwargs
    if match.view_name == "profile":
        return f"No player called {kwargs['username']}."
    if match.view_name == "games:invitation":
        return "This invitation link leads nowhere: it was cancelled, or mistyped."
    if "pk" in kwargs and match.namespace == "games":
        return (
            f"No game {kwargs['pk']} here: it never existed, was cancelled, or is a private "
            "game between two other players."
        )
    if match.view_name == "rules-kind":
        titles = " and ".join(title for _, title in kinds.choices())
        return f"No rules for a game called {kwargs['kind']}: this site hosts {titles}."
    if match.view_name == "rules-edition":
        editions = " and ".join(EDITIONS)
        return f"No rules for an edition called {kwargs['edition']}: there are the {editions} editions."
    return "There is nothing at this address."


def not_found_page(request: HttpRequest, missing: str) -> HttpResponse:
    return render(request, "404.html", {"missing": missing, "path": request.path}, status=404)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's ``handler404`` (used when DEBUG is off)."""
    return not_found_page(request, missing_thing(request.path_info))

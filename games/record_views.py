"""The downloads of a game's record: JSON to keep or replay, text to read. Each goes through
the game page's rule of who may see a game."""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games import records
from games.models import Game


def _watchable(request: HttpRequest, pk: int) -> Game:
    """The game, if this viewer may watch it; a 404 otherwise, as for its page: a private game
    does not exist for a stranger, and a game not yet begun has no record."""
    game = get_object_or_404(Game.objects.select_related("seat0", "seat1"), pk=pk)
    if game.status in (Game.Status.OPEN, Game.Status.CANCELLED):
        raise Http404("this game has no record")
    user = request.user
    if game.private and game.seat_of(user) is None and not user.is_staff:
        raise Http404("no such game")
    return game


def _attachment(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
@never_cache  # a running game's record grows with every move
def record_json(request: HttpRequest, pk: int) -> HttpResponse:
    game = _watchable(request, pk)
    body = json.dumps(records.export(game), indent=1, ensure_ascii=False)
    return _attachment(body, "application/json", f"game-{game.pk}.json")


@require_GET
@never_cache
def record_text(request: HttpRequest, pk: int) -> HttpResponse:
    game = _watchable(request, pk)
    return _attachment(records.text_log(game), "text/plain", f"game-{game.pk}.txt")

"""What every page shows: how many games wait for the signed-in player's decision, and a
suspended player's suspension."""

from __future__ import annotations

from django.utils.functional import SimpleLazyObject

from games.models import Sanction, count_waiting_for


def turns(request) -> dict:
    """``turn_count``, counted only if a template shows it (the header, the offer of the next
    game), not for every partial drawn with a request (a chat line, a pick): a template calls it.
    Counted once a request: a move's answer draws the live region and the offer of the next
    game (games.web.next_game), both after the move committed."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def turn_count() -> int:
        count = getattr(request, "turn_count", None)
        if count is None:
            count = request.turn_count = count_waiting_for(user)
        return count

    return {"turn_count": turn_count}


def sanctions(request) -> dict:
    """A suspended player is told why and until when on every page (asked only by a page that
    shows it: base.html, not the partials a move or a push swaps in)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"suspension_words": SimpleLazyObject(lambda: _suspension(user))}


def _suspension(user) -> str:
    suspension = Sanction.objects.told_to(user).get("suspension")
    return suspension.told() if suspension is not None else ""

"""What every page shows: how many games wait for the signed-in player's decision."""

from __future__ import annotations

from games.models import Game


def turns(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    # Counted once a request: a move's answer draws the live region and the offer of the next
    # game (games.web.next_game), both after the move committed.
    count = getattr(request, "turn_count", None)
    if count is None:
        count = request.turn_count = Game.objects.waiting_for(user).count()
    return {"turn_count": count}

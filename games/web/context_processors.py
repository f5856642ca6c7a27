"""What every page shows: how many games wait for the signed-in player's decision."""

from __future__ import annotations

from games.models import Game


def turns(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"turn_count": Game.objects.waiting_for(user).count()}

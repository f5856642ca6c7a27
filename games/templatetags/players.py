"""How a template names a player: ``{{ game.seat0|player }}`` is "deleted player" for a closed
account (``games.models.player_name``), and ``{% if name|closed %}`` leaves out the link to a
profile that is gone."""

from __future__ import annotations

from django import template

from games.models import is_closed, player_name

register = template.Library()


@register.filter
def player(user) -> str:
    """``user`` (an account or a username) as every page names it."""
    return player_name(user, missing="")


@register.filter
def closed(user) -> bool:
    return is_closed(user)

"""What the game page's box of prepared replies shows (templates/games/_conditional.html), asked
by the template itself so that no push or partial of the game ever computes it:

{% load prepared_replies %}{% prepared_replies_of game user as prepared %}
"""

from __future__ import annotations

from django import template

from games.models import Game
from games.play import conditional
from games.web import prepared

register = template.Library()


@register.simple_tag
def prepared_replies_of(game: Game, user) -> dict:
    """``user``'s lines in ``game`` in words; empty for anyone else, and where no reply can be
    prepared."""
    seat = game.seat_of(user)
    if seat is None or not conditional.offered(game) or game.kind not in prepared.BOARDS:
        return {}
    return {
        "lines": prepared.lines_in_words(game, user, seat),
        "most": conditional.MAX_LINES,
    }

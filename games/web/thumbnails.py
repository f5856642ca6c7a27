"""The small boards of the home page, the watch list and My games: a game's board as a
spectator sees it (the engine's ``view`` for no seat, so nothing hidden), drawn by its kind's
``thumbnail`` and the one template, and kept in the cache by (game, seq)."""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import kinds
from games.models import Game
from games.play import states
from games.web.presenters import seat_names

KEPT = 24 * 3600  # a game that moved on is drawn again under its new seq anyway


def thumbnail(game: Game) -> str:
    """The game's board now, as a small inline SVG with its players and whose turn in words."""
    key = f"thumbnail:{game.pk}:{game.seq}:{game.status}:{get_language()}"
    drawn = cache.get(key)
    if drawn is None:
        seen = game.engine.view(states.load_state(game), None)
        drawn = picture(kinds.of(game), seen, label(game))
        cache.set(key, drawn, KEPT)
    # Drawn by a template, which escaped every word in it; the cache hands back a plain str.
    return mark_safe(drawn)


def picture(kind: kinds.GameKind, seen: dict, words: str) -> str:
    """The board in ``seen`` (an engine's view, or a diagram's cells in its shape), named by
    ``words`` for a screen reader and a tooltip."""
    return render_to_string(
        "games/_thumbnail.html", {**kind.thumbnail(seen), "kind": kind.key, "label": words}
    )


def label(game: Game) -> str:
    names = seat_names(game)
    words = {"game": kinds.of(game).title, "first": names[0], "second": names[1]}
    if game.status == Game.Status.ACTIVE and game.to_decide is not None:
        words["deciding"] = names[game.to_decide]
        return _("%(game)s: %(first)s against %(second)s, %(deciding)s to play") % words
    return _("%(game)s: %(first)s against %(second)s") % words


def boards(games) -> list[dict]:
    """Each game in play with the player it waits for and its small board, for the lists."""
    return [
        {
            "game": game,
            "deciding": game.player(game.to_decide) if game.to_decide is not None else None,
            "thumbnail": thumbnail(game),
        }
        for game in games
    ]

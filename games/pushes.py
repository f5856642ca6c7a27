"""What the game's sockets share: one rendering of a push per (game, seq, point of view), and a
count of each user's open sockets.

A spectator's push holds no form and so nothing of the spectator: a hundred watchers of a game
get one rendering per move. A player's holds their choices and their CSRF token, so it is kept
apart by that token too (two tabs of one player usually share it).
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock

from django.conf import settings
from django.template.loader import render_to_string

from games import services
from games.models import Game
from games.presenters import game_context

PUSHED_PARTIALS = ("status", "market", "board", "log")
_RENDERED_MAX = 512  # pushes of about 20-60 KB each: at most about 30 MB

_rendered: OrderedDict[tuple, str] = OrderedDict()
_render_lock = Lock()


def render_push(game_id: int, user, seat: int | None, csrf_token: str) -> str:
    """The partials of game ``game_id`` as ``user`` (in ``seat``, or watching) sees them now."""
    game = Game.objects.select_related("seat0", "seat1").get(pk=game_id)
    # The row's last change, not only its seq: a game can end without a move (a clock).
    key = (game.pk, game.seq, game.updated_at, seat, csrf_token if seat is not None else "")
    with _render_lock:  # one rendering at a time: the others wait, then find it here
        html = _rendered.get(key)
        if html is None:
            html = _rendered[key] = render_partials(game, user, csrf_token)
            while len(_rendered) > _RENDERED_MAX:
                _rendered.popitem(last=False)
        _rendered.move_to_end(key)
    return html


def render_partials(game: Game, user, csrf_token: str) -> str:
    state = services.load_state(game)
    context = game_context(game, state, user)
    context.update(oob=True, csrf_token=csrf_token)
    return "".join(render_to_string(f"games/game.html#{name}", context) for name in PUSHED_PARTIALS)


def forget_rendered() -> None:
    with _render_lock:
        _rendered.clear()


# -- sockets per user, or per address for anonymous spectators -------------------------------

_open: dict[tuple, int] = {}
_open_lock = Lock()


def socket_owner(user, address: str | None) -> tuple:
    """Whom a socket counts against: a signed-in user, or an anonymous visitor's address (a
    session is no limit: a script opens a new one with every socket)."""
    if user.is_authenticated:
        return ("user", user.pk)
    return ("address", address or "")


def _cap(owner: tuple) -> int:
    return settings.WEBSOCKETS_PER_USER if owner[0] == "user" else settings.WEBSOCKETS_PER_ADDRESS


def open_socket(owner: tuple) -> bool:
    """Count a new socket of ``owner``; False (and not counted) past the cap, in this process."""
    with _open_lock:
        count = _open.get(owner, 0)
        if count >= _cap(owner):
            return False
        _open[owner] = count + 1
        return True


def forget_sockets() -> None:
    with _open_lock:
        _open.clear()


def close_socket(owner: tuple) -> None:
    with _open_lock:
        count = _open.get(owner, 0) - 1
        if count > 0:
            _open[owner] = count
        else:
            _open.pop(owner, None)

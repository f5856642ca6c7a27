"""What the game's sockets share: one rendering of a push per (game, seq, point of view,
language and time zone), and a count of each user's open sockets.

A spectator's push holds no form and so nothing of the spectator but their language and zone: a
hundred watchers of a game get one rendering per move and language. A player's holds their
choices and their CSRF token, so it is kept apart by that token too (two tabs of one player
usually share it).

A player's socket open in this process is known here (``player_socket_opened``), so that the
move's own request draws the opponent's push as soon as the move commits, before it is announced
(``prepare_players_pushes``): the opponent's socket then sends it without waiting for a worker
thread, which the mover's answer and every other game's work hold in turn. A socket in another
process draws its own, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from threading import Lock

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.live.announce import version
from games.models import Game, count_waiting_for, game_with_players
from games.play import states
from games.web.middleware import compacted
from games.web.presenters import game_context

log = logging.getLogger(__name__)

_RENDERED_MAX = 512  # pushes of about 20-60 KB each: at most about 30 MB

_rendered: OrderedDict[tuple, str] = OrderedDict()
_render_lock = Lock()


# A socket's language and time zone (None: UTC), as its page was asked for (games.web.locale).
Locale = tuple[str, str | None]
ENGLISH: Locale = ("en", None)


def _key(game_id: int, announced: str, seat: int | None, csrf_token: str, where: Locale) -> tuple:
    return (game_id, announced, seat, csrf_token if seat is not None else "", where)


def cached_push(
    game_id: int, announced: str | None, seat: int | None, csrf_token: str, where: Locale = ENGLISH
):
    """The push already rendered for the version a move's announcement carried, or None.

    No query and no lock (a dict read is atomic), so an asynchronous consumer can ask first:
    a hundred watchers of a game cost one rendering and one query, not a hundred.
    """
    if announced is None:
        return None
    return _rendered.get(_key(game_id, announced, seat, csrf_token, where))


def render_push(
    game_id: int,
    user,
    seat: int | None,
    csrf_token: str,
    announced: str | None = None,
    where: Locale = ENGLISH,
) -> str:
    """The partials of game ``game_id`` as ``user`` (in ``seat``, or watching) sees them now, in
    ``where``'s language and zone; the rendering for ``announced`` if another socket made it
    while this one waited."""
    with _render_lock:  # one rendering at a time: the others wait, then find it here
        html = cached_push(game_id, announced, seat, csrf_token, where)
        if html is not None:
            return html
        game = _row(game_id, announced)
        key = _key(game.pk, version(game), seat, csrf_token, where)
        html = _rendered.get(key)
        if html is None:
            with translation.override(where[0]), timezone.override(where[1]):
                html = _rendered[key] = render_partials(game, user, csrf_token)
            while len(_rendered) > _RENDERED_MAX:
                _rendered.popitem(last=False)
        _rendered.move_to_end(key)
    return html


_ROWS_MAX = 256
_rows: OrderedDict[tuple[int, str], Game] = OrderedDict()  # read under _render_lock


def _row(game_id: int, announced: str | None) -> Game:
    """The game's row at the version a move's announcement carried, read once in this process
    for all the viewers it is drawn for (the opponent, then the spectators: one query, not
    two); read afresh without an announced version, or once it has moved on."""
    if announced is not None:
        game = _rows.get((game_id, announced))
        if game is not None:
            return game
    game = game_with_players(game_id)
    if game is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    _rows[(game.pk, version(game))] = game
    while len(_rows) > _ROWS_MAX:
        _rows.popitem(last=False)
    return game


_watchers_waiting: dict[tuple, asyncio.Future] = {}


async def watchers_push(game_id: int, announced: str | None, user, where: Locale = ENGLISH) -> str:
    """A spectator's push, for the consumer's event loop: the first watcher of a version (in a
    language and zone) to ask renders it in a worker thread, and the others await that same
    rendering instead of each taking a turn on the thread."""
    html = cached_push(game_id, announced, None, "", where)
    if html is not None:
        return html
    if announced is None:
        return await database_sync_to_async(render_push)(game_id, user, None, "", None, where)
    key = _key(game_id, announced, None, "", where)
    rendering = _watchers_waiting.get(key)
    if rendering is None:
        rendering = asyncio.ensure_future(
            database_sync_to_async(render_push)(game_id, user, None, "", announced, where)
        )
        _watchers_waiting[key] = rendering
        rendering.add_done_callback(lambda done: _forget_waiting(key, done))
    return await asyncio.shield(rendering)


def _forget_waiting(key: tuple, done: asyncio.Future) -> None:
    if _watchers_waiting.get(key) is done:
        del _watchers_waiting[key]


def render_partials(game: Game, user, csrf_token: str) -> str:
    state = states.load_state(game)
    context = game_context(game, state, user, pushed=True)
    context.update(oob=True, csrf_token=csrf_token)
    kind = context["kind"]
    # Without the templates' indentation, as a page is sent: drawn once for all its sockets.
    return compacted(
        "".join(render_to_string(f"{kind.template}#{name}", context) for name in kind.pushed)
    )


def players_turns(user, seq: int | None = None) -> str:
    """The header's count of the games waiting for ``user``, swapped out of band; with ``seq``,
    it is the push of that seq (every push carries its seq)."""
    return render_to_string(
        "base.html#turns",
        {"turn_count": count_waiting_for(user), "oob": True, "pushed_seq": seq},
    )


# -- the opponent's push drawn by the move's request ----------------------------------------

# A player's socket in this process: (seat, user, CSRF token, where), by game and channel.
_players_here: dict[int, dict[str, tuple]] = {}
_players_lock = Lock()
# The header's count drawn with a prepared push, by its _key and the player: the partials
# themselves are those kept in _rendered under the same _key.
_prepared_turns: OrderedDict[tuple, str] = OrderedDict()


def player_socket_opened(game_id: int, channel: str, seat: int, user, token: str, where) -> None:
    with _players_lock:
        _players_here.setdefault(game_id, {})[channel] = (seat, user, token, where)


def player_socket_closed(game_id: int, channel: str) -> None:
    with _players_lock:
        sockets = _players_here.get(game_id)
        if sockets is not None:
            sockets.pop(channel, None)
            if not sockets:
                del _players_here[game_id]


def prepare_players_pushes(game: Game, by: int | None) -> None:
    """Draw the push of each player's socket in this process on ``game`` (the opponent's: not
    seat ``by``, whose request answers it), for the version about to be announced. Called from
    the committed move's request; a failure is logged and the socket draws its own."""
    with _players_lock:
        sockets = list(_players_here.get(game.pk, {}).values())
    announced = version(game)
    for seat, user, token, where in sockets:
        key = (_key(game.pk, announced, seat, token, where), user.pk)
        if seat == by or key in _prepared_turns:
            continue  # the mover's own tabs are told only the seq; two tabs, one drawing
        try:
            render_push(game.pk, user, seat, token, announced, where)  # kept in _rendered
            with translation.override(where[0]), timezone.override(where[1]):
                turns = players_turns(user)
        except Exception:  # the move is committed: its push is best-effort, as announce's is
            log.exception("could not prepare the push of game %s for seat %s", game.pk, seat)
            continue
        with _render_lock:
            _prepared_turns[key] = turns
            while len(_prepared_turns) > _RENDERED_MAX:
                _prepared_turns.popitem(last=False)


def on_game_changed(game, by: int | None = None, **_facts) -> None:
    """A listener of ``games.events.game_changed``, before the announcement (games.apps)."""
    prepare_players_pushes(game, by)


def prepared_push(
    game_id: int, announced: str | None, seat: int, user, token: str, where
) -> str | None:
    """A player's push drawn by the move's request for the version announced (its partials and
    the header's count), or None: dict reads, for the consumer's event loop."""
    if announced is None:
        return None
    key = _key(game_id, announced, seat, token, where)
    turns = _prepared_turns.get((key, user.pk))
    partials = _rendered.get(key) if turns is not None else None
    return None if partials is None else partials + turns


def forget_rendered() -> None:
    with _render_lock:
        _rendered.clear()
        _rows.clear()
        _prepared_turns.clear()
    _watchers_waiting.clear()


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
    with _players_lock:
        _players_here.clear()


def close_socket(owner: tuple) -> None:
    with _open_lock:
        count = _open.get(owner, 0) - 1
        if count > 0:
            _open[owner] = count
        else:
            _open.pop(owner, None)

"""The only ways a game changes: create, accept, cancel, and ``submit_action``.

``submit_action`` is the one door through which a move reaches the database: lock the game,
check who may act and that the page was fresh, apply through the engine, append, commit.
"""

from __future__ import annotations

import logging
import secrets
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine
from games.models import Action, Game

log = logging.getLogger(__name__)


class MoveRejected(Exception):
    """A move the site refuses; ``status`` is the HTTP status that fits."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotAllowed(MoveRejected):
    status = 403


class StaleMove(MoveRejected):
    status = 409


# -- creating and joining games ----------------------------------------------------------------


@dataclass(frozen=True)
class GameSettings:
    """What a creator chooses in the lobby. New options (clocks) grow here."""

    edition: str = "2022"
    expansion: bool = False
    remove_six: bool = False
    first: str = "random"  # "me", "opponent" or "random"
    private: bool = False


def create_game(user, settings: GameSettings) -> Game:
    # The creator always sits in seat 0; who moves first is decided now, as the rules say.
    if settings.first == "me":
        first = 0
    elif settings.first == "opponent":
        first = 1
    else:
        first = secrets.randbelow(2)
    options = engine.Options(
        edition=settings.edition,
        expansion=settings.expansion,
        remove_six=settings.expansion and settings.remove_six,
        first_player=first,
    )
    return Game.objects.create(
        created_by=user,
        seat0=user,
        edition=settings.edition,
        options=options.to_json(),
        private=settings.private,
    )


def accept_game(game: Game, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.OPEN:
            raise StaleMove("this game has already been taken or cancelled")
        if game.seat0_id == user.pk:
            raise NotAllowed("you cannot play against yourself: wait for an opponent")
        game.seat1 = user
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        state = load_state(game)
        game.to_decide = state.to_decide
        game.save()
    return game


def cancel_game(game: Game, user) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.created_by_id != user.pk:
            raise NotAllowed("only the player who opened this game can cancel it")
        if game.status != Game.Status.OPEN:
            raise StaleMove("only a game still waiting for an opponent can be cancelled")
        game.status = Game.Status.CANCELLED
        game.save()
    return game


# -- the state: replayed from the log, cached by (game, seq) ---------------------------------

_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, engine.State]] = OrderedDict()
_cache_lock = Lock()


def replay_game(game: Game, upto: int | None = None) -> engine.State:
    """The state rebuilt from the log alone (the truth), optionally after action ``upto``."""
    actions = game.actions.order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    return engine.replay(game.engine_options, game.seed, [a.data for a in actions])


def load_state(game: Game) -> engine.State:
    """The game's current state: a cached copy if it is for this seq, else a replay."""
    with _cache_lock:
        hit = _cache.get(game.pk)
        if hit and hit[0] == game.seq:
            _cache.move_to_end(game.pk)
            return hit[1]
    state = replay_game(game)
    if len(state.history) != game.seq:
        log.error("game %s: log has %s actions, row says %s", game.pk, len(state.history), game.seq)
    _remember(game.pk, len(state.history), state)
    return state


def _remember(game_id: int, seq: int, state: engine.State) -> None:
    with _cache_lock:
        _cache[game_id] = (seq, state)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def forget_cached_states() -> None:
    with _cache_lock:
        _cache.clear()


# -- the one door for a move ------------------------------------------------------------------


def submit_action(game: Game, user, data: object, expected_seq: int) -> Game:
    """Apply ``data`` (an engine action as JSON) for ``user``, or raise MoveRejected.

    Nothing is written unless everything checks out; a concurrent submission for the same seq
    either waits for the lock and is then stale, or fails the (game, seq) unique constraint.
    """
    try:
        action = engine.Action.from_json(data)
    except engine.IllegalAction as error:
        raise MoveRejected(str(error)) from None
    try:
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(of=("self",))
                .select_related("seat0", "seat1")
                .get(pk=game.pk)
            )
            seat = game.seat_of(user)
            if seat is None:
                raise NotAllowed("only the two players of this game can act in it")
            if game.status != Game.Status.ACTIVE:
                raise StaleMove("this game is not in play")
            if expected_seq != game.seq:
                raise StaleMove("the game has moved on since your page was drawn: here it is now")
            state = load_state(game)
            if state.to_decide != seat:
                raise NotAllowed("it is not your decision now")
            try:
                following = engine.apply_action(state, action)
            except engine.IllegalAction as error:
                raise MoveRejected(str(error)) from None
            Action.objects.create(
                game=game, seq=game.seq + 1, player=seat, user=user, data=action.to_json()
            )
            game.seq += 1
            _record_progress(game, following)
            game.save()
            transaction.on_commit(lambda: _after_commit(game, following))
    except IntegrityError:
        raise StaleMove("another move was made at the same moment: here is the game now") from None
    return game


def _record_progress(game: Game, state: engine.State) -> None:
    game.to_decide = state.to_decide
    game.scores = list(state.returns())
    if state.finished:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.winners = list(state.outcome.winners)
        game.termination = state.outcome.termination


def _after_commit(game: Game, state: engine.State) -> None:
    _remember(game.pk, game.seq, state)
    from games import live  # imported late: live needs the channel layer set up

    live.announce(game)

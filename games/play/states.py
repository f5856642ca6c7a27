"""The states of a game, replayed from its log (the truth) and kept in memory by (game, seq).

A log only ever grows, so a state once replayed stays true: the current state of each game
recently played is kept, and earlier states (the replay, "since your last move", the last
move's marks) are rebuilt from the nearest snapshot below them.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from threading import Lock

from games.engine.interface import GameState
from games.engine.takeback import is_takeback
from games.models import Game
from games.play import timing

log = logging.getLogger(__name__)


# -- the state: replayed from the log, cached by (game, seq) ---------------------------------

_CACHE_SIZE = 256
_cache: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
_cache_lock = Lock()


def replay_game(game: Game, upto: int | None = None) -> GameState:
    """The state rebuilt from the log alone (the truth), optionally after action ``upto``."""
    actions = game.actions.order_by("seq")
    if upto is not None:
        actions = actions.filter(seq__lte=upto)
    return game.engine.replay(game.engine_options, game.seed, [a.data for a in actions])


def load_state(game: Game) -> GameState:
    """The game's current state: a cached copy if it is for this seq, else a replay."""
    with _cache_lock:
        hit = _cache.get(game.pk)
        if hit and hit[0] == game.seq:
            _cache.move_to_end(game.pk)
            return hit[1]
    state = replay_game(game)
    if len(state.history) != game.seq:
        log.error("game %s: log has %s actions, row says %s", game.pk, len(state.history), game.seq)
    remember(game.pk, len(state.history), state)
    return state


def cached_state(game: Game) -> GameState | None:
    with _cache_lock:
        hit = _cache.get(game.pk)
    return hit[1] if hit and hit[0] == game.seq else None


def remember(game_id: int, seq: int, state: GameState) -> None:
    with _cache_lock:
        _cache[game_id] = (seq, state)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def forget_cached_states() -> None:
    with _cache_lock:
        _cache.clear()
        _snapshots.clear()
    timing.forget_decisions()


# -- earlier states of a game: the replay, "since your last move", the last move's marks ---------
#
# A log only ever grows, so the state after its first ``step`` actions never changes: they are
# kept by (game, step), with a snapshot every SNAPSHOT_EVERY actions on the way, and an earlier
# state is rebuilt from the nearest one below it (at most SNAPSHOT_EVERY - 1 actions to apply).

SNAPSHOT_EVERY = 16
_SNAPSHOTS_MAX = 512  # states of a few tens of KB each: some 10-20 MB at most
_snapshots: OrderedDict[tuple[int, int], GameState] = OrderedDict()


def state_at(game: Game, step: int) -> GameState:
    """The state after the first ``step`` actions of the game's log (0: the new game)."""
    step = max(0, min(step, game.seq))
    if step == game.seq:
        return load_state(game)
    with _cache_lock:
        for below in range(step, step - SNAPSHOT_EVERY, -1):
            hit = _snapshots.get((game.pk, below))
            if hit is not None:
                _snapshots.move_to_end((game.pk, below))
                break
        else:
            below, hit = 0, None
    if hit is not None and below == step:
        return hit
    datas = list(
        game.actions.filter(seq__gt=below, seq__lte=step)
        .order_by("seq")
        .values_list("data", flat=True)
    )
    state, done = hit, below
    while state is None or done < step:
        upto = min(step, (done // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY)
        chunk = datas[done - below : upto - below]
        state = game.engine.replay(game.engine_options, game.seed, chunk, start=state)
        done = upto
        keep(game.pk, done, state)
    return state


def keep(game_id: int, step: int, state: GameState) -> None:
    with _cache_lock:
        _snapshots[(game_id, step)] = state
        _snapshots.move_to_end((game_id, step))
        while len(_snapshots) > _SNAPSHOTS_MAX:
            _snapshots.popitem(last=False)


def last_run_start(state: GameState) -> int:
    """How many actions came before the trailing run of actions by one player (0 if none)."""
    history = state.history
    start = len(history)
    while start > 0 and history[start - 1]["player"] == history[-1]["player"]:
        start -= 1
    return start


def _after_takeback(state: GameState, start: int) -> int:
    """``start``, moved past the last takeback at or after it: what a takeback put back is no
    change to mark (games.engine.takeback), and the action it took back is gone."""
    history = state.history
    for index in range(len(history) - 1, start - 1, -1):
        if is_takeback(history[index]["action"]):
            return index + 1
    return start


def since_start(state: GameState, seat: int | None) -> int:
    """Where "since your last move" begins for ``seat``: just after their last action, if
    others acted after it; otherwise (a spectator, or the seat moved last) the start of the
    last run of one player's actions, as for everyone."""
    history = state.history
    if seat is not None:
        for index in range(len(history) - 1, -1, -1):
            if history[index]["player"] == seat:
                if index + 1 < len(history):
                    return _after_takeback(state, index + 1)
                break
    return _after_takeback(state, last_run_start(state))


def load_run_start(game: Game, state: GameState, seat: int | None = None) -> GameState:
    """The state from which the page marks what changed: for a player, the state just after
    their last action; otherwise the state before the last player's run of actions."""
    return state_at_of(game, state, since_start(state, seat))


def state_at_of(game: Game, state: GameState, step: int) -> GameState:
    """``state_at``, for ``state`` (the game's current state or one of its replays)."""
    if step == len(state.history):
        return state
    return state_at(game, step)

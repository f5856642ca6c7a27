"""Version 1 of the Cathedral rules, as the games stored before version 2 were played.

The engine is one: every rule that changed reads ``state.version``, so this module only starts
and replays games on version 1, gives the site version 1's drawings of the buildings, and hands
everything else to the current engine. What version 2 changed (RULINGS.md §6): each region a
building closes is judged on its own, so one move may capture in two regions (version 1 counted
the isolated pieces over the whole move and captured none of two), and dark's Abbey is the Z
(version 1 gave dark the S, light the Z).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import Action, Options, State
from . import new_game as _new_game
from . import replay as _replay
from .buildings import BUILDINGS_OF

VERSION = "1"
BUILDINGS = BUILDINGS_OF[VERSION]


def new_game(options: Options, seed: int = 0) -> State:
    """A new game played by version 1 of the rules."""
    return _new_game(options, seed, VERSION)


def replay(
    options: Options,
    seed: int,
    actions: Iterable[Action | dict],
    check: bool = False,
    start: State | None = None,
) -> State:
    """A game of version 1 rebuilt from its log (see the current engine's ``replay``)."""
    return _replay(options, seed, actions, check, start, VERSION)


def __getattr__(name: str):
    from games.engine import cathedral  # every other name is the current engine's

    return getattr(cathedral, name)

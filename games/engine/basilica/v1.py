"""Version 1 of the Basilica rules, as the games stored before version 2 were played.

The engine is one: every rule that changed reads ``state.version``, so this module only starts
and replays games on version 1 and hands everything else to the current engine. What version 2
changed (RULINGS.md §5): the Altar order places two altars whenever a second vault qualifies
and a token is left (version 1 offered ``skip_altar``), and Confuse is judged in the position in
which it is chosen (version 1 judged it after the player's own builder had gone home).
"""

from __future__ import annotations

from collections.abc import Iterable

from . import Action, Options, State
from . import new_game as _new_game
from . import replay as _replay

VERSION = "1"


def new_game(options: Options, seed: int) -> State:
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
    from games.engine import basilica  # every other name is the current engine's

    return getattr(basilica, name)

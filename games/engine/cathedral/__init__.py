"""The public interface of the Cathedral rules engine (Robert P. Moore's game).

A game is ``new_game(options, seed)`` (the seed is unused: the game has no chance); whoever
``state.to_decide`` names picks one of ``legal_actions(state)`` and ``apply_action`` returns
the next state. A player who cannot place is passed automatically, so ``to_decide`` always
names a seat with a legal placement. A saved game is its options and list of actions:
``replay`` rebuilds the state from them. ``view(state, player)`` is the state for a viewer
(nothing is hidden in Cathedral). ``BUILDINGS`` is the data the site draws buildings from.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .. import takeback
from ..interface import IllegalAction, MalformedAction, Outcome, Reason
from .actions import Action
from .buildings import BUILDINGS, NAMES, SQUARES_PER_SIDE, cell_label, parse_label
from .rules import ALL_PLACED, NO_MORE_PLACEMENTS, legal_actions, perform, why_illegal
from .state import Options, State
from .versions import VERSION
from .view import consequences, view

NAME = "cathedral"
TITLE = "Cathedral"
# Nothing is hidden and nothing is left to chance: a player may prepare replies to the
# opponent's moves (conditional moves).
PERFECT_INFORMATION = True

__all__ = [
    "ALL_PLACED",
    "BUILDINGS",
    "NAME",
    "NO_MORE_PLACEMENTS",
    "PERFECT_INFORMATION",
    "SQUARES_PER_SIDE",
    "TITLE",
    "VERSION",
    "Action",
    "IllegalAction",
    "MalformedAction",
    "Options",
    "Outcome",
    "State",
    "apply_action",
    "cell_label",
    "describe_action",
    "determinize",
    "legal_actions",
    "new_game",
    "parse_label",
    "replay",
    "reveal",
    "take_back",
    "takeback_refusal",
    "view",
]


def new_game(options: Options, seed: int = 0, version: str = VERSION) -> State:
    """An empty city, all buildings in hand; light is to place the Cathedral (Tom Lehman's
    variant: dark its first building). ``seed`` is kept for the interface: nothing is random.
    The game is played by the rules of ``version`` (the current one unless a stored game names
    an earlier one)."""
    return State(options, version)


def _action(action: Action | dict) -> Action:
    return action if isinstance(action, Action) else Action.from_json(action)


def apply_action(state: State, action: Action | dict) -> State:
    """The state after ``action`` (an Action or its JSON) by ``state.to_decide``; ``state``
    itself is left as it was. Raises ``IllegalAction`` saying why, in a player's words, if the
    placement is not legal now, and ``MalformedAction`` if ``action`` is JSON that is no
    placement at all (both ``ValueError``)."""
    action = _action(action)
    problem = why_illegal(state, action)
    if problem:
        raise IllegalAction(problem)
    following = state.copy()
    perform(following, action)
    return following


def replay(
    options: Options,
    seed: int,
    actions: Iterable[Action | dict],
    check: bool = False,
    start: State | None = None,
    version: str = VERSION,
) -> State:
    """Rebuild a game from its log: a fold of the actions over the new game.

    A stored log was checked when each action was written, so by default it is not checked
    again; ``check=True`` checks every action as ``apply_action`` would. ``start`` (a state
    of this game, left unchanged) goes on from there instead of from the new game, whose rules
    are those of ``version``.
    """
    state = new_game(options, seed, version) if start is None else start.copy()
    for action in actions:
        if takeback.is_takeback(action):
            state = _taken_back(state, action, check)
            continue
        if not isinstance(action, Action):
            action = Action.from_log(action)
        if check:
            problem = why_illegal(state, action)
            if problem:
                number = len(state.history) + 1
                raise IllegalAction(Reason("action {number}: {rule}", number=number, rule=problem))
        perform(state, action)
    return state


def _taken_back(state: State, data: dict, check: bool) -> State:
    return takeback.rebuilt(
        state,
        data,
        lambda: new_game(state.options, 0, state.version),
        lambda following, action: perform(following, Action.from_log(action)),
        lambda before, after: None,
        check,
    )


def take_back(state: State) -> State:
    """The state after the last action of ``state`` is taken back, by agreement; raises
    ``IllegalAction`` saying why it cannot be (``takeback_refusal``)."""
    return _taken_back(state, takeback.marker(len(state.history)), check=True)


def takeback_refusal(before: State, state: State, player: int | None = None) -> Reason | None:
    """Why the last action of ``state`` (by ``player``) cannot be taken back, or None: only
    when the other player has acted since (or there is none), as nothing is hidden."""
    return takeback.generic_refusal(state, player)


def reveal(state: State) -> dict:
    """The view with nothing hidden, for the replay of a finished game: Cathedral hides nothing."""
    return view(state, None)


def determinize(state: State, player: int | None, rng: random.Random) -> State:
    """A full state consistent with what ``player`` sees: a copy, as Cathedral hides nothing."""
    return state.copy()


def describe_action(state: State, action: Action | dict) -> str:
    """The placement in words, with what it would claim and capture if it is legal now:
    "place the Tower on D4-F6, claiming 7 squares"."""
    action = _action(action)
    name = NAMES[action.building]
    if why_illegal(state, action):
        return f"place the {name} at {cell_label(action.col, action.row)}, turn {action.turn}"
    following = state.copy()
    perform(following, action)
    _, _, _, building, squares, claimed, captures = following.events[len(state.events)]
    light = state.options.light
    return "place " + consequences(building, squares, claimed, captures, light, ahead=True)

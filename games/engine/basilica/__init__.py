"""The public interface of the Basilica rules engine.

A game is ``new_game(options, seed)``; whoever ``state.to_decide`` names picks one of
``legal_actions(state)`` and ``apply_action`` returns the next state. A saved game is its options,
seed and list of actions: ``replay`` rebuilds the state from them. ``view(state, player)`` is the
only way a state leaves the engine for a viewer: it leaves out the stack order, the seed and any
Jester colour not yet revealed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from .. import takeback
from ..interface import IllegalAction, MalformedAction, Reason
from .actions import Action, describe, kind_of
from .components import COLORS, Options
from .flow import deal
from .rules import is_legal, legal_actions, perform, why_illegal
from .scoring import ScoreReport, score_cathedral
from .state import (
    VERSION,
    Outcome,
    State,
    cell_key,
    cell_label,
    parse_key,
    parse_label,
)
from .view import HIDDEN_PICK, reveal, view

NAME = "basilica"
TITLE = "Basilica"
# The stack's order is hidden and a turn is three actions: no replies can be prepared.
PERFECT_INFORMATION = False

__all__ = [
    "HIDDEN_PICK",
    "NAME",
    "PERFECT_INFORMATION",
    "TITLE",
    "VERSION",
    "Action",
    "IllegalAction",
    "MalformedAction",
    "Options",
    "Outcome",
    "ScoreReport",
    "State",
    "apply_action",
    "cell_key",
    "cell_label",
    "describe_action",
    "determinize",
    "legal_actions",
    "new_game",
    "parse_key",
    "parse_label",
    "replay",
    "reveal",
    "score_cathedral",
    "take_back",
    "takeback_refusal",
    "view",
]


def new_game(options: Options, seed: int, version: str = VERSION) -> State:
    """A new game: tiles shuffled by ``seed``, three orders and three vaults on offer, played
    by the rules of ``version`` (the current one unless a stored game names an earlier one)."""
    state = State(options, seed, version)
    deal(state)
    return state


def apply_action(state: State, action: Action | dict) -> State:
    """The state after ``action``; ``state`` itself is left as it was.

    Raises ``IllegalAction`` naming the rule if the action is not legal now, and
    ``MalformedAction`` if ``action`` is JSON that is no action at all (both ``ValueError``).
    """
    if not isinstance(action, Action):
        action = Action.from_json(action)
    if not is_legal(state, action):
        raise IllegalAction(why_illegal(state, action))
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
        if check and not is_legal(state, action):
            number = len(state.history) + 1
            raise IllegalAction(
                Reason(
                    "action {number}: {reason}", number=number, reason=why_illegal(state, action)
                )
            )
        perform(state, action)
    return state


def _taken_back(state: State, data: dict, check: bool) -> State:
    return takeback.rebuilt(
        state,
        data,
        lambda: new_game(state.options, state.seed, state.version),
        lambda following, action: perform(following, Action.from_log(action)),
        _revealed,
        check,
    )


def take_back(state: State) -> State:
    """The state after the last action of ``state`` is taken back, by agreement; raises
    ``IllegalAction`` saying why it cannot be (``takeback_refusal``)."""
    return _taken_back(state, takeback.marker(len(state.history)), check=True)


def takeback_refusal(before: State, state: State, player: int | None = None) -> Reason | None:
    """Why the last action of ``state`` (by ``player``) cannot be taken back, or None.

    ``before`` is the state before that action. An action after which anything hidden was
    shown cannot be: a tile drawn from the stack (every vault placed and order executed, once
    its follow-ups are done, refills the market; a refresh of the vaults, a reshuffle or the
    stack running out), which also shows the next tile's order side (RULINGS.md §3); or a
    scoring, which reveals the Jester picks. Nor can one after which the other player acted.
    """
    return takeback.generic_refusal(state, player) or _revealed(before, state)


def _revealed(before: State, state: State) -> Reason | None:
    seq = len(state.history)
    drawn = (
        before.stack != state.stack
        or before.exhaustions != state.exhaustions
        or any(event["seq"] == seq for event in state.events)
    )
    if drawn:
        return Reason("that action showed what was hidden (a tile drawn, a Jester pick revealed)")
    return None


def determinize(state: State, player: int | None, rng: random.Random) -> State:
    """A full state that ``player`` cannot tell from ``state``, its secrets drawn with ``rng``:
    for a bot, which may know only what its seat sees.

    The result depends on ``rng`` and on what ``player`` sees or remembers (``view`` and the
    log) and on nothing else: each secret is put in a canonical order before it is shuffled.
    The top of the stack lies order side up (RULINGS.md §3), so it stays where it is. The tiles
    never seen (the rest of the stack and, with remove-six, the six removed) are dealt anew
    between the two; after the reshuffle the stack is the old discard pile, whose tiles
    everyone saw, so only the order below its top is drawn (and the removed six are then the
    only tiles never seen). The seed, which orders a reshuffle to come, is drawn; so is the
    colour of every Jester of the other player's whose pick is not revealed yet, in the log too.
    """
    sample = state.copy()
    top = state.stack[-1:]
    stack, removed = sorted(state.stack[:-1]), sorted(state.removed)
    if state.exhaustions == 0:
        unseen = sorted(stack + removed)  # which of them were removed is secret too
        rng.shuffle(unseen)
        stack, removed = unseen[: len(stack)], sorted(unseen[len(stack) :])
    else:
        rng.shuffle(stack)
    sample.stack, sample.removed = stack + top, removed
    sample.seed = rng.getrandbits(63)
    hidden = {
        key: _jester_colors_lacking(state, key)
        for key in sorted(state.jester_picks)
        if state.cells[parse_key(key)].builder != player
    }
    if hidden:
        drawn = {key: rng.choice(colors) for key, colors in hidden.items()}
        sample.jester_picks.update(drawn)
        last_scoring = max((e["seq"] for e in state.events if e["kind"] == "scoring"), default=0)
        for index in range(last_scoring, len(state.history)):
            entry = state.history[index]
            action = entry["action"]
            if kind_of(action) == "jester":
                key = cell_key(action["col"], action["row"])
                if key in drawn:
                    sample.history[index] = {**entry, "action": {**action, "color": drawn[key]}}
    return sample


def _jester_colors_lacking(state: State, key: str) -> list[str]:
    tile = state.tiles[state.cells[parse_key(key)].tile]
    return [color for color in COLORS if color not in tile.colors]


def describe_action(state: State, action: Action) -> str:
    """The action in the log's words, with the vault's colours."""
    return describe(action, state.tiles)

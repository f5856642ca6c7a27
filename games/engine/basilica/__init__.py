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

from .actions import _FIELDS, KINDS, ORDER_KINDS, Action, IllegalAction, describe
from .board import builders_of, moves_from, placement_cells, touches_wild, view_cells
from .components import COLOR_NAMES, COLORS, ORDER_NAMES, RANK_NAMES, Options
from .flow import deal
from .rules import legal_actions, perform
from .scoring import ScoreReport, score_cathedral
from .state import (
    VERSION,
    WIDTH,
    Outcome,
    State,
    cell_key,
    cell_label,
    parse_key,
    parse_label,
)

NAME = "basilica"
TITLE = "Basilica"

__all__ = [
    "NAME",
    "TITLE",
    "VERSION",
    "Action",
    "IllegalAction",
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

    Raises ``IllegalAction`` (a ``ValueError``) naming the rule if the action is not legal now.
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
        if not isinstance(action, Action):
            action = Action.from_log(action)
        if check and not is_legal(state, action):
            raise IllegalAction(f"action {len(state.history) + 1}: {why_illegal(state, action)}")
        perform(state, action)
    return state


def is_legal(state: State, action: Action) -> bool:
    """Whether ``action`` is one of ``legal_actions(state)``."""
    legal = legal_actions(state)
    # Legal actions and parsed ones are shared instances: an identity scan usually settles it.
    return any(a is action for a in legal) or action in legal


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
            if action["type"] == "jester":
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


# -- the per-viewer view -----------------------------------------------------------------------


def view(state: State, player: int | None) -> dict:
    """What ``player`` (0 or 1; None for a spectator) may see of the game, as JSON-safe data."""
    tiles = state.tiles
    market = {
        "orders": [None if t is None else tiles[t].to_json() for t in state.market_orders],
        "vaults": [None if t is None else tiles[t].to_json() for t in state.market_vaults],
    }
    players = []
    for p, supply in enumerate(state.players):
        players.append(
            {
                "score": supply.score,
                "coins": supply.coins,
                "builders": supply.builders,
                "promotion_tokens": supply.tokens,
                "in_cathedral": len(builders_of(state, p)),
            }
        )
    outcome = state.outcome
    return {
        "viewer": player,
        "edition": state.options.edition,
        "expansion": state.options.expansion,
        "monarch": state.options.monarch,
        "ranks": list(state.options.ranks),
        "turn": state.turn,
        "active_player": state.active,
        "to_decide": state.to_decide,
        "decision": _public_decision(state),
        "actions_left": state.actions_left,
        "last_vault": list(state.last_vault) if state.last_vault else None,
        "king": state.king,
        "scorings": state.scorings,
        "crown_spaces": list(state.options.crown_spaces),
        "rules_version": state.version,
        "stack_count": len(state.stack),
        # The stack lies order side up: everyone sees its top tile's face, nothing below it.
        "stack_top": tiles[state.stack[-1]].to_json() if state.stack else None,
        "discard_count": len(state.discard),
        "removed_count": len(state.removed),
        "reshuffled": state.exhaustions > 0,
        "market": market,
        "cathedral": view_cells(state),
        "players": players,
        "altars_left": state.altars_left,
        "jester_picks": _visible_picks(state, player),
        "jesters_waiting": [d["player"] for d in state.pending if d["kind"] == "jester"],
        "finished": state.finished,
        "winners": list(outcome.winners) if outcome else [],
        "termination": outcome.termination if outcome else None,
        "events": _public_events(state),
        "log": _log(state, player),
        "seq": len(state.history),
    }


def reveal(state: State) -> dict:
    """The view of a game that is over, with nothing hidden: every Jester colour, the stack in
    the order it would have been drawn, the tiles removed before play. Only for games that are
    over (the replay of a finished game): a running game is seen through ``view`` alone."""
    seen = view(state, None)
    tiles = state.tiles
    seen["jester_picks"] = dict(state.jester_picks)
    seen["stack"] = [tiles[t].to_json() for t in reversed(state.stack)]
    seen["removed"] = [tiles[t].to_json() for t in state.removed]
    return seen


def _public_decision(state: State) -> dict | None:
    decision = state.decision
    if decision is None:
        return None
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in decision.items()}


def _visible_picks(state: State, player: int | None) -> dict[str, str]:
    """A player sees their own Jester colours before the scoring reveals them; nobody else does."""
    if player is None:
        return {}
    return {
        key: color
        for key, color in state.jester_picks.items()
        if state.cells[parse_key(key)].builder == player
    }


def _public_events(state: State) -> list[dict]:
    return [dict(e) for e in state.events]


HIDDEN_PICK = "choose a Jester colour (hidden until the scoring)"


def _log(state: State, player: int | None) -> list[dict]:
    """The log as ``player`` may read it, one entry an action.

    Each entry has ``seq``, ``player``, ``text``; ``action``, the action's JSON (without the
    colour of a Jester pick this viewer may not see yet); ``tile``, the face of the market tile
    it took (vault and order actions; those were face up) or None; ``turn`` and ``active``, the
    turn it belongs to and whose turn that was. A ``builder`` entry adds ``cell``, the vault it
    went on; ``pay`` and ``decline`` add ``order``, the paid order answered; ``disaster`` adds
    ``discarded``, the face of the vault it discarded. Each entry is a new dict; the ``action``
    and faces in it are shared between views and must not be changed.
    """
    last_scoring = max((e["seq"] for e in state.events if e["kind"] == "scoring"), default=0)
    entries = []
    for index, entry in enumerate(state.history):
        hidden = (
            entry["action"]["type"] == "jester"
            and index >= last_scoring
            and entry["player"] != player
        )
        known = _SHOWN.get((id(entry), hidden))
        if known is None or known[0] is not entry:
            if len(_SHOWN) >= _SHOWN_MAX:
                _SHOWN.clear()
            shown = _shown(state, index, hidden)
            known = _SHOWN[(id(entry), hidden)] = (entry, shown)
        entries.append(dict(known[1]))
    return entries


# Log entries as shown, by history entry and by whether its Jester colour is hidden: a view
# redraws the whole log on every page, and a state shares the entries of the state it came from.
# The entry is kept alive here, so that its id is not reused; an entry never moves in its log.
_SHOWN: dict[tuple[int, bool], tuple[dict, dict]] = {}
_SHOWN_MAX = 20_000  # about 600 bytes each


def _shown(state: State, index: int, hidden: bool) -> dict:
    entry = state.history[index]
    action = entry["action"]
    kind = action["type"]
    tiles = state.tiles
    if hidden:
        text = HIDDEN_PICK
        public = {"type": kind, "col": action["col"], "row": action["row"]}
    else:
        text = _text(action, tiles)
        public = dict(action)
    turn = entry["turn"]
    tile = action.get("tile")
    shown = {
        "seq": index + 1,
        "player": entry["player"],
        "text": text,
        "action": public,
        "tile": None if tile is None else tiles[tile].to_json(),
        "turn": turn,
        "active": (state.options.first_player + turn - 1) % 2,
    }
    # What the action alone does not say, read from the action before it: a builder goes on
    # the vault just placed, and a paid order is answered right after it is executed.
    previous = state.history[index - 1]["action"] if index else {}
    if kind == "builder":
        shown["cell"] = [previous["col"], previous["row"]]
    elif kind in ("pay", "decline"):
        shown["order"] = previous["type"]
    elif kind == "disaster":
        shown["discarded"] = tiles[entry["discarded"]].to_json()
    return shown


_TEXTS: dict[tuple, str] = {}  # log lines by action (and vault colours): views redraw the log


def _text(action: dict, tiles) -> str:
    colors = tiles[action["tile"]].colors if action["type"] == "vault" else None
    key = (tuple(action.items()), colors)
    text = _TEXTS.get(key)
    if text is None:
        if len(_TEXTS) >= 100_000:
            _TEXTS.clear()
        text = _TEXTS[key] = describe(Action.from_json(action), tiles)
    return text


# -- why an action is refused ------------------------------------------------------------------


def why_illegal(state: State, action: Action) -> str:
    """The rule that forbids ``action`` now, in a player's words."""
    decision = state.decision
    if decision is None:
        return "the game is over"
    if action.kind not in KINDS:
        return f"unknown action type {action.kind!r}"
    kind = decision["kind"]
    if kind != "main":
        expected = {
            "paid": "an answer to the paid-order offer (pay or decline)",
            "confuse_move": "the Confuse move of an opponent's builder",
            "second_scaffold": "the second scaffold",
            "second_altar": "the second altar"
            if state.version != "1"
            else "the second altar, or none",
            "jester": "a Jester colour",
        }[kind]
        if action.kind not in _FOLLOW_UP_KINDS[kind]:
            return f"the game is waiting for {expected}"
        return _why_fields(decision, action) or _why_follow_up(state, decision, action)
    if action.kind in {k for kinds in _FOLLOW_UP_KINDS.values() for k in kinds}:
        return "there is no such decision pending: it is time for a main action"
    problem = _why_fields(decision, action)
    if problem:
        return problem
    if action.kind == "vault":
        return _why_vault(state, action)
    if action.kind == "builder":
        if state.last_vault is None:
            return "Place Builder is only possible immediately after Place Vault"
        return "you have no builder left in your supply"
    return _why_order(state, action)


_FOLLOW_UP_KINDS = {
    "paid": ("pay", "decline"),
    "confuse_move": ("confuse_move",),
    "second_scaffold": ("second_scaffold",),
    "second_altar": ("second_altar", "skip_altar"),
    "jester": ("jester",),
}


_CELL = ("col", "row")
_MOVE = ("col", "row", "to_col", "to_row")
_TAKES = {
    "vault": ("tile", *_CELL),
    "builder": (),
    "promote": ("tile", *_CELL, "rank"),
    "move": ("tile", *_MOVE),
    **{kind: ("tile", *_CELL) for kind in ORDER_KINDS if kind not in ("promote", "move")},
    "decline": (),
    "confuse_move": _MOVE,
    "second_scaffold": _CELL,
    "second_altar": _CELL,
    "skip_altar": (),
    "jester": (*_CELL, "color"),
}
_PAY_TAKES = {"promote": (*_CELL, "rank"), "recruit": _CELL, "confuse": _MOVE}


def _why_fields(decision: dict, action: Action) -> str | None:
    """A field the action does not take (say, a rank on a vault) is refused by name."""
    takes = _PAY_TAKES[decision["order"]] if action.kind == "pay" else _TAKES[action.kind]
    extra = [name for name in _FIELDS if getattr(action, name) is not None and name not in takes]
    if extra:
        return f"a {action.kind} action has no {' or '.join(extra)}"
    return None


def _why_position(state: State, action: Action) -> str | None:
    if action.col is None or action.row is None:
        return "this action needs a cell of the cathedral (col and row)"
    if not 0 <= action.col < WIDTH or action.row < 0:
        return "the cathedral is five columns wide (0-4) and grows from row 0"
    return None


def _why_vault(state: State, action: Action) -> str:
    if action.tile not in state.market_vaults:
        return "that vault is not on offer in the market"
    problem = _why_position(state, action)
    if problem:
        return problem
    if action.at in state.cells:
        return "that cell is already built on"
    if action.at not in placement_cells(state.cells):
        return "a vault goes on a starting slot of row 0 or next to a vault or scaffold"
    if state.tiles[action.tile].wild and touches_wild(state, action.at):
        return "a wild vault may not be adjacent to another wild vault"
    return "that vault cannot be placed there"


def _why_order(state: State, action: Action) -> str:
    if action.tile not in state.market_orders:
        return "that order is not on offer in the market"
    order = state.tiles[action.tile].order
    if action.kind != order:
        return f"that tile's order is {ORDER_NAMES[order]}, not {action.kind}"
    problem = _why_position(state, action)
    if problem:
        return problem
    player = state.active
    cell = state.cells.get(action.at)
    own_builder_needed = order in ("promote", "move", "confuse", "glass")
    if own_builder_needed and (cell is None or cell.builder != player):
        return f"{ORDER_NAMES[order]} needs one of your own builders in that cell"
    if order == "promote":
        if state.players[player].tokens == 0:
            return "you have no promotion token left in your supply"
        if action.rank not in state.options.ranks:
            return f"the ranks of this edition are {', '.join(RANK_NAMES[r] for r in state.options.ranks)}"
        return "a builder must be promoted to a rank it does not already have"
    if order == "move" and action.to not in moves_from(state, action.at):
        return "a builder moves to an adjacent vault with no builder on it"
    if order == "confuse":
        if state.version == "1":
            return "Confuse needs an opponent's builder that can then move to an adjacent empty vault (not off an altar)"
        return "Confuse needs an opponent's builder that can move now to an adjacent empty vault (not off an altar)"
    if order == "glass":
        return "a vault holds at most one stained glass"
    if order == "recruit":
        if not state.players[player].builders:
            return "you have no builder left in your supply"
        return "Recruit puts a builder on a vault with no builder"
    if order == "scaffold":
        return "a scaffold goes where a vault could: row 0 or next to a vault or scaffold, on an empty cell"
    if order == "disaster":
        if cell is not None and cell.altar:
            return "a vault with an altar is protected from Disaster"
        return "Disaster discards a vault with no builder on it"
    if order == "altar":
        if state.altars_left == 0:
            return "no altar tokens are left"
        return "an altar goes on a vault (not scaffolding) without one"
    return "that order cannot be executed there"


def _why_follow_up(state: State, decision: dict, action: Action) -> str:
    kind = decision["kind"]
    if kind == "jester":
        col, row = decision["at"]
        if action.at != (col, row):
            return f"the Jester to colour now stands at {cell_label(col, row)}"
        cell = state.cells[(col, row)]
        colors = state.tiles[cell.tile].colors
        names = ", ".join(COLOR_NAMES[c] for c in colors)
        return f"a Jester adds a colour the tile lacks (it is already {names})"
    if kind == "paid":
        order = decision["order"]
        if order == "promote":
            return (
                f"the paid Promote must choose a rank other than {RANK_NAMES[decision['rank']]} "
                "for one of your builders, with a token from your supply"
            )
        if order == "recruit":
            return (
                "the paid Recruit puts your builder on an empty vault next to one of your builders"
            )
        return "the paid Confuse moves one of your builders (not off an altar) to an adjacent empty vault"
    if kind == "confuse_move":
        return "Confuse moves an opponent's builder (not off an altar) to an adjacent empty vault"
    if kind == "second_scaffold":
        return "a scaffold goes where a vault could: row 0 or next to a vault or scaffold, on an empty cell"
    if action.kind == "skip_altar":
        return "the second altar is not optional: place it on another vault without one"
    return "the second altar goes on another vault without one"

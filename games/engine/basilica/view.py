"""What a viewer sees of a game (the board, the market, the supplies, the log), cut down to what
that viewer may know, and the log's sentences."""

from __future__ import annotations

from typing import NamedTuple

from ..interface import N_
from ..takeback import is_takeback
from .actions import KIND_KEY, Action, describe, kind_of
from .board import builders_of, view_cells
from .state import State, parse_key


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


HIDDEN_PICK = N_("choose a Jester colour (hidden until the scoring)")


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
    history = state.history
    if not history:
        return []
    last_scoring = max((e["seq"] for e in state.events if e["kind"] == "scoring"), default=0)
    read = _read(state, player, last_scoring)
    return [dict(entry) for entry in read.shown[: read.shown_before[len(history)]]]


class _Reading(NamedTuple):
    """A viewer's log of one game as last read: the history it was read from, and what each
    entry showed. A later state of the game shares that history's entries, one by one."""

    history: list[dict]
    tiles: tuple
    first_player: int
    last_scoring: int
    shown: list[dict]
    shown_before: list[int]  # by history index: how many entries of ``shown`` come before it


# The last reading of each game's log by each viewer, by the first entry of its history (kept
# alive in the reading, so that its id is not reused) and the viewer: a move's pages read the
# same log again and again, one entry longer each move, and only the new entries are read.
_READINGS: dict[tuple[int, int | None], _Reading] = {}
_READINGS_MAX = 1_000  # three viewers of the some 300 games whose states a process keeps

# Log entries as shown, by history entry and by whether its Jester colour is hidden: the
# readings of a game's viewers share one entry as shown wherever they see the same. The entry
# is kept alive here, so that its id is not reused; an entry never moves in its log.
_SHOWN: dict[tuple[int, bool], tuple[dict, dict]] = {}
_SHOWN_MAX = 20_000  # about 600 bytes each


def _read(state: State, player: int | None, last_scoring: int) -> _Reading:
    """The reading of ``state``'s log by ``player``: the last one of this game's if it holds
    the state's history (its start, or all of it and more), else the last one extended by the
    new entries, else a new reading from the start."""
    history = state.history
    key = (id(history[0]), player)
    read = _READINGS.get(key)
    if (
        read is None
        or read.history[0] is not history[0]
        or read.tiles is not state.tiles
        or read.first_player != state.options.first_player
        or read.last_scoring != last_scoring  # a scoring reveals the Jester colours before it
    ):
        read = None
    elif len(history) <= len(read.history):
        # An earlier state of the game (the page's "before"): a start of the same history.
        if read.history[: len(history)] == history:
            return read
        read = None
    elif history[: len(read.history)] != read.history:
        read = None  # entries identical or equal one by one, else another line of play
    start = 0 if read is None else len(read.history)
    shown = [] if read is None else list(read.shown)
    shown_before = [0] if read is None else list(read.shown_before)
    for index in range(start, len(history)):
        entry = history[index]
        if not (entry.get("taken_back") or is_takeback(entry["action"])):
            # The log reads as the game stands; the site tells of takebacks.
            hidden = (
                kind_of(entry["action"]) == "jester"
                and index >= last_scoring
                and entry["player"] != player
            )
            known = _SHOWN.get((id(entry), hidden))
            if known is None or known[0] is not entry:
                if len(_SHOWN) >= _SHOWN_MAX:
                    _SHOWN.clear()
                known = _SHOWN[(id(entry), hidden)] = (entry, _shown(state, index, hidden))
            shown.append(known[1])
        shown_before.append(len(shown))
    reading = _Reading(
        list(history), state.tiles, state.options.first_player, last_scoring, shown, shown_before
    )
    if len(_READINGS) >= _READINGS_MAX:
        _READINGS.clear()
    _READINGS[key] = reading
    return reading


def _shown(state: State, index: int, hidden: bool) -> dict:
    entry = state.history[index]
    action = entry["action"]
    kind = kind_of(action)
    tiles = state.tiles
    if hidden:
        text = HIDDEN_PICK
        public = {KIND_KEY: kind, "col": action["col"], "row": action["row"]}
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
    previous = _previous_in_force(state.history, index)
    if kind == "builder":
        shown["cell"] = [previous["col"], previous["row"]]
    elif kind in ("pay", "decline"):
        shown["order"] = kind_of(previous)
    elif kind == "disaster":
        shown["discarded"] = tiles[entry["discarded"]].to_json()
    return shown


def _previous_in_force(history: list[dict], index: int) -> dict:
    """The action before entry ``index`` that still stands (not taken back), or {}."""
    for before in range(index - 1, -1, -1):
        entry = history[before]
        if not entry.get("taken_back") and not is_takeback(entry["action"]):
            return entry["action"]
    return {}


_TEXTS: dict[tuple, str] = {}  # log lines by action (and vault colours): views redraw the log


def _text(action: dict, tiles) -> str:
    colors = tiles[action["tile"]].colors if kind_of(action) == "vault" else None
    key = (tuple(action.items()), colors)
    text = _TEXTS.get(key)
    if text is None:
        if len(_TEXTS) >= 100_000:
            _TEXTS.clear()
        text = _TEXTS[key] = describe(Action.from_json(action), tiles)
    return text

"""Actions: every decision a player makes, as a small value that round-trips through JSON.

Main actions, taken by the active player (each costs one of the turn's three actions):
``vault`` (tile, col, row), ``builder``, and one per order, naming the order tile taken from the
market and the first target: ``promote`` (col, row, rank), ``move`` (col, row, to_col, to_row),
``recruit``, ``confuse`` (the own builder sent home), ``glass``, ``scaffold``, ``disaster``,
``altar`` (col, row each).

Follow-up decisions, which cost no action: ``pay`` (the opponent pays a coin for a paid order and
gives its target) or ``decline``; ``confuse_move`` (the opponent's builder moved by the active
player); ``second_scaffold``; ``second_altar`` or ``skip_altar``; ``jester`` (col, row, color).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..interface import MalformedAction, Reason
from .components import COLOR_NAMES, ORDER_NAMES, RANK_NAMES
from .state import WIDTH, cell_label

ORDER_KINDS = ("promote", "move", "recruit", "confuse", "glass", "scaffold", "disaster", "altar")
KINDS = (
    "vault",
    "builder",
    *ORDER_KINDS,
    "pay",
    "decline",
    "confuse_move",
    "second_scaffold",
    "second_altar",
    "skip_altar",
    "jester",
)
_FIELDS = ("tile", "col", "row", "to_col", "to_row", "rank", "color")
_INT_FIELDS = ("tile", "col", "row", "to_col", "to_row")

# An action's JSON names its kind under "type": so every stored Basilica action has it, from the
# first game on, while ``Action.kind``, the log's events and Cathedral's actions say "kind".
KIND_KEY = "type"


def kind_of(data: dict) -> str:
    """The kind of an action given as its JSON (a log entry's ``action``): "vault", "pay"..."""
    return data[KIND_KEY]


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    tile: int | None = None
    col: int | None = None
    row: int | None = None
    to_col: int | None = None
    to_row: int | None = None
    rank: str | None = None
    color: str | None = None

    @property
    def at(self) -> tuple[int, int] | None:
        return None if self.col is None else (self.col, self.row)

    @property
    def to(self) -> tuple[int, int] | None:
        return None if self.to_col is None else (self.to_col, self.to_row)

    def to_json(self) -> dict:
        data: dict = {KIND_KEY: self.kind}
        for name in _FIELDS:
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        return data

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Read an action sent from outside; anything that is not a well-formed action, with
        every field within the game's bounds, raises MalformedAction. Nothing is remembered."""
        return _parse(cls, data, shared=False)

    @classmethod
    def from_log(cls, data: object) -> Action:
        """Read an action of a stored log (checked when it was written), remembering the parse.

        A replayed log reads the same few hundred actions over and over. Only stored actions
        are remembered, so nothing posted from outside can fill the memory.
        """
        if cls is not Action or type(data) is not dict:
            return _parse(cls, data, shared=False)
        # The key holds the types too, as True == 1 and 1.0 == 1 would otherwise share a parse.
        try:
            key = (tuple(data.items()), tuple(map(type, data.values())))
            known = _PARSED.get(key)
        except TypeError:  # an unhashable value: certainly no well-formed action
            return _parse(cls, data, shared=False)
        if known is not None:
            return known
        action = _parse(cls, data, shared=True)
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = action
        return action

    def __str__(self) -> str:
        return describe(self)


# The bounds of every field: no box holds this many tiles, so no cathedral is this high either.
MAX_TILES = 1024
_BOUNDS = {
    "tile": MAX_TILES,
    "col": WIDTH,
    "row": MAX_TILES,
    "to_col": WIDTH,
    "to_row": MAX_TILES,
}
_TEXTS = {"rank": frozenset(RANK_NAMES), "color": frozenset(COLOR_NAMES)}
_NO_SUCH = {"rank": Reason("no such rank"), "color": Reason("no such color")}

# A remembered action is a few hundred bytes at most, as every field is bounded (a whole
# validated action with every field set: about 1.7 KB with its key): at most about 10 MB.
_PARSED: dict[tuple, Action] = {}
_PARSED_MAX = 6_000


def _parse(cls: type[Action], data: object, shared: bool) -> Action:
    if not isinstance(data, dict):
        raise MalformedAction(Reason("an action is a JSON object"))
    kind = data.get(KIND_KEY)
    if type(kind) is not str or kind not in KINDS:
        raise MalformedAction(Reason("unknown action type {kind}", kind=repr(kind)[:40]))
    unknown = set(data) - {KIND_KEY, *_FIELDS}
    if unknown:
        names = sorted(str(name)[:20] for name in unknown)[:8]
        raise MalformedAction(
            Reason("unexpected fields in action: {fields}", fields=", ".join(names))
        )
    values = []
    for name in _FIELDS:
        value = data.get(name)
        if value is not None:
            if name in _INT_FIELDS:
                if type(value) is not int:
                    raise MalformedAction(Reason("{field} must be a whole number", field=name))
                if not 0 <= value < _BOUNDS[name]:
                    raise MalformedAction(Reason("{field} is off the board", field=name))
            elif type(value) is not str:
                raise MalformedAction(Reason("{field} must be text", field=name))
            elif value not in _TEXTS[name]:
                raise MalformedAction(_NO_SUCH[name])
        values.append(value)
    if cls is not Action:
        return cls(kind, *values)
    # Shared instances only for stored logs: posted actions must not fill ``make``'s memo.
    return make(kind, *values) if shared else Action(kind, *values)


# Actions are immutable values, so ``legal_actions`` hands out shared instances instead of
# building thousands of equal ones per game (positional arguments only, in field order).
make = lru_cache(maxsize=1 << 16)(Action)


def describe(action: Action, tiles=None) -> str:
    """The action in the game log's words, e.g. "place Y/B vault at c2r1", "Recruit at c0r3": a
    ``Reason``, which the site says in the player's language (``games.words.say``).

    ``tiles`` (the game's tile list) lets a vault be named by its colours.
    """
    k = action.kind
    at = cell_label(action.col, action.row)
    to = cell_label(action.to_col, action.to_row)
    if k == "vault":
        colors = "/".join(tiles[action.tile].colors) if tiles else f"#{action.tile}"
        return Reason("place {letters} vault at {cell}", letters=colors, cell=at)
    if k == "builder":
        return Reason("place builder")
    if k == "promote":
        return Reason("Promote at {cell} to {title}", cell=at, title=_rank(action.rank))
    if k == "move":
        return Reason("Move Builder {cell} to {to}", cell=at, to=to)
    if k == "confuse":
        return Reason("Confuse: own builder home from {cell}", cell=at)
    if k in ORDER_KINDS:
        return Reason("{name} at {cell}", name=ORDER_NAMES[k], cell=at)
    if k == "pay":
        return _describe_pay(action, at, to)
    if k == "decline":
        return Reason("decline the paid order")
    if k == "confuse_move":
        return Reason("Confuse: move opponent's builder {cell} to {to}", cell=at, to=to)
    if k == "second_scaffold":
        return Reason("second Scaffolding at {cell}", cell=at)
    if k == "second_altar":
        return Reason("second Altar at {cell}", cell=at)
    if k == "skip_altar":
        return Reason("no second Altar")
    if k == "jester":
        color = COLOR_NAMES.get(action.color, action.color)
        return Reason("Jester at {cell} becomes {hue}", cell=at, hue=color)
    return k


def _rank(rank: str | None) -> str | None:
    return RANK_NAMES.get(rank, rank)


def _describe_pay(action: Action, at: str, to: str) -> str:
    """A paid order's answer, by what it names: a builder promoted, recruited or moved."""
    placed, ranked, moved = action.col is not None, bool(action.rank), action.to_col is not None
    if placed and ranked and not moved:
        return Reason(
            "pay a coin for the paid order at {cell} to {title}", cell=at, title=_rank(action.rank)
        )
    if placed and moved and not ranked:
        return Reason("pay a coin for the paid order at {cell} to {to}", cell=at, to=to)
    if placed and not (ranked or moved):
        return Reason("pay a coin for the paid order at {cell}", cell=at)
    # No answer the rules allow has another shape: said as it is, in English.
    target = f" at {at}" if placed else ""
    if ranked:
        target += f" to {_rank(action.rank)}"
    if moved:
        target += f" to {to}"
    return f"pay a coin for the paid order{target}"

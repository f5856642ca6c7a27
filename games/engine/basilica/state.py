"""The state of a game in progress: plain data that round-trips through JSON."""

from __future__ import annotations

import re

from ..interface import MalformedAction, Outcome, Reason
from .components import Options, Tile, tiles_for

WIDTH = 5

# The rules version a new game is played by; a stored game keeps the version it was started
# on, and every rule that changed between versions reads it off the state (README, "Versions").
VERSION = "2"

Pos = tuple[int, int]  # (col, row); row 0 is the row of starting slots against the board


# A cell is written two ways: its key "col,row" ("2,1") in the stored state, the view and the
# board's data-cell values; its label "c{col}r{row}" ("c2r1") in every sentence players read.
# Each parses back to the one cell it names: no sign, no leading zero, a column of the cathedral.
_KEY = re.compile(r"(0|[1-9][0-9]*),(0|[1-9][0-9]*)")
_LABEL = re.compile(r"c(0|[1-9][0-9]*)r(0|[1-9][0-9]*)")


def cell_key(col: int, row: int) -> str:
    """The cell's key in the stored state and the view: "2,1"."""
    return f"{col},{row}"


def parse_key(key: str) -> Pos:
    """(col, row) of a key such as "2,1"; MalformedAction (a ValueError) for anything else."""
    return _parse(_KEY, key)


def cell_label(col: int, row: int) -> str:
    """The cell's name for players: "c2r1" (column 2, row 1; row 0 is against the board)."""
    return f"c{col}r{row}"


def parse_label(label: str) -> Pos:
    """(col, row) of a label such as "c2r1"; MalformedAction (a ValueError) for anything else."""
    return _parse(_LABEL, label)


def _parse(notation: re.Pattern, text: str) -> Pos:
    found = notation.fullmatch(text) if isinstance(text, str) else None
    if found is None or int(found[1]) >= WIDTH:
        raise MalformedAction(
            Reason("no such cell of the cathedral: {cell}", cell=repr(str(text)[:20]))
        )
    return int(found[1]), int(found[2])


class Cell:
    """One occupied space of the cathedral: a vault (``tile`` is its id) or a scaffold (None)."""

    __slots__ = ("altar", "builder", "glass", "rank", "tile")

    def __init__(self, tile=None, builder=None, rank=None, glass=False, altar=False):
        self.tile: int | None = tile
        self.builder: int | None = builder
        self.rank: str | None = rank
        self.glass: bool = glass
        self.altar: bool = altar

    @property
    def scaffold(self) -> bool:
        return self.tile is None

    def copy(self) -> Cell:
        return Cell(self.tile, self.builder, self.rank, self.glass, self.altar)

    def to_json(self) -> list:
        return [self.tile, self.builder, self.rank, self.glass, self.altar]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cell) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Cell{tuple(self.to_json())}"


class PlayerState:
    """What one player has in supply, and their score."""

    __slots__ = ("builders", "coins", "score", "tokens")

    def __init__(self, builders: int, tokens: int, coins: int, score: int = 0):
        self.builders = builders
        self.tokens = tokens
        self.coins = coins
        self.score = score

    def copy(self) -> PlayerState:
        return PlayerState(self.builders, self.tokens, self.coins, self.score)

    def to_json(self) -> dict:
        return {
            "builders": self.builders,
            "tokens": self.tokens,
            "coins": self.coins,
            "score": self.score,
        }

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerState) and self.to_json() == other.to_json()


class State:
    """A game in progress.

    ``pending`` is the queue of decisions owed before the active player goes on: each a dict
    with ``kind`` and ``player`` (who decides). When it is empty, the active player decides
    their next main action. ``stack`` is drawn from its end; its top tile lies order side up
    for both players to see, the rest of it and ``seed`` are secret. ``version`` is the rules
    version the game is played by.
    """

    __slots__ = (
        "actions_left",
        "active",
        "altars_left",
        "cells",
        "discard",
        "events",
        "exhaustions",
        "finished",
        "history",
        "jester_picks",
        "king",
        "last_vault",
        "market_orders",
        "market_vaults",
        "options",
        "outcome",
        "pending",
        "players",
        "removed",
        "scorings",
        "seed",
        "stack",
        "tiles",
        "turn",
        "version",
    )

    def __init__(self, options: Options, seed: int, version: str = VERSION):
        self.options = options
        self.version = version
        self.tiles: tuple[Tile, ...] = tiles_for(options)
        self.seed = seed
        self.stack: list[int] = []
        self.discard: list[int] = []
        self.removed: list[int] = []
        self.market_orders: list[int | None] = [None, None, None]
        self.market_vaults: list[int | None] = [None, None, None]
        self.cells: dict[Pos, Cell] = {}
        self.players = [
            PlayerState(options.builders, options.promotion_tokens, options.coins) for _ in range(2)
        ]
        self.altars_left = options.altars if options.expansion else 0
        self.king = 0
        self.scorings = 0
        self.exhaustions = 0
        self.turn = 1
        self.active = options.first_player
        self.actions_left = 3
        self.last_vault: Pos | None = None
        self.pending: list[dict] = []
        self.jester_picks: dict[str, str] = {}
        self.events: list[dict] = []
        self.history: list[dict] = []
        self.finished = False
        self.outcome: Outcome | None = None

    # -- who decides -------------------------------------------------------------------------

    @property
    def to_decide(self) -> int | None:
        if self.finished:
            return None
        if self.pending:
            return self.pending[0]["player"]
        return self.active

    @property
    def decision(self) -> dict | None:
        """What kind of decision is owed now: the head of ``pending``, or the main action."""
        if self.finished:
            return None
        if self.pending:
            return self.pending[0]
        return {"kind": "main", "player": self.active}

    def current_player(self) -> int | None:
        return self.to_decide

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> tuple[int, int]:
        return (self.players[0].score, self.players[1].score)

    # -- copying and serialising -----------------------------------------------------------

    def copy(self) -> State:
        other = State.__new__(State)
        other.options = self.options
        other.version = self.version
        other.tiles = self.tiles
        other.seed = self.seed
        other.stack = self.stack[:]
        other.discard = self.discard[:]
        other.removed = self.removed[:]
        other.market_orders = self.market_orders[:]
        other.market_vaults = self.market_vaults[:]
        other.cells = {pos: cell.copy() for pos, cell in self.cells.items()}
        other.players = [p.copy() for p in self.players]
        other.altars_left = self.altars_left
        other.king = self.king
        other.scorings = self.scorings
        other.exhaustions = self.exhaustions
        other.turn = self.turn
        other.active = self.active
        other.actions_left = self.actions_left
        other.last_vault = self.last_vault
        other.pending = [dict(d) for d in self.pending]
        other.jester_picks = dict(self.jester_picks)
        other.events = self.events[:]
        other.history = self.history[:]
        other.finished = self.finished
        other.outcome = self.outcome
        return other

    def to_json(self) -> dict:
        """The whole state, secrets included, as JSON-safe data (for storage and the referee)."""
        return {
            "version": self.version,
            "options": self.options.to_json(),
            "seed": self.seed,
            "stack": self.stack[:],
            "discard": self.discard[:],
            "removed": self.removed[:],
            "market_orders": self.market_orders[:],
            "market_vaults": self.market_vaults[:],
            "cells": {cell_key(*pos): cell.to_json() for pos, cell in sorted(self.cells.items())},
            "players": [p.to_json() for p in self.players],
            "altars_left": self.altars_left,
            "king": self.king,
            "scorings": self.scorings,
            "exhaustions": self.exhaustions,
            "turn": self.turn,
            "active": self.active,
            "actions_left": self.actions_left,
            "last_vault": list(self.last_vault) if self.last_vault else None,
            "pending": [_pending_to_json(d) for d in self.pending],
            "jester_picks": dict(self.jester_picks),
            "events": self.events[:],
            "history": self.history[:],
            "finished": self.finished,
            "outcome": (
                {
                    "termination": self.outcome.termination,
                    "winners": list(self.outcome.winners),
                    "scores": list(self.outcome.scores),
                }
                if self.outcome
                else None
            ),
        }

    @classmethod
    def from_json(cls, data: dict) -> State:
        # A state written before versions were kept was played by version 1.
        state = cls(Options.from_json(data["options"]), data["seed"], data.get("version", "1"))
        state.stack = list(data["stack"])
        state.discard = list(data["discard"])
        state.removed = list(data["removed"])
        state.market_orders = list(data["market_orders"])
        state.market_vaults = list(data["market_vaults"])
        state.cells = {parse_key(key): Cell(*value) for key, value in data["cells"].items()}
        state.players = [PlayerState(**p) for p in data["players"]]
        state.altars_left = data["altars_left"]
        state.king = data["king"]
        state.scorings = data["scorings"]
        state.exhaustions = data["exhaustions"]
        state.turn = data["turn"]
        state.active = data["active"]
        state.actions_left = data["actions_left"]
        state.last_vault = tuple(data["last_vault"]) if data["last_vault"] else None
        state.pending = [_pending_from_json(d) for d in data["pending"]]
        state.jester_picks = dict(data["jester_picks"])
        state.events = list(data["events"])
        state.history = list(data["history"])
        state.finished = data["finished"]
        outcome = data["outcome"]
        state.outcome = (
            Outcome(outcome["termination"], tuple(outcome["winners"]), tuple(outcome["scores"]))
            if outcome
            else None
        )
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # mutable


def _pending_to_json(decision: dict) -> dict:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in decision.items()}


def _pending_from_json(decision: dict) -> dict:
    return {k: (tuple(v) if isinstance(v, list) else v) for k, v in decision.items()}

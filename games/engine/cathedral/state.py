"""The options a game is created with, and the state of a game in progress.

Squares are bitboards (see ``buildings``); ``to_json`` writes them as lists of square indices
(``row * 10 + col``), so the stored form is plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..interface import Outcome, Reason
from .buildings import CELLS, COPIES, DARK, KEYS, LIGHT, SQUARES, cells_of
from .versions import VERSION


@dataclass(frozen=True)
class Options:
    """``light``: the seat (0 or 1) that plays the light buildings and places the Cathedral; dark
    moves first after it. ``lehman``: Tom Lehman's opening, where dark places its first building
    before light places the Cathedral together with light's first building."""

    light: int = 0
    lehman: bool = False

    def __post_init__(self) -> None:
        if type(self.light) is not int or self.light not in (0, 1):
            raise ValueError(Reason("light is the seat 0 or 1"))
        if type(self.lehman) is not bool:
            raise ValueError(Reason("lehman is true or false"))

    @property
    def dark(self) -> int:
        return 1 - self.light

    def colour(self, seat: int) -> str:
        """ "light" or "dark"."""
        return LIGHT if seat == self.light else DARK

    def to_json(self) -> dict:
        return {"light": self.light, "lehman": self.lehman}

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Strict: unknown keys or values of the wrong type raise ValueError."""
        if not isinstance(data, dict):
            raise ValueError(Reason("options are a JSON object"))
        unknown = sorted(str(key)[:20] for key in data if key not in ("light", "lehman"))
        if unknown:
            raise ValueError(Reason("unknown options: {names}", names=", ".join(unknown[:8])))
        return cls(**data)


class Piece(NamedTuple):
    """A building on the board. ``id`` is the number (from 1) of the action that placed it;
    ``owner`` is the seat, or None for the Cathedral."""

    id: int
    building: str
    owner: int | None
    col: int
    row: int
    turn: int
    mask: int


def _bits(cells: list[int]) -> int:
    mask = 0
    for cell in cells:
        if type(cell) is not int or not 0 <= cell < CELLS:
            raise ValueError(f"no such square index: {cell!r}")
        mask |= 1 << cell
    return mask


class State:
    """A game in progress.

    ``own[seat]`` and ``territory[seat]`` are bitboards of the seat's buildings and of the
    squares it has claimed (never under a building); ``cathedral`` is the Cathedral's squares
    while it stands. ``hands[seat][i]`` counts the copies of ``KEYS[i]`` not yet placed;
    ``placed[seat]`` counts the seat's placements (a captured building placed again counts
    again). ``history`` holds one ``{"player", "action"}`` per action; ``events`` holds one
    entry per action and per automatic pass, for the log:
    ``("place", seq, player, building, squares, claimed, captures)`` with ``captures`` a tuple
    of ``(building, owner, squares)``, and ``("pass", seq, player, hand_empty)``, ``seq`` being
    the number of actions so far. ``version`` is the rules version the game is played by.
    """

    __slots__ = (
        "cathedral",
        "cathedral_out",
        "current",
        "events",
        "finished",
        "hands",
        "history",
        "options",
        "outcome",
        "own",
        "pieces",
        "placed",
        "territory",
        "version",
    )

    def __init__(self, options: Options, version: str = VERSION):
        self.options = options
        self.version = version
        self.pieces: dict[int, Piece] = {}
        self.own = [0, 0]
        self.territory = [0, 0]
        self.cathedral = 0
        self.cathedral_out = False
        self.hands = [[COPIES[key] for key in KEYS] for _ in range(2)]
        self.placed = [0, 0]
        self.history: list[dict] = []
        self.events: list[tuple] = []
        self.finished = False
        self.outcome: Outcome | None = None
        # Light places the Cathedral first, unless dark opens (Tom Lehman's variant).
        self.current: int | None = options.dark if options.lehman else options.light

    # -- who decides, and the figures -----------------------------------------------------------

    @property
    def to_decide(self) -> int | None:
        """The seat that places now: always one with a legal placement; None once it is over."""
        return self.current

    def current_player(self) -> int | None:
        return self.current

    def is_terminal(self) -> bool:
        return self.finished

    @property
    def occupied(self) -> int:
        return self.own[0] | self.own[1] | self.cathedral

    @property
    def cathedral_due(self) -> bool:
        """Whether the next action is the Cathedral's placement: first of all, or after dark's
        first building in Tom Lehman's variant."""
        if self.cathedral or self.cathedral_out:
            return False
        return not self.options.lehman or self.placed[self.options.dark] > 0

    def unplaced_squares(self, seat: int) -> int:
        return sum(n * SQUARES[key] for n, key in zip(self.hands[seat], KEYS, strict=True))

    def returns(self) -> tuple[int, int]:
        """Each seat's unplaced squares so far (fewest wins at the end)."""
        return (self.unplaced_squares(0), self.unplaced_squares(1))

    # -- copying and serialising ------------------------------------------------------------

    def copy(self) -> State:
        other = State.__new__(State)
        other.options = self.options
        other.version = self.version
        other.pieces = dict(self.pieces)
        other.own = self.own[:]
        other.territory = self.territory[:]
        other.cathedral = self.cathedral
        other.cathedral_out = self.cathedral_out
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.placed = self.placed[:]
        other.history = self.history[:]
        other.events = self.events[:]
        other.finished = self.finished
        other.outcome = self.outcome
        other.current = self.current
        return other

    def to_json(self) -> dict:
        """The whole state as JSON-safe data."""
        outcome = self.outcome
        return {
            "version": self.version,
            "options": self.options.to_json(),
            "pieces": [
                [p.id, p.building, p.owner, p.col, p.row, p.turn, cells_of(p.mask)]
                for p in sorted(self.pieces.values())
            ],
            "territory": [cells_of(self.territory[0]), cells_of(self.territory[1])],
            "cathedral_out": self.cathedral_out,
            "hands": [dict(zip(KEYS, hand, strict=True)) for hand in self.hands],
            "placed": self.placed[:],
            "history": [dict(entry) for entry in self.history],
            "events": [_event_to_json(event) for event in self.events],
            "finished": self.finished,
            "outcome": (
                {
                    "termination": outcome.termination,
                    "winners": list(outcome.winners),
                    "scores": list(outcome.scores),
                }
                if outcome
                else None
            ),
            "to_decide": self.current,
        }

    @classmethod
    def from_json(cls, data: dict) -> State:
        # A state written before versions were kept was played by version 1.
        state = cls(Options.from_json(data["options"]), data.get("version", "1"))
        for pid, building, owner, col, row, turn, cells in data["pieces"]:
            piece = Piece(pid, building, owner, col, row, turn, _bits(cells))
            state.pieces[pid] = piece
            if owner is None:
                state.cathedral = piece.mask
            else:
                state.own[owner] |= piece.mask
        state.territory = [_bits(cells) for cells in data["territory"]]
        state.cathedral_out = bool(data["cathedral_out"])
        state.hands = [[int(hand[key]) for key in KEYS] for hand in data["hands"]]
        state.placed = [int(n) for n in data["placed"]]
        state.history = [dict(entry) for entry in data["history"]]
        state.events = [_event_from_json(event) for event in data["events"]]
        state.finished = bool(data["finished"])
        outcome = data["outcome"]
        state.outcome = (
            Outcome(outcome["termination"], tuple(outcome["winners"]), tuple(outcome["scores"]))
            if outcome
            else None
        )
        state.current = data["to_decide"]
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        return f"<Cathedral state after {len(self.history)} actions, to decide: {self.current}>"


def _event_to_json(event: tuple) -> list:
    if event[0] == "pass":
        return list(event)
    kind, seq, player, building, squares, claimed, captures = event
    return [
        kind,
        seq,
        player,
        building,
        cells_of(squares),
        cells_of(claimed),
        [[b, owner, cells_of(mask)] for b, owner, mask in captures],
    ]


def _event_from_json(data: list) -> tuple:
    if data[0] == "pass":
        return tuple(data)
    kind, seq, player, building, squares, claimed, captures = data
    return (
        kind,
        seq,
        player,
        building,
        _bits(squares),
        _bits(claimed),
        tuple((b, owner, _bits(cells)) for b, owner, cells in captures),
    )

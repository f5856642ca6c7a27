"""The one kind of action: placing a building, as a small value that round-trips through JSON.

    {"kind": "place", "building": "tower", "col": 3, "row": 3, "turn": 1}

``col`` and ``row`` (0-9) name the square under the building's pivot, ``turn`` the quarter turns
clockwise about it (0 up to the building's number of distinct orientations, less one). The two
copies of the Tavern, Stable and Inn are one kind: the action names the kind, not the copy.
Every well-formed action is made once, at import, and shared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..interface import MalformedAction, Reason
from .buildings import ALL_KEYS, NAMES, SIZE, TURNS, cell_label

KIND = "place"
_FIELDS = frozenset({"kind", "building", "col", "row", "turn"})


@dataclass(frozen=True, slots=True)
class Action:
    building: str
    col: int
    row: int
    turn: int = 0
    kind: ClassVar[str] = KIND

    @property
    def index(self) -> int:
        """The bit of the pivot square."""
        return self.row * SIZE + self.col

    def to_json(self) -> dict:
        return {
            "kind": KIND,
            "building": self.building,
            "col": self.col,
            "row": self.row,
            "turn": self.turn,
        }

    @classmethod
    def from_json(cls, data: object) -> Action:
        """Read an action sent from outside: anything but a well-formed placement, every field
        within the game's bounds, raises MalformedAction. The result is a shared instance."""
        if not isinstance(data, dict):
            raise MalformedAction(Reason("an action is a JSON object"))
        kind = data.get("kind")
        if type(kind) is not str or kind != KIND:
            raise MalformedAction(Reason("unknown action kind {kind}", kind=repr(kind)[:40]))
        unknown = [name for name in data if name not in _FIELDS]
        if unknown:
            names = sorted(str(name)[:20] for name in unknown)[:8]
            raise MalformedAction(
                Reason("unexpected fields in action: {fields}", fields=", ".join(names))
            )
        missing = sorted(_FIELDS - set(data))
        if missing:
            raise MalformedAction(Reason("a placement needs {fields}", fields=", ".join(missing)))
        building = data["building"]
        if type(building) is not str or building not in NAMES:
            raise MalformedAction(Reason("no such building: {name}", name=repr(building)[:40]))
        for name in ("col", "row", "turn"):
            if type(data[name]) is not int:
                raise MalformedAction(Reason("{name} must be a whole number", name=name))
        col, row, turn = data["col"], data["row"], data["turn"]
        if not (0 <= col < SIZE and 0 <= row < SIZE):
            raise MalformedAction(
                Reason("col and row are 0-9: the city is 10 squares wide and high")
            )
        if not 0 <= turn < TURNS[building]:
            raise MalformedAction(_no_such_turn(building))
        return ACTIONS[building][row * SIZE + col][turn]

    @classmethod
    def from_log(cls, data: object) -> Action:
        """Read an action of a stored log (checked when it was written)."""
        return cls.from_json(data)

    def __str__(self) -> str:
        return f"{self.building} {cell_label(self.col, self.row)} turn {self.turn}"


def _no_such_turn(building: str) -> Reason:
    # A building has 1, 2 or 4 orientations: the plural is always "a few", in Polish too.
    turns, name = TURNS[building], NAMES[building]
    if turns == 1:
        return Reason("the {name} has 1 distinct orientation: turn is 0", name=name)
    return Reason(
        "the {name} has {turns} distinct orientations: turn is 0-{last}",
        name=name,
        turns=turns,
        last=turns - 1,
    )


# ACTIONS[key][square][turn]: every well-formed action, made once.
ACTIONS: dict[str, tuple[tuple[Action, ...], ...]] = {
    key: tuple(
        tuple(Action(key, index % SIZE, index // SIZE, turn) for turn in range(TURNS[key]))
        for index in range(SIZE * SIZE)
    )
    for key in ALL_KEYS
}

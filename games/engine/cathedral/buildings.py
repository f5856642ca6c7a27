"""The city and its buildings: shapes, turns about the pivot square, and every placement.

The board is a bitboard: a Python int whose bit ``row * 10 + col`` is the square in column
``col`` (A-J, left to right) and row ``row`` (1-10, top to bottom). Every building's placements
(one mask per orientation and pivot square) are worked out once, at import.

A building's pivot is one fixed square of its shape, the one nearest its centre (ties go to the
first in reading order); a placement names the square under the pivot and the number of quarter
turns clockwise about it, so turning a building keeps the pivot where it is. Orientations equal
up to a shift are the same placement: only the lowest such turn is legal.
"""

from __future__ import annotations

from typing import NamedTuple

from ..interface import N_, MalformedAction, Reason
from .versions import VERSION, VERSIONS

SIZE = 10
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1
COLUMNS = "ABCDEFGHIJ"

LIGHT, DARK = "light", "dark"
COLOURS = (LIGHT, DARK)
CATHEDRAL = "cathedral"

# Each building drawn as it stands at turn 0 (rows top to bottom, X a square), with its copies.
# Dark's Abbey (the Z) and Academy (the F) are drawn here as RULINGS.md §6 draws them; light's
# are their mirror images.
_DRAWINGS: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "tavern": (N_("Tavern"), 2, ("X",)),
    "stable": (N_("Stable"), 2, ("XX",)),
    "inn": (N_("Inn"), 2, ("XX", "X.")),
    "bridge": (N_("Bridge"), 1, ("XXX",)),
    "square": (N_("Square"), 1, ("XX", "XX")),
    "manor": (N_("Manor"), 1, ("XXX", ".X.")),
    "abbey": (N_("Abbey"), 1, ("XX.", ".XX")),
    "infirmary": (N_("Infirmary"), 1, (".X.", "XXX", ".X.")),
    "castle": (N_("Castle"), 1, ("X.X", "XXX")),
    "tower": (N_("Tower"), 1, ("X..", "XX.", ".XX")),
    "academy": (N_("Academy"), 1, (".XX", "XX.", ".X.")),
    CATHEDRAL: (N_("Cathedral"), 1, (".X.", "XXX", ".X.", ".X.")),
}
MIRRORED = frozenset({"abbey", "academy"})  # the two buildings light and dark hold mirrored
# Version 1 of the rules had the Abbey's two mirror images the other way round (dark's the S);
# nothing else about the buildings has changed between versions.
SWAPPED = {"1": frozenset({"abbey"}), "2": frozenset()}

# The players' buildings in a stable order (the rulebook's, smallest first), then the Cathedral.
KEYS = tuple(key for key in _DRAWINGS if key != CATHEDRAL)
ALL_KEYS = (*KEYS, CATHEDRAL)
INDEX = {key: i for i, key in enumerate(ALL_KEYS)}
NAMES = {key: drawing[0] for key, drawing in _DRAWINGS.items()}
COPIES = {key: drawing[1] for key, drawing in _DRAWINGS.items()}

Offsets = tuple[tuple[int, int], ...]  # (dcol, drow) from the pivot, in reading order


def cell_label(col: int, row: int) -> str:
    """The square's name for players: column letter A-J, row number 1-10 ("A1" top left)."""
    return f"{COLUMNS[col]}{row + 1}"


def parse_label(label: str) -> tuple[int, int]:
    """(col, row) of a label such as "D4"; MalformedAction (a ValueError) for anything else."""
    text = label.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        raise MalformedAction(Reason("no such square: {label}", label=repr(label)))
    row = int(text[1:]) - 1
    if not 0 <= row < SIZE:
        raise MalformedAction(Reason("no such square: {label}", label=repr(label)))
    return COLUMNS.index(text[0]), row


def _squares(drawing: tuple[str, ...], mirrored: bool) -> list[tuple[int, int]]:
    rows = [line[::-1] if mirrored else line for line in drawing]
    return [(c, r) for r, line in enumerate(rows) for c, mark in enumerate(line) if mark == "X"]


def _pivot(squares: list[tuple[int, int]]) -> tuple[int, int]:
    n = len(squares)
    mid_c = sum(c for c, _ in squares) / n
    mid_r = sum(r for _, r in squares) / n
    return min(squares, key=lambda s: ((s[0] - mid_c) ** 2 + (s[1] - mid_r) ** 2, s[1], s[0]))


def _normal(offsets: Offsets) -> Offsets:
    """The shape shifted to its top-left corner: equal for orientations equal up to a shift."""
    low_c = min(c for c, _ in offsets)
    low_r = min(r for _, r in offsets)
    return tuple(sorted((r - low_r, c - low_c) for c, r in offsets))


def _turned(offsets: Offsets) -> Offsets:
    """A quarter turn clockwise about the pivot (rows grow downwards): right becomes down."""
    return tuple(sorted(((-dr, dc) for dc, dr in offsets), key=lambda s: (s[1], s[0])))


def orientations(key: str, colour: str, version: str = VERSION) -> tuple[Offsets, ...]:
    """The building's distinct orientations for ``colour`` under the rules of ``version``,
    indexed by turn (0, 1, 2, 3)."""
    _, _, drawing = _DRAWINGS[key]
    mirrored = (colour == LIGHT and key in MIRRORED) != (key in SWAPPED[version])
    squares = _squares(drawing, mirrored)
    pc, pr = _pivot(squares)
    offsets: Offsets = tuple((c - pc, r - pr) for c, r in squares)
    found: list[Offsets] = []
    seen: set[Offsets] = set()
    for _ in range(4):
        if _normal(offsets) not in seen:
            seen.add(_normal(offsets))
            found.append(offsets)
        offsets = _turned(offsets)
    return tuple(found)


class Orientation(NamedTuple):
    """One orientation of one building, with every placement of it on the board.

    ``anchors`` has a bit for every pivot square where the building lies wholly in the city;
    ``shifts`` are the bit offsets of its squares from the pivot; ``masks[i]`` is the placement
    with the pivot on square ``i`` (0 where it would stick out past the wall).
    """

    turn: int
    offsets: Offsets
    anchors: int
    shifts: tuple[int, ...]
    masks: tuple[int, ...]


def _orientation(turn: int, offsets: Offsets) -> Orientation:
    anchors = 0
    masks = []
    for index in range(CELLS):
        col, row = index % SIZE, index // SIZE
        mask = 0
        for dc, dr in offsets:
            c, r = col + dc, row + dr
            if not (0 <= c < SIZE and 0 <= r < SIZE):
                mask = 0
                break
            mask |= 1 << (r * SIZE + c)
        if mask:
            anchors |= 1 << index
        masks.append(mask)
    shifts = tuple(dr * SIZE + dc for dc, dr in offsets)
    return Orientation(turn, offsets, anchors, shifts, tuple(masks))


# SHAPES[version][colour][key]: the building's orientations under the rules of ``version``,
# indexed by turn; PLACEMENTS, those of the current version. The tables of the two versions
# differ only in the Abbey, whose orientations they share.
Placements = dict[str, dict[str, tuple["Orientation", ...]]]


def _placements(version: str) -> Placements:
    return {
        colour: {
            key: tuple(_orientation(t, o) for t, o in enumerate(orientations(key, colour, version)))
            for key in ALL_KEYS
        }
        for colour in COLOURS
    }


SHAPES: dict[str, Placements] = {version: _placements(version) for version in VERSIONS}
PLACEMENTS = SHAPES[VERSION]
TURNS = {key: len(PLACEMENTS[LIGHT][key]) for key in ALL_KEYS}
SQUARES = {key: len(PLACEMENTS[LIGHT][key][0].offsets) for key in ALL_KEYS}
# Which buildings fit first in a nearly full city: the smallest are tried first.
BY_SIZE = tuple(sorted(range(len(KEYS)), key=lambda i: SQUARES[KEYS[i]]))
SQUARES_PER_SIDE = sum(SQUARES[key] * COPIES[key] for key in KEYS)


def fitting(free: int, orientation: Orientation) -> int:
    """The pivot squares where ``orientation`` lies on free squares only (a bit for each)."""
    fits = orientation.anchors & free
    for shift in orientation.shifts:
        if not fits:
            return 0
        # Only anchors inside the city are kept, so bits shifted across a row end do no harm.
        fits &= (free >> shift) if shift >= 0 else (free << -shift)
    return fits


def cells_of(mask: int) -> list[int]:
    """The square indices of a bitboard, in reading order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return cells


_NOT_LEFT = FULL & ~sum(1 << (r * SIZE) for r in range(SIZE))
_NOT_RIGHT = FULL & ~sum(1 << (r * SIZE + SIZE - 1) for r in range(SIZE))


def grow(mask: int) -> int:
    """The squares touching ``mask`` by an edge or a corner, and ``mask`` itself."""
    row = mask | ((mask << 1) & _NOT_LEFT) | ((mask >> 1) & _NOT_RIGHT)
    return (row | (row << SIZE) | (row >> SIZE)) & FULL


def flood(seed: int, room: int) -> int:
    """The part of ``room`` connected to ``seed`` through edges and corners."""
    region = seed
    while True:
        grown = grow(region) & room
        if grown == region:
            return region
        region = grown


def _data(version: str) -> dict:
    return {
        key: {
            "name": NAMES[key],
            "squares": SQUARES[key],
            "count": COPIES[key],
            "sides": {
                colour: [
                    [list(offset) for offset in o.offsets] for o in SHAPES[version][colour][key]
                ]
                for colour in ((LIGHT,) if key == CATHEDRAL else COLOURS)
            },
        }
        for key in ALL_KEYS
    }


# What the site draws, by building key: its name, squares and copies per side, and for each
# colour that places it the squares of each orientation (list index = turn) as [dcol, drow]
# offsets from the pivot (always [0, 0] among them). The Cathedral is placed by light only.
# BUILDINGS_OF[version] for a game of an earlier version; BUILDINGS for the current one.
BUILDINGS_OF = {version: _data(version) for version in VERSIONS}
BUILDINGS = BUILDINGS_OF[VERSION]

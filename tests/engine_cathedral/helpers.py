"""Small factories for Cathedral games, so that tests read as stories of play.

A move is written as a player says it: the building and the squares it covers
(``"inn A2 B2 B1"``), or the building, its pivot square and turn (``"cathedral H7"``,
``"bridge C2 1"``).

A position can be drawn, ten lines of ten squares (spaces ignored): ``.`` empty, ``#`` the
Cathedral, a capital letter for each of dark's buildings, a small letter for each of light's,
``+`` an empty square of dark's territory, ``-`` one of light's. Light is seat 0 unless said.
"""

from __future__ import annotations

from games.engine.cathedral import (
    Action,
    Options,
    State,
    apply_action,
    new_game,
    parse_label,
)
from games.engine.cathedral.actions import ACTIONS
from games.engine.cathedral.buildings import (
    CATHEDRAL,
    INDEX,
    KEYS,
    LIGHT,
    SHAPES,
    SIZE,
    cell_label,
    cells_of,
)
from games.engine.cathedral.state import Piece
from games.engine.cathedral.versions import VERSION

LIGHT_SEAT, DARK_SEAT = 0, 1  # with the default options


def game(light: int = 0, lehman: bool = False, version: str = VERSION) -> State:
    return new_game(Options(light=light, lehman=lehman), 0, version)


def squares(labels: str) -> int:
    mask = 0
    for label in labels.split():
        col, row = parse_label(label)
        mask |= 1 << (row * SIZE + col)
    return mask


def labels(mask: int) -> set[str]:
    return {cell_label(i % SIZE, i // SIZE) for i in cells_of(mask)}


def _covering(
    colour: str, building: str, mask: int, version: str = VERSION
) -> tuple[int, int] | None:
    """(turn, pivot square) of the placement of ``building`` that covers exactly ``mask``."""
    for o in SHAPES[version][colour][building]:
        if mask in o.masks:
            return o.turn, o.masks.index(mask)
    return None


def action_for(state: State, move: str) -> Action:
    """The action of ``move`` ("inn A2 B2 B1" or "bridge C2 1") for the player to decide."""
    building, *rest = move.split()
    if len(rest) == 1 or (len(rest) == 2 and rest[1].isdigit()):
        col, row = parse_label(rest[0])
        return Action(building, col, row, int(rest[1]) if len(rest) == 2 else 0)
    colour = LIGHT if building == CATHEDRAL else state.options.colour(state.to_decide)
    found = _covering(colour, building, squares(" ".join(rest)), state.version)
    if found is None:
        raise ValueError(f"no {colour} {building} covers {rest}")
    turn, index = found
    return ACTIONS[building][index][turn]


def play(state: State, *moves: str) -> State:
    """``state`` after each move in turn, each by whoever is to decide."""
    for move in moves:
        state = apply_action(state, action_for(state, move).to_json())
    return state


def territory(state: State, seat: int) -> set[str]:
    return labels(state.territory[seat])


def position(
    drawing: str,
    to_decide: int,
    light: int = 0,
    cathedral_out: bool | None = None,
    hands: dict[int, dict[str, int]] | None = None,
    version: str = VERSION,
) -> State:
    """A game in the middle, as drawn, played by the rules of ``version``; buildings on the
    board come out of their owner's hand (or ``hands`` gives a seat's whole hand). Both players
    are past their first building."""
    rows = [line.replace(" ", "") for line in drawing.strip().splitlines()]
    assert len(rows) == SIZE, drawing
    assert all(len(r) == SIZE for r in rows), drawing
    options = Options(light=light)
    state = State(options, version)
    groups: dict[str, int] = {}
    for r, line in enumerate(rows):
        for c, mark in enumerate(line):
            if mark != ".":
                groups[mark] = groups.get(mark, 0) | 1 << (r * SIZE + c)
    next_id = 101  # far from the action numbers of the play that follows
    for mark, mask in groups.items():
        if mark in "+-":
            state.territory[options.dark if mark == "+" else options.light] |= mask
            continue
        owner = None if mark == "#" else options.dark if mark.isupper() else options.light
        colour = LIGHT if owner is None else options.colour(owner)
        building = next(
            (key for key in (*KEYS, CATHEDRAL) if _covering(colour, key, mask, version)), None
        )
        assert building is not None, mark
        assert (building == CATHEDRAL) == (owner is None), mark
        turn, index = _covering(colour, building, mask, version)
        state.pieces[next_id] = Piece(
            next_id, building, owner, index % SIZE, index // SIZE, turn, mask
        )
        next_id += 1
        if owner is None:
            state.cathedral = mask
        else:
            state.own[owner] |= mask
            state.hands[owner][INDEX[building]] -= 1
            assert state.hands[owner][INDEX[building]] >= 0, f"too many {building}s"
    for seat, hand in (hands or {}).items():
        state.hands[seat] = [hand.get(key, 0) for key in KEYS]
    state.cathedral_out = not state.cathedral if cathedral_out is None else cathedral_out
    state.placed = [2, 2]
    state.current = to_decide
    return state


def picture(state: State) -> str:
    """The board drawn as ``position`` reads it (for a failing test's message)."""
    marks = ["."] * (SIZE * SIZE)
    for seat, mark in ((state.options.dark, "+"), (state.options.light, "-")):
        for i in cells_of(state.territory[seat]):
            marks[i] = mark
    letters = {
        state.options.dark: iter("ABCDEFGHIJKLMN"),
        state.options.light: iter("abcdefghijklmn"),
    }
    for piece in sorted(state.pieces.values()):
        mark = "#" if piece.owner is None else next(letters[piece.owner])
        for i in cells_of(piece.mask):
            marks[i] = mark
    return "\n".join("".join(marks[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))

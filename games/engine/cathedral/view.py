"""What a viewer sees (the board, the hands, the log) and the log's sentences."""

from __future__ import annotations

from ..interface import Reason
from .buildings import KEYS, NAMES, SIZE, SQUARES, cell_label, cells_of
from .state import State

DASH = "\u2013"  # an en dash between the corners of a span: "D4\u2013F6"
CATHEDRAL_OWNER = "cathedral"  # a square's owner in the view when the Cathedral stands on it


def view(state: State, player: int | None) -> dict:
    """What ``player`` (0, 1, or None for a spectator) sees: everything, as JSON-safe data.

    ``cells`` and ``territory`` are 10 rows of 10 (``cells[row][col]``, row 0 on top): a cell
    is None or ``{"piece", "building", "owner"}`` (owner a seat, or "cathedral"); a territory
    square is the seat that claimed it, or None. ``hands[seat]`` lists the buildings not yet
    placed (``{"building", "name", "squares", "count"}``) with ``unplaced_squares``;
    ``placements`` counts each seat's placements so far (the Cathedral's not included);
    ``scores`` are the unplaced squares now (fewest wins); ``cathedral_due`` says the next
    placement is the Cathedral's; ``log`` is described at ``log``.
    """
    options = state.options
    outcome = state.outcome
    return {
        "viewer": player,
        "rules_version": state.version,
        "seq": len(state.history),
        "to_decide": state.current,
        "finished": state.finished,
        "winners": list(outcome.winners) if outcome else [],
        "termination": outcome.termination if outcome else None,
        "scores": list(state.returns()),
        "light": options.light,
        "lehman": options.lehman,
        "colours": [options.colour(0), options.colour(1)],
        "cathedral_due": state.cathedral_due and not state.finished,
        "cathedral_out": state.cathedral_out,
        "cells": _cells(state),
        "territory": _territory(state),
        "hands": [_hand(state, seat) for seat in (0, 1)],
        "placements": state.placed[:],
        "log": log(state),
    }


def _cells(state: State) -> list[list[dict | None]]:
    flat: list[dict | None] = [None] * (SIZE * SIZE)
    for piece in state.pieces.values():
        shown = {
            "piece": piece.id,
            "building": piece.building,
            "owner": CATHEDRAL_OWNER if piece.owner is None else piece.owner,
        }
        for index in cells_of(piece.mask):
            flat[index] = shown
    return [flat[row * SIZE : (row + 1) * SIZE] for row in range(SIZE)]


def _territory(state: State) -> list[list[int | None]]:
    flat: list[int | None] = [None] * (SIZE * SIZE)
    for seat in (0, 1):
        for index in cells_of(state.territory[seat]):
            flat[index] = seat
    return [flat[row * SIZE : (row + 1) * SIZE] for row in range(SIZE)]


def _hand(state: State, seat: int) -> dict:
    return {
        "seat": seat,
        "colour": state.options.colour(seat),
        "buildings": [
            {"building": key, "name": NAMES[key], "squares": SQUARES[key], "count": count}
            for key, count in zip(KEYS, state.hands[seat], strict=True)
            if count
        ],
        "unplaced_squares": state.unplaced_squares(seat),
    }


# -- the log -----------------------------------------------------------------------------------


def log(state: State) -> list[dict]:
    """One entry per action and per automatic pass, oldest first.

    Each entry: ``seq`` (actions so far), ``kind`` ("place" or "pass"), ``player``, ``action``
    (the placement's JSON; None for a pass), ``text``, ``cells`` (labels of the squares
    placed on), ``claimed`` ([col, row] of each square newly claimed), ``captured`` (the first
    capture as ``{"building", "owner", "cells"}``, cells as labels, or None) and ``captures``
    (every capture; one move can enclose two regions). Entries are new dicts, but the lists in
    them are shared between views and must not be changed.
    """
    light = state.options.light
    history = state.history
    entries = []
    for event in state.events:
        key = (event, light)
        shown = _SHOWN.get(key)
        if shown is None:
            if len(_SHOWN) >= _SHOWN_MAX:
                _SHOWN.clear()
            action = history[event[1] - 1]["action"] if event[0] == "place" else None
            shown = _SHOWN[key] = _entry(event, light, action)
        entries.append(dict(shown))
    return entries


# Entries as shown, by event: every view redraws the whole log. An event is a tuple of ints,
# strings and tuples, so it is its own key; a few hundred bytes each.
_SHOWN: dict[tuple, dict] = {}
_SHOWN_MAX = 50_000


def colour_name(light: int, seat: int | None) -> str:
    return "Light" if seat == light else "Dark"


# A pass in words, by (the passing player is light, their hand is empty).
_PASSES = {
    (True, False): Reason("Light cannot place: Dark goes on"),
    (False, False): Reason("Dark cannot place: Light goes on"),
    (True, True): Reason("Light has placed every building: Dark goes on"),
    (False, True): Reason("Dark has placed every building: Light goes on"),
}


def _entry(event: tuple, light: int, action: dict | None) -> dict:
    if event[0] == "pass":
        _, seq, player, hand_empty = event
        return {
            "seq": seq,
            "kind": "pass",
            "player": player,
            "action": None,
            "text": _PASSES[(player == light, bool(hand_empty))],
            "cells": [],
            "claimed": [],
            "captured": None,
            "captures": [],
        }
    _, seq, player, building, squares, claimed, captures = event
    shown_captures = [
        {
            "building": b,
            "owner": CATHEDRAL_OWNER if owner is None else owner,
            "cells": _labels(mask),
        }
        for b, owner, mask in captures
    ]
    return {
        "seq": seq,
        "kind": "place",
        "player": player,
        "action": action,
        "text": f"{colour_name(light, player)} placed "
        + consequences(building, squares, claimed, captures, light),
        "cells": _labels(squares),
        "claimed": [[i % SIZE, i // SIZE] for i in cells_of(claimed)],
        "captured": shown_captures[0] if shown_captures else None,
        "captures": shown_captures,
    }


def _labels(mask: int) -> list[str]:
    return [cell_label(i % SIZE, i // SIZE) for i in cells_of(mask)]


def span(mask: int) -> str:
    """The squares a building covers, as the corners of its bounding box joined by an en dash
    ("D4-F6"), or the one square's label."""
    cells = cells_of(mask)
    cols = [i % SIZE for i in cells]
    rows = [i // SIZE for i in cells]
    first = cell_label(min(cols), min(rows))
    last = cell_label(max(cols), max(rows))
    return first if first == last else f"{first}{DASH}{last}"


def consequences(
    building: str, squares: int, claimed: int, captures: tuple, light: int, ahead: bool = False
) -> str:
    """ "the Tower on D4-F6, claimed 7 squares and captured Light's Inn (back to Light's hand)";
    ``ahead`` words it for a placement not yet made ("claiming", "capturing")."""
    claim, capture = ("claiming", "capturing") if ahead else ("claimed", "captured")
    parts = []
    count = claimed.bit_count()
    if count:
        parts.append(f"{claim} {count} square{'s' if count > 1 else ''}")
    for b, owner, _ in captures:
        if owner is None:
            parts.append(f"{capture} the Cathedral (out of the game)")
        else:
            whose = colour_name(light, owner)
            parts.append(f"{capture} {whose}'s {NAMES[b]} (back to {whose}'s hand)")
    text = f"the {NAMES[building]} on {span(squares)}"
    if parts:
        text += ", " + (
            parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
        )
    return text

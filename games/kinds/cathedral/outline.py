"""A building drawn small, as one joined shape: the outline of its squares as an SVG path."""

from __future__ import annotations

from itertools import pairwise

UNIT = 10  # a square's side in the drawing's units

# A square's four sides, clockwise (y grows downwards): the neighbour beyond each, and the side
# as a segment from one corner of the square to the next.
SIDES = (
    ((0, -1), (0, 0), (1, 0)),
    ((1, 0), (1, 0), (1, 1)),
    ((0, 1), (1, 1), (0, 1)),
    ((-1, 0), (0, 1), (0, 0)),
)


def outline(squares: list) -> dict:
    """The walls around ``squares`` ([dcol, drow] pairs, one piece without holes) as a closed
    path, with the drawing's size: ``{"path", "width", "height"}`` in units of ``UNIT``."""
    left, top = min(c for c, _ in squares), min(r for _, r in squares)
    cells = {(c - left, r - top) for c, r in squares}
    following = {}
    for x, y in cells:
        for (dx, dy), start, end in SIDES:
            if (x + dx, y + dy) not in cells:
                following[(x + start[0], y + start[1])] = (x + end[0], y + end[1])
    first = min(following)
    corners, at = [first], following[first]
    while at != first:
        corners.append(at)
        at = following[at]
    # Keep only the turns: a corner between two walls in one line is no corner.
    count = len(corners)
    turns = [
        p
        for i, p in enumerate(corners)
        if not _straight(corners[i - 1], p, corners[(i + 1) % count])
    ]
    steps = [f"M{turns[0][0] * UNIT} {turns[0][1] * UNIT}"]
    for before, now in pairwise(turns):
        steps.append(f"H{now[0] * UNIT}" if now[1] == before[1] else f"V{now[1] * UNIT}")
    return {
        "path": "".join(steps) + "Z",
        "width": (max(x for x, _ in cells) + 1) * UNIT,
        "height": (max(y for _, y in cells) + 1) * UNIT,
    }


def _straight(before: tuple, at: tuple, after: tuple) -> bool:
    return before[0] == at[0] == after[0] or before[1] == at[1] == after[1]

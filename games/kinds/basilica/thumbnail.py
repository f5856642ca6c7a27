"""Basilica's small board for the lists of games: the cathedral's vaults in their colours and
the builders on them, drawn from a spectator's view (nothing of the stack or the Jesters'
colours, which that view does not hold)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.basilica.state import WIDTH
from games.kinds.basilica import diagrams

CELL = 10
LEAST_ROWS = 4  # a young cathedral still gets a board of some height


def thumbnail(seen: dict) -> dict:
    """The shapes of the cathedral in ``seen`` (the engine's view): a path a tile colour (a
    two-coloured vault split down the middle), the scaffolds, and each builder as a dot."""
    cells = seen["cathedral"]
    rows = max([LEAST_ROWS, *(c["row"] + 1 for c in cells)])
    paths: dict[str, list[str]] = {}
    builders = []
    for cell in cells:
        x, y = cell["col"] * CELL, (rows - 1 - cell["row"]) * CELL
        colors = "#" if cell["scaffold"] else cell["colors"]
        width = CELL // len(colors)
        for index, color in enumerate(colors):
            paths.setdefault(color, []).append(f"M{x + index * width} {y}h{width}v{CELL}h-{width}z")
        if cell["builder"] is not None:
            builders.append(
                {"x": x + CELL // 2, "y": y + CELL // 2, "player": cell["builder"]["player"]}
            )
    return {
        "width": WIDTH * CELL,
        "height": rows * CELL,
        "paths": [
            # The ground the cathedral stands on, so that an empty one still reads as a board.
            {"fill": "floor", "d": f"M0 {rows * CELL}h{WIDTH * CELL}"},
            *(
                {"fill": "scaffold" if color == "#" else color, "d": "".join(parts)}
                for color, parts in sorted(paths.items())
            ),
        ],
        "builders": builders,
    }


def first_steps() -> list[dict]:
    """The 60-second how to play: each step in a few words, with a small cathedral drawn as the
    lists of games draw one (the cells written as the rules page's diagrams)."""
    return [
        {
            "text": _(
                "Each turn, take three actions. Take a vault from the market and build it on "
                "the cathedral: on the ground row, or beside a vault already built."
            ),
            "seen": {"cathedral": diagrams.cells((". G . . .", "R B YB . ."))},
        },
        {
            "text": _(
                "Right after building a vault you may put one of your builders on it; or "
                "spend an action on an order: recruit, move, promote a builder, and more."
            ),
            "seen": {"cathedral": diagrams.cells((". G1 . . .", "R1 R B2 Y2 ."))},
        },
        {
            "text": _(
                "When the pawn on the score track reaches a scoring space, each area of one "
                "colour goes to the player with more builders in it. After the third scoring, "
                "most points wins."
            ),
            "seen": {"cathedral": diagrams.cells(diagrams.SCORING_EXAMPLE)},
        },
    ]

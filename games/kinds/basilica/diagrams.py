"""Small cathedrals drawn by the rules page: what each order does, before and after, and a
scoring worked out by the engine itself.

A diagram is written row by row, the far row first and row 0 (against the board) last, one
word a cell: ``.`` empty, ``#`` a scaffold, or a vault's colours (``R``, ``YB``) followed by
``^`` (crowned), the builder's player ``1`` or ``2`` and its rank letter (``A``, ``M``, ``S``,
``J``), ``*`` (stained glass) and ``+`` (altar): ``B1A*`` is a blue vault with an Architect of
player 1 and a window. The tests play each order's ``steps`` through the engine from ``before``
and check that they are legal and lead to ``after``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext_lazy, pgettext

from games.engine.basilica import Options, score_cathedral
from games.engine.basilica.components import (
    ALTAR,
    ASSUMED,
    BASE_ORDER_COUNTS,
    CONFUSE,
    DISASTER,
    GLASS,
    MOVE,
    PROMOTE,
    RECRUIT,
    SCAFFOLD,
)
from games.kinds.basilica import help as words
from games.words import say

_CELL = re.compile(
    r"(?P<colors>[YBRG]{1,2})(?P<crown>\^)?(?:(?P<player>[12])(?P<rank>[AMSJ])?)?"
    r"(?P<glass>\*)?(?P<altar>\+)?"
)
_RANK_OF_LETTER = {letter: rank for rank, letter in words.RANK_LETTERS.items()}


@dataclass(frozen=True)
class Diagram:
    """An order shown on a small cathedral: ``steps`` are the engine actions (as JSON, player 1
    being the engine's player 0) that turn ``before`` into ``after``."""

    order: str
    caption: str  # lazily translated: said in the language of the page that draws it
    before: tuple[str, ...]
    after: tuple[str, ...]
    steps: tuple[dict, ...]


ORDER_DIAGRAMS = {
    PROMOTE: Diagram(
        PROMOTE,
        gettext_lazy("Player 1 promotes their builder on c1r0 to Architect."),
        before=(". G . . .", "R B1 B Y2 ."),
        after=(". G . . .", "R B1A B Y2 ."),
        steps=({"type": "promote", "col": 1, "row": 0, "rank": "architect"},),
    ),
    MOVE: Diagram(
        MOVE,
        gettext_lazy("Player 1 moves their builder from c0r0 to the empty red vault next to it."),
        before=(". G . . .", "R1 R B Y2 ."),
        after=(". G . . .", "R R1 B Y2 ."),
        steps=({"type": "move", "col": 0, "row": 0, "to_col": 1, "to_row": 0},),
    ),
    RECRUIT: Diagram(
        RECRUIT,
        gettext_lazy("Player 1 puts a builder from their supply on the green vault c1r1."),
        before=(". G . . .", "R1 R B Y2 Y"),
        after=(". G1 . . .", "R1 R B Y2 Y"),
        steps=({"type": "recruit", "col": 1, "row": 1},),
    ),
    CONFUSE: Diagram(
        CONFUSE,
        gettext_lazy(
            "Player 1 sends their builder on c0r0 home, then moves player 2's builder from c2r0 "
            "to the empty vault c3r0."
        ),
        before=(". G . . .", "R1 R B2 B Y"),
        after=(". G . . .", "R R B B2 Y"),
        steps=(
            {"type": "confuse", "col": 0, "row": 0},
            {"type": "confuse_move", "col": 2, "row": 0, "to_col": 3, "to_row": 0},
        ),
    ),
    GLASS: Diagram(
        GLASS,
        gettext_lazy("Player 1 puts stained glass on c0r0, where they have a builder."),
        before=(". G . . .", "R1 R B2 B Y"),
        after=(". G . . .", "R1* R B2 B Y"),
        steps=({"type": "glass", "col": 0, "row": 0},),
    ),
    SCAFFOLD: Diagram(
        SCAFFOLD,
        gettext_lazy(
            "Player 1 places a scaffold on c3r0, then a second one on c0r1, next to a vault."
        ),
        before=(". G . . .", "R1 R B2 . ."),
        after=("# G . . .", "R1 R B2 # ."),
        steps=(
            {"type": "scaffold", "col": 3, "row": 0},
            {"type": "second_scaffold", "col": 0, "row": 1},
        ),
    ),
    DISASTER: Diagram(
        DISASTER,
        gettext_lazy("Player 1 discards the blue vault c3r0, which has no builder."),
        before=(". G . . .", "R1 R B2 B Y"),
        after=(". G . . .", "R1 R B2 . Y"),
        steps=({"type": "disaster", "col": 3, "row": 0},),
    ),
    ALTAR: Diagram(
        ALTAR,
        gettext_lazy(
            "Player 1 puts an altar on c1r0, whose stained glass now counts 4, and a second on c0r0, "
            "whose builder Confuse can no longer move."
        ),
        before=(". G . . .", "R1 R* B2 B Y"),
        after=(". G . . .", "R1+ R*+ B2 B Y"),
        steps=(
            {"type": "altar", "col": 1, "row": 0},
            {"type": "second_altar", "col": 0, "row": 0},
        ),
    ),
}

# A cathedral to score on the rules page: the numbers are the engine's, never written by hand.
SCORING_EXAMPLE = (
    "Y1 Y* Y2 . .",
    "YB Y1A R2 R2 G",
    "B1S B2 R1M R2 G2",
)


def parse_cell(text: str, col: int, row: int) -> dict | None:
    """One word of a diagram as a cell of the engine's view (None for an empty cell)."""
    if text == ".":
        return None
    base = {"col": col, "row": row, "tile": None, "crown": False, "glass": False, "altar": False}
    if text == "#":
        return {**base, "colors": "", "scaffold": True, "builder": None}
    found = _CELL.fullmatch(text)
    if not found:
        raise ValueError(f"not a diagram cell: {text!r}")
    player = found["player"]
    return {
        **base,
        "colors": found["colors"],
        "scaffold": False,
        "crown": bool(found["crown"]),
        "builder": None
        if player is None
        else {"player": int(player) - 1, "rank": _RANK_OF_LETTER.get(found["rank"])},
        "glass": bool(found["glass"]),
        "altar": bool(found["altar"]),
    }


def cells(rows: tuple[str, ...]) -> list[dict]:
    """The occupied cells of a diagram, as ``engine.view`` lists them."""
    out = []
    for row, line in enumerate(reversed(rows)):
        for col, text in enumerate(line.split()):
            cell = parse_cell(text, col, row)
            if cell is not None:
                out.append(cell)
    return out


def cell_label(cell: dict | None) -> str:
    """A cell in words, for a screen reader and a tooltip."""
    if cell is None:
        return pgettext("diagram cell", "empty")
    if cell["scaffold"]:
        return pgettext("diagram cell", "scaffold")
    colors = cell["colors"]
    if len(colors) > 1:
        parts = [
            pgettext("diagram cell", "wild %(hues)s vault") % {"hues": words.wild_name(colors)}
        ]
    else:
        parts = [pgettext("diagram cell", "%(hue)s vault") % {"hue": words.color_name(colors)}]
    if cell["crown"]:
        parts.append(pgettext("diagram cell", "crowned"))
    builder = cell["builder"]
    if builder:
        who = {"player": builder["player"] + 1}
        if builder["rank"]:
            who["title"] = words.rank_name(builder["rank"])
            parts.append(pgettext("diagram cell", "%(title)s, builder of player %(player)d") % who)
        else:
            parts.append(pgettext("diagram cell", "builder of player %(player)d") % who)
    if cell["glass"]:
        parts.append(pgettext("diagram cell", "stained glass"))
    if cell["altar"]:
        parts.append(pgettext("diagram cell", "altar"))
    return ", ".join(parts)


def grid(rows: tuple[str, ...], compare: tuple[str, ...] | None = None) -> list[list[dict]]:
    """A diagram as rows of cells for the template, the far row first. With ``compare`` (the
    diagram before), a cell that differs from it is marked ``changed``."""
    before = {(c["col"], c["row"]): c for c in cells(compare)} if compare else {}
    height = len(rows)
    out = []
    for index, line in enumerate(rows):
        row = height - 1 - index
        out_row = []
        for col, text in enumerate(line.split()):
            cell = parse_cell(text, col, row)
            builder = cell["builder"] if cell else None
            out_row.append(
                {
                    "col": col,
                    "row": row,
                    "cell": cell,
                    "rank_letter": words.RANK_LETTERS[builder["rank"]]
                    if builder and builder["rank"]
                    else "",
                    "label": cell_label(cell),
                    "changed": compare is not None and before.get((col, row)) != cell,
                }
            )
        out.append(out_row)
    return out


def order_pictures(edition: str = "2022") -> list[dict]:
    """Each order of the game (the Altar last) with its help and its before/after diagram."""
    out = []
    for order, diagram in ORDER_DIAGRAMS.items():
        entry = words.order_entry(order, edition)
        entry.update(
            caption=str(diagram.caption),
            before=grid(diagram.before),
            after=grid(diagram.after, compare=diagram.before),
        )
        out.append(entry)
    return out


def scoring_example(names: tuple[str, str] | None = None) -> dict:
    """The example cathedral, its areas scored by the engine and told in words."""
    report = score_cathedral(cells(SCORING_EXAMPLE)).to_json()
    return {
        "grid": grid(SCORING_EXAMPLE),
        "areas": [
            {
                **area,
                "color_name": capfirst(words.color_name(area["color"])),
                "words": words.area_explained(area, names),
            }
            for area in report["areas"]
        ],
        "points": report["points"],
    }


def rules_context(edition: str) -> dict:
    """What the rules page draws and says beyond its fixed text, for one edition."""
    return {
        "order_pictures": order_pictures(edition),
        "rank_entries": [
            {
                "rank": rank,
                "name": words.rank_name(rank),
                "letter": words.RANK_LETTERS[rank],
                "text": words.rank_help(rank, edition),
            }
            for rank in words.ranks(edition)
        ],
        "place_vault": words.action_help("vault"),
        "place_builder": words.action_help("builder"),
        "track_caption": words.track_caption(edition, Options(edition=edition).crown_spaces),
        "scoring": scoring_example(),
        "rank_names": [words.rank_name(rank) for rank in words.ranks(edition)],
        "order_counts": [
            (words.order_name(order), count) for order, count in BASE_ORDER_COUNTS.items()
        ],
        # The engine's words, said where it marked them (games.words.say).
        "assumed_figures": [say(figure) for figure in ASSUMED],
        "legend": words.legend(edition, expansion=True),
        "symbols": words.SYMBOLS,
        "expansion_name": words.EXPANSION_NAME,
    }

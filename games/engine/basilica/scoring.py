"""Scoring the cathedral: areas, majorities and their values (RULINGS.md §4).

``score_cathedral`` works on the same list of cells that ``view`` shows, so the site's
"if scored now" preview and the engine's own scoring are one and the same function.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .components import ARCHITECT, COLORS, MASON, STRONGMAN
from .state import cell_key

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True)
class Area:
    """One scored area: orthogonally connected tiles sharing ``color``."""

    color: str
    cells: tuple[tuple[int, int], ...]
    strength: tuple[int, int]  # majority strength: a builder 1, a Master Mason 2
    builders: tuple[int, int]  # builders of each player, a Master Mason counting 1
    architect: bool
    glass: int  # the stained-glass bonus: 2 a window, 4 on an altar tile
    value: int  # what the majority takes: tiles (doubled by an architect) plus glass
    winner: int | None  # who holds the majority, after the Strongman's tie-break
    points: tuple[int, int]

    def to_json(self) -> dict:
        return {
            "color": self.color,
            "cells": [list(c) for c in self.cells],
            "strength": list(self.strength),
            "builders": list(self.builders),
            "architect": self.architect,
            "glass": self.glass,
            "value": self.value,
            "winner": self.winner,
            "points": list(self.points),
        }


@dataclass(frozen=True)
class ScoreReport:
    points: tuple[int, int]
    areas: list[Area] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"points": list(self.points), "areas": [a.to_json() for a in self.areas]}


def _cell_colors(cell: dict, extra: str | None) -> str:
    colors = cell.get("colors") or ""
    if cell.get("scaffold") or not colors:
        return ""
    if extra and extra not in colors:
        colors += extra
    return colors


def score_cathedral(cells: list[dict], jester_colors: dict[str, str] | None = None) -> ScoreReport:
    """Score a cathedral given as a list of view cells.

    ``jester_colors`` maps "col,row" to the extra colour a Jester gives its tile for this
    scoring. Areas are returned colour by colour (Y, B, R, G), each from its lowest cell.
    """
    jester_colors = jester_colors or {}
    by_pos: dict[tuple[int, int], dict] = {}
    colors_at: dict[tuple[int, int], str] = {}
    for cell in cells:
        pos = (cell["col"], cell["row"])
        colors = _cell_colors(cell, jester_colors.get(cell_key(*pos)))
        if colors:
            by_pos[pos] = cell
            colors_at[pos] = colors

    areas: list[Area] = []
    for color in COLORS:
        members = {pos for pos, colors in colors_at.items() if color in colors}
        for start in sorted(members, key=lambda p: (p[1], p[0])):
            if start not in members:
                continue
            members.discard(start)
            component = [start]
            frontier = [start]
            while frontier:
                col, row = frontier.pop()
                for dc, dr in NEIGHBOURS:
                    nxt = (col + dc, row + dr)
                    if nxt in members:
                        members.discard(nxt)
                        component.append(nxt)
                        frontier.append(nxt)
            # A lone wild tile (two colours, or made so by a Jester) is no area of its own.
            if len(component) == 1 and len(colors_at[start]) > 1:
                continue
            areas.append(_score_area(color, component, by_pos))

    areas = [a for a in areas if a is not None]
    totals = [0, 0]
    for area in areas:
        totals[0] += area.points[0]
        totals[1] += area.points[1]
    return ScoreReport((totals[0], totals[1]), areas)


def _score_area(color: str, component: list, by_pos: dict) -> Area | None:
    strength = [0, 0]
    builders = [0, 0]
    strongmen = [False, False]
    architect = False
    glass = 0
    for pos in component:
        cell = by_pos[pos]
        if cell.get("glass"):
            glass += 4 if cell.get("altar") else 2
        builder = cell.get("builder")
        if not builder:
            continue
        player, rank = builder["player"], builder.get("rank")
        builders[player] += 1
        strength[player] += 2 if rank == MASON else 1
        strongmen[player] = strongmen[player] or rank == STRONGMAN
        architect = architect or rank == ARCHITECT
    if strength == [0, 0]:
        return None  # areas with no builders are ignored

    value = len(component) * (2 if architect else 1) + glass
    if strength[0] != strength[1]:
        winner = 0 if strength[0] > strength[1] else 1
    elif strongmen[0] != strongmen[1]:
        winner = 0 if strongmen[0] else 1
    else:
        winner = None
    points = [0, 0]
    if winner is not None:
        points[winner] = value
        points[1 - winner] = builders[1 - winner]
    cells = tuple(sorted(component, key=lambda p: (p[1], p[0])))
    return Area(
        color,
        cells,
        (strength[0], strength[1]),
        (builders[0], builders[1]),
        architect,
        glass,
        value,
        winner,
        (points[0], points[1]),
    )

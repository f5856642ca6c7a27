"""Cathedral's pieces told apart at a glance, as the page draws them: the colours are read from
the page itself (the browser's computed styles of the cells on the board), and every two that
meet differ by at least 3:1 (WCAG's contrast ratio for graphics)."""

from __future__ import annotations

import re

import pytest

from .site import (
    POLL,
    SYNCED,
    drag_to_the_board,
    never_confirm,
    players,
    screenshot,
    seq_of,
)

pytestmark = pytest.mark.browser

# The fill (and the wall, for a building) of the first cell of each kind on the board.
COLOURS = """
() => {
  const kinds = {
    empty: ".city .cell:not(.light):not(.dark):not(.cathedral-piece):not(.t-light):not(.t-dark):not(.target)",
    light: ".city .cell.light", dark: ".city .cell.dark", cathedral: ".city .cell.cathedral-piece",
    wall: ".city .cell.cathedral-piece.edge-n:not(.changed)",
  };
  const out = {};
  for (const [name, selector] of Object.entries(kinds)) {
    const cell = document.querySelector(selector);
    if (!cell) continue;
    const style = getComputedStyle(cell);
    out[name] = name === "wall" ? style.boxShadow : style.backgroundColor;
  }
  return out;
}
"""


def rgb(text: str) -> tuple[int, int, int]:
    return tuple(int(v) for v in re.search(r"rgb\((\d+), (\d+), (\d+)\)", text).groups())


def luminance(colour: tuple[int, int, int]) -> float:
    linear = [c / 255 for c in colour]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in linear]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(rgb(one)), luminance(rgb(other))), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_the_pieces_on_the_city_differ_by_three_to_one(site, browser, request, screenshots):
    light, dark, game_id = players(site, browser, request, "desktop", "cathedral", seed=5)
    for visitor in (light, dark):
        never_confirm(visitor, game_id)
    # The Cathedral, then a building of each side.
    for mover in (light, dark, light):
        drag_to_the_board(mover.page, "#hands .piece.choosable")
        for visitor in (light, dark):
            visitor.page.wait_for_function(SYNCED, arg=seq_of(mover.page), polling=POLL)
    page = dark.page
    colours = page.evaluate(COLOURS)
    screenshot(page, screenshots, "cathedral-contrast", "three-pieces")
    assert set(colours) == {"empty", "light", "dark", "cathedral", "wall"}, colours
    for one, other in [
        ("light", "empty"),
        ("dark", "empty"),
        ("light", "dark"),
        ("light", "cathedral"),
        ("dark", "cathedral"),
        ("wall", "empty"),  # the Cathedral is told from an empty cell by its wall
    ]:
        ratio = contrast(colours[one], colours[other])
        assert ratio >= 3, f"{one} against {other}: {ratio:.2f} ({colours[one]}, {colours[other]})"

"""Cathedral's city, told apart at a glance: every two things that can touch on the board differ
by at least 3:1 in contrast (WCAG's ratio of relative luminances, its bar for graphics), with
the colours read from the stylesheet the page uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from basilica_site.settings import BASE_DIR

CSS = Path(BASE_DIR, "static", "css", "cathedral.css").read_text()


def declarations(selector: str) -> dict[str, str]:
    """The custom properties the rules of exactly ``selector`` declare, by name (no ``--``)."""
    bodies = re.findall(r"(?m)^" + re.escape(selector) + r"\s*\{([^}]*)\}", CSS)
    return dict(re.findall(r"--([\w-]+):\s*([^;]+);", "".join(bodies)))


ROOT = declarations(":root")


def colour(value: str) -> str:
    """A colour of the stylesheet, ``var(--city-x)`` followed to its ``#rrggbb``."""
    named = re.fullmatch(r"var\(--([\w-]+)\)", value.strip())
    return colour(ROOT[named[1]]) if named else value.strip()


def city(name: str) -> str:
    return colour(ROOT[f"city-{name}"])


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    lighter, darker = sorted((luminance(one), luminance(other)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# Fills that touch: a building beside an empty cell or another side's building, a claimed cell
# beside its owner's buildings (only they enclose it), and the Cathedral's wall beside an empty
# cell (the Cathedral is as dark as the board: its wall tells them apart).
NEIGHBOURS = [
    ("empty", "light"),
    ("empty", "dark"),
    ("light", "dark"),
    ("light", "cathedral"),
    ("dark", "cathedral"),
    ("t-light", "light"),
    ("t-dark", "dark"),
    ("wall", "empty"),
    ("wall", "cathedral"),
    ("wall", "light"),
]


@pytest.mark.parametrize(("one", "other"), NEIGHBOURS)
def test_neighbours_on_the_city_differ_by_three_to_one(one, other):
    assert contrast(city(one), city(other)) >= 3, (one, other, contrast(city(one), city(other)))


def preview(side: str) -> tuple[str, str]:
    """The fill and the dashed wall of a building's preview, for the side placing it."""
    found = {**declarations(".city"), **declarations(f'.city[data-side="{side}"]')}
    return colour(found["ghost"]), colour(found["ghost-wall"])


@pytest.mark.parametrize("side", ["light", "dark", "cathedral"])
def test_a_preview_stands_out_where_it_may_go(side):
    fill, wall = preview(side)
    own = {"light": ["t-light"], "dark": ["t-dark"], "cathedral": []}[side]
    for under in ["empty", "target", *own]:
        assert max(contrast(fill, city(under)), contrast(wall, city(under))) >= 3, (side, under)


def test_a_dark_buildings_preview_is_not_the_cathedrals_colour():
    dark, _ = preview("dark")
    cathedral, _ = preview("cathedral")
    assert dark == city("dark")
    assert contrast(dark, cathedral) >= 3


def test_the_ratios_are_computed_as_wcag_does():
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)

"""Cathedral's small board for the lists of games: the 10 by 10 city, Light's and Dark's
buildings, the Cathedral and the territory each has claimed, from a spectator's view."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.cathedral.buildings import SIZE
from games.engine.cathedral.view import CATHEDRAL_OWNER

CELL = 6


def thumbnail(seen: dict) -> dict:
    """The shapes of the city in ``seen`` (the engine's view): one path for each of Light's
    and Dark's claimed squares, their buildings and the Cathedral."""
    light = seen["light"]
    paths: dict[str, list[str]] = {}
    for row in range(SIZE):
        for col in range(SIZE):
            square = f"M{col * CELL} {row * CELL}h{CELL}v{CELL}h-{CELL}z"
            piece = seen["cells"][row][col]
            claimed = seen["territory"][row][col]
            if piece is not None:
                owner = piece["owner"]
                paths.setdefault(_role(owner, light), []).append(square)
            elif claimed is not None:
                paths.setdefault(f"{_role(claimed, light)}-land", []).append(square)
    order = ("light-land", "dark-land", "light", "dark", CATHEDRAL_OWNER)
    return {
        "width": SIZE * CELL,
        "height": SIZE * CELL,
        "paths": [{"fill": name, "d": "".join(paths[name])} for name in order if name in paths],
        "builders": [],
    }


def _role(owner, light: int) -> str:
    if owner == CATHEDRAL_OWNER:
        return CATHEDRAL_OWNER
    return "light" if owner == light else "dark"


def first_steps() -> list[dict]:
    """The 60-second how to play: each step in a few words, with a small city drawn as the
    lists of games draw one."""
    return [
        {
            "text": _(
                "Light places the Cathedral anywhere in the city. Then Dark and Light take "
                "turns, each placing one of their buildings on empty squares."
            ),
            "seen": city(CATHEDRAL_PLACED),
        },
        {
            "text": _(
                "Wall off part of the city with your buildings and the edge: if it holds at "
                "most one building of your opponent, it is yours, and that building goes back "
                "to their hand. Only you may build there."
            ),
            "seen": city(LAND_CLAIMED),
        },
        {
            "text": _(
                "Whoever cannot place a building passes. At the end, the player with fewer "
                "squares left unplaced wins."
            ),
            "seen": city(CITY_FULL),
        },
    ]


# The cities of the first steps, row 0 on top: C the Cathedral, L and D Light's and Dark's
# buildings, l and d the squares each has claimed, "." an empty square.
CATHEDRAL_PLACED = (
    "..........",
    "....C.....",
    "...CCC....",
    "....C..DD.",
    "....C...D.",
    "..........",
    ".LL.......",
    "..L.......",
    "..........",
    "..........",
)
LAND_CLAIMED = (
    "lllL......",
    "lllL..D...",
    "LLLL..DD..",
    "....C.....",
    "...CCC....",
    "....C..DD.",
    "....C...D.",
    ".LL....DD.",
    "..L....Ddd",
    "..L....Ddd",
)
CITY_FULL = (
    "lllL.DDLLD",
    "lllLD.DLLD",
    "LLLLDDDDD.",
    "LL..C.LL.L",
    "L..CCCL.LL",
    "LLD.C..DD.",
    "L.DDC.DDD.",
    "LLL.DD.DD.",
    "..LDD..Ddd",
    "..LD...Ddd",
)


def city(rows: tuple[str, ...], light: int = 0) -> dict:
    """A city written as ``rows`` in the shape of the engine's view, as ``thumbnail`` reads it."""
    owners = {"C": CATHEDRAL_OWNER, "L": light, "D": 1 - light}
    lands = {"l": light, "d": 1 - light}
    return {
        "light": light,
        "cells": [[{"owner": owners[s]} if s in owners else None for s in row] for row in rows],
        "territory": [[lands.get(s) for s in row] for row in rows],
    }

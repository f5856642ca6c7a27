"""How the browser tests choose among what the page offers: at random, but leaning towards the
clicks that make a game eventful and short (paid orders, crowned vaults, the Jester)."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """One clickable thing on the page: a market tile, a cathedral cell or a prompt button."""

    kind: str  # "tile", "cell" or "choice"
    key: str  # data-tile, data-cell or data-token
    order: str = ""  # an order tile's name, e.g. "Promote"
    paid: bool = False  # an order tile with the coin box
    crowned: bool = False  # a vault tile with a crown
    posts: bool = False  # the click completes an action (a form) rather than picks a step

    @property
    def selector(self) -> str:
        if self.kind == "tile":
            return f'#play .tile.choosable[data-tile="{self.key}"]'
        if self.kind == "cell":
            return f'#play .cell.target[data-cell="{self.key}"]'
        return f'#play .prompt .choice[data-token="{self.key}"]'


def weight(option: Option) -> float:
    if option.kind == "choice":
        if option.key == "rank:jester":
            return 40.0  # a Jester in the cathedral brings the colour prompt at the scoring
        if option.key == "place":
            return 40.0  # Cathedral: place the building shown, rather than choose another
        if option.key == "builder":
            return 5.0  # builders make the areas that scorings count
        return 1.0
    if option.order == "Promote":
        return 30.0  # promotions bring Jesters (2022), and a paid one an offer to answer
    if option.paid:
        return 12.0  # a paid order gives the opponent an offer to answer
    if option.crowned:
        return 3.0  # crowns move the monarch on towards the scorings and the end
    return 1.0


def choose(rng: random.Random, options: list[Option]) -> Option:
    """A repeatable weighted pick: ``options`` arrive in page order, which is stable."""
    return rng.choices(options, weights=[weight(o) for o in options])[0]

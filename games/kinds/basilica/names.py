"""The game's own names in the active language, translated once per language.

A game page names orders, ranks, colours and vaults hundreds of times (every cell of the
cathedral, every line of the log): each table here is made once per language and process, so
that drawing a page costs dict lookups, not catalogue lookups. The French words are those of the
2010 French rulebook, the Polish ones those of the 2022 Polish rulebook (``locale/glossary.csv``).
A word that changes its form in a sentence has a message of its own: a vault's colours agree
with "voûte" and "Sklepienie", a rank after "became" is in the instrumental in Polish.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine.basilica.components import COLOR_NAMES, ORDER_NAMES, RANK_NAMES
from games.words import say

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """``build()``'s result for the active language, made on the first call in that language
    and kept: the catalogues do not change while the site runs."""
    made: dict[str | None, T] = {}

    def in_language() -> T:
        language = get_language()
        found = made.get(language)
        if found is None:
            found = made[language] = build()
        return found

    return in_language


def _vaults() -> dict[str, str]:
    """A vault named by its colours, as the log and the board's labels say it."""
    return {
        "Y": _("yellow vault"),
        "B": _("blue vault"),
        "R": _("red vault"),
        "G": _("green vault"),
        "YB": _("yellow/blue vault"),
        "YR": _("yellow/red vault"),
        "YG": _("yellow/green vault"),
        "BR": _("blue/red vault"),
        "BG": _("blue/green vault"),
        "RG": _("red/green vault"),
    }


@dataclass(frozen=True)
class Names:
    orders: dict[str, str]  # "promote" -> "Promote"
    ranks: dict[str, str]  # "architect" -> "Architect"
    colors: dict[str, str]  # "Y" -> "yellow", the colour itself
    vaults: dict[str, str]  # "YB" -> "yellow/blue vault"
    crowned: str  # "%(face)s (crowned)"


@per_language
def names() -> Names:
    """The game's names in the active language."""
    return Names(
        orders={order: say(name) for order, name in ORDER_NAMES.items()},
        ranks={rank: say(name) for rank, name in RANK_NAMES.items()},
        colors={color: say(name) for color, name in COLOR_NAMES.items()},
        vaults=_vaults(),
        crowned=_("%(face)s (crowned)"),
    )


def vault_name(colors: str, crown: bool = False) -> str:
    """ "red vault", "red/blue vault (crowned)"."""
    known = names()
    vault = known.vaults[colors]
    return known.crowned % {"face": vault} if crown else vault

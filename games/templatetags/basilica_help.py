"""The words of ``games.kinds.basilica.help`` for templates: tooltips and the legend.

{% load basilica_help %}
<button title="{% order_help tile.order view.edition view.expansion tile.paid view.rules_version %}">…
{% symbol_legend view.edition view.expansion %}
"""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from games.engine.basilica.components import COLOR_NAMES, ORDER_NAMES
from games.engine.interface import N_
from games.kinds.basilica import help as words
from games.words import say

register = template.Library()


@register.simple_tag
def order_help(
    order: str, edition: str = "2022", expansion: bool = False, paid=None, version: str = ""
) -> str:
    """``version``: the game's rules version (``view.rules_version``); the current one if ""."""
    return words.order_help(order, edition, bool(expansion), paid, version or words.VERSION)


@register.simple_tag
def rank_help(rank: str, edition: str = "2022") -> str:
    return words.rank_help(rank, edition)


@register.simple_tag
def vault_help(colors: str, crown: bool = False, edition: str = "2022") -> str:
    return words.vault_help(colors, bool(crown), edition)


@register.simple_tag
def action_help(kind: str) -> str:
    return words.action_help(kind)


@register.simple_tag
def track_caption(edition: str, crown_spaces) -> str:
    return words.track_caption(edition, crown_spaces)


@register.inclusion_tag("games/basilica/_legend.html")
def symbol_legend(edition: str = "2022", expansion: bool = False, opened: bool = False) -> dict:
    return {"legend": words.legend(edition, bool(expansion)), "opened": opened}


@register.filter
def tile_words(tile: dict) -> str:
    """A revealed tile of the stack (a tile's JSON: colours, crown, order, paid) in words: its
    colours, its crown, its order, as the engine names them, in the reader's language."""
    names = "/".join(say(N_(COLOR_NAMES[c])) for c in tile.get("colors", "") if c in COLOR_NAMES)
    order = say(N_(ORDER_NAMES.get(tile.get("order"), tile.get("order") or "")))
    crown = " ♔" if tile.get("crown") else ""
    if tile.get("paid"):
        return gettext("%(colors)s%(crown)s, %(order)s (paid)") % {
            "colors": names,
            "crown": crown,
            "order": order,
        }
    return f"{names}{crown}, {order}"

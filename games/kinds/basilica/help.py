"""The words of help: what each order, rank, vault and symbol means, as the rulebooks in
``shared/rules`` say it and ``RULINGS.md`` settles it. Tooltips, the game page's legend and the
rules page all read them from here, so a rule is explained once.

Every function takes the game's edition ("2010": the king; "2022": the queen and the Jester)
and, where it matters, whether the Festum Fatuorum expansion (altars) is in play: on this site
the expansion goes with either edition (RULINGS, engine decision 13).

Every text is said in the active language, in the words of that language's rulebook (French:
2010, Polish: 2022). A sentence that names the king or the queen is written twice, as French
and Polish agree their words with the monarch's gender.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps

from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine.basilica.components import (
    ALTAR,
    ARCHITECT,
    COLORS,
    CONFUSE,
    DISASTER,
    EDITIONS,
    GLASS,
    JESTER,
    MASON,
    MOVE,
    ORDERS,
    PAID_ORDERS,
    PROMOTE,
    RECRUIT,
    SCAFFOLD,
    STRONGMAN,
)
from games.engine.basilica.components import RANK_NAMES as ENGLISH_RANK_NAMES
from games.engine.basilica.state import VERSION

EXPANSION_NAME = "Festum Fatuorum"
# What the pages draw for each thing, so that the legend and the board agree.
SYMBOLS = {
    "crown": "♔",
    "crown_space": "♔",
    "monarch": "♚",
    "glass": "◈",
    "altar": "✝",
    "scaffold": "▦",
    "coin": "¢",
}
RANK_LETTERS = {ARCHITECT: "A", MASON: "M", STRONGMAN: "S", JESTER: "J"}

# The names of the rulebooks: Promouvoir, Szkolenie...
_ORDER_NAMES = {
    PROMOTE: gettext_lazy("Promote"),
    MOVE: gettext_lazy("Move Builder"),
    RECRUIT: gettext_lazy("Recruit"),
    CONFUSE: gettext_lazy("Confuse"),
    GLASS: gettext_lazy("Stained Glass"),
    SCAFFOLD: gettext_lazy("Scaffolding"),
    DISASTER: gettext_lazy("Disaster"),
    ALTAR: gettext_lazy("Altar"),
}
_RANK_NAMES = {
    ARCHITECT: gettext_lazy("Architect"),
    MASON: gettext_lazy("Master Mason"),
    STRONGMAN: gettext_lazy("Strongman"),
    JESTER: gettext_lazy("Jester"),
}
# A colour as the adjective of a vault or an area (French: feminine, "voûte", "zone"; Polish:
# masculine, "kafelek", "obszar").
_COLOR_NAMES = {
    "Y": pgettext_lazy("colour of a vault or an area", "yellow"),
    "B": pgettext_lazy("colour of a vault or an area", "blue"),
    "R": pgettext_lazy("colour of a vault or an area", "red"),
    "G": pgettext_lazy("colour of a vault or an area", "green"),
}
# The two colours of a wild vault (Polish makes one word of them: "żółto-niebieski").
_WILD_NAMES = {
    "YB": pgettext_lazy("colours of a wild vault", "yellow and blue"),
    "YR": pgettext_lazy("colours of a wild vault", "yellow and red"),
    "YG": pgettext_lazy("colours of a wild vault", "yellow and green"),
    "BR": pgettext_lazy("colours of a wild vault", "blue and red"),
    "BG": pgettext_lazy("colours of a wild vault", "blue and green"),
    "RG": pgettext_lazy("colours of a wild vault", "red and green"),
}
_RANK_LISTS = {
    "2010": gettext_lazy("Architect, Master Mason or Strongman"),
    "2022": gettext_lazy("Architect, Master Mason, Strongman or Jester"),
}

ACTION_COST = gettext_lazy(
    "Costs one of your three actions; the tile is then discarded and a new order drawn."
)

_ORDER_DOES = {
    PROMOTE: gettext_lazy(
        "Put a promotion token under one of your builders in the cathedral, showing a rank it "
        "does not already have (%(ranks)s). A builder that already had a rank gives its old "
        "token back to your supply. You need a token in your supply, even to change a rank."
    ),
    MOVE: gettext_lazy(
        "Move one of your builders, with its rank, to an adjacent vault (never diagonally) "
        "that has no builder."
    ),
    RECRUIT: gettext_lazy(
        "Put a builder from your supply on any vault in the cathedral that has no builder."
    ),
    CONFUSE: gettext_lazy(
        "Send one of your builders in the cathedral back to your supply, then move one of your "
        "opponent's builders to an adjacent vault that has no builder. You may choose this order "
        "only if an opponent's builder can move as things stand when you choose it, before your "
        "own builder leaves; once chosen, it may move onto the vault yours left."
    ),
    GLASS: gettext_lazy(
        "Put a stained glass window on a vault where you have a builder and which has no window "
        "yet. At every scoring it adds 2 points to the value of each area it is part of, "
        "whoever takes the area. It stays as long as its tile does."
    ),
    SCAFFOLD: gettext_lazy(
        "Place two scaffolds, one after the other, each where a vault could go: in row 0 or next "
        "to a vault or scaffold, within the five columns (colours do not matter). Nothing can be "
        "placed on a scaffold, it belongs to no area, and every scaffold is removed at the next "
        "scoring."
    ),
    DISASTER: gettext_lazy(
        "Discard a vault that has no builder, with its stained glass. The cathedral may be "
        "split in two."
    ),
    ALTAR: gettext_lazy(
        "Put an altar on a vault that has none, then a second altar on another vault without "
        "one (never on a scaffold): the second is not optional; only when no other vault can "
        "take it, or a single altar token is left, is one placed. A vault with an altar cannot "
        "be discarded by Disaster, a builder on it cannot be moved by Confuse, and its stained "
        "glass counts 4 instead of 2. Altars leave the game with their tile."
    ),
}
# With the expansion, in place of the words above.
_ORDER_DOES_WITH_ALTARS = {
    DISASTER: gettext_lazy(
        "Discard a vault that has no builder and no altar, with its stained glass. The "
        "cathedral may be split in two."
    ),
}
# With the expansion, after the words above.
_ALTAR_WORDS = {
    CONFUSE: gettext_lazy("A builder standing on an altar cannot be moved by Confuse."),
    GLASS: gettext_lazy("On a vault with an altar it adds 4 points instead of 2."),
}
# The orders whose words differ in version 1 of the rules (RULINGS.md §5): the games stored
# with version 1 are played to their end by it, and their pages say its rules.
_ORDER_DOES_V1 = {
    CONFUSE: gettext_lazy(
        "Send one of your builders in the cathedral back to your supply, then move one of your "
        "opponent's builders to an adjacent vault that has no builder. You may choose this order "
        "only if both steps are possible once your own builder has left."
    ),
    ALTAR: gettext_lazy(
        "Put an altar on a vault that has none, then, if you wish, a second altar on another "
        "vault (never on a scaffold). A vault with an altar cannot be discarded by Disaster, a "
        "builder on it cannot be moved by Confuse, and its stained glass counts 4 instead of 2. "
        "Altars leave the game with their tile."
    ),
}
# What the opponent may do for one coin after a paid order (RULINGS.md §5).
_PAID_DOES = {
    PROMOTE: gettext_lazy(
        "after your order, your opponent may pay you 1 coin to promote one of their own "
        "builders, to a rank other than the one you just chose."
    ),
    RECRUIT: gettext_lazy(
        "after your order, your opponent may pay you 1 coin to put one of their builders on a "
        "vault with no builder next to a vault where they already have one."
    ),
    CONFUSE: gettext_lazy(
        "after your order, your opponent may pay you 1 coin to choose themselves which of their "
        "builders moves, and where (they cannot refuse the move)."
    ),
}
_RANK_DOES = {
    ARCHITECT: gettext_lazy(
        "In an area with an Architect, of either player, the player with the majority scores "
        "the area's tiles twice (stained glass is added afterwards, not doubled). Several "
        "Architects still double only once, and a badly placed Architect doubles the opponent's "
        "points."
    ),
    MASON: gettext_lazy(
        "Counts as two builders for the majority in its area, but as one builder when the "
        "minority counts its points."
    ),
    STRONGMAN: gettext_lazy(
        "Wins a tied majority in its area for its owner. If both players have a Strongman in "
        "the area, they cancel out and the tie scores nothing."
    ),
    JESTER: gettext_lazy(
        "Just before each scoring, the Jester's owner picks one colour its tile lacks; for that "
        "scoring the tile has that colour too (a single-colour tile becomes wild, a wild one "
        "three-coloured), and like any wild tile it makes no area on its own. If both players "
        "have a Jester, the picks stay secret until the scoring. It does not change where vaults "
        "may be placed."
    ),
}
# The legend's first words on a rank (Polish declines the rank: "wyszkolony na Architekta").
_RANK_PROMOTED = {
    ARCHITECT: gettext_lazy("A builder promoted to Architect."),
    MASON: gettext_lazy("A builder promoted to Master Mason."),
    STRONGMAN: gettext_lazy("A builder promoted to Strongman."),
    JESTER: gettext_lazy("A builder promoted to Jester."),
}


def _once_per_language(function: Callable[..., str]) -> Callable[..., str]:
    """Said once per language and arguments, then kept: the game page asks for the same help
    (its tooltips, the track's caption) on every move, and a sentence looked up word by word in
    the catalogue each time would slow every move."""
    kept = lru_cache(maxsize=1024)(lambda language, *args, **kwargs: function(*args, **kwargs))

    @wraps(function)
    def said(*args, **kwargs) -> str:
        return kept(get_language(), *args, **kwargs)

    return said


def _check_edition(edition: str) -> dict:
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    return EDITIONS[edition]


def monarch(edition: str) -> str:
    """ "king" (2010) or "queen" (2022)."""
    return _check_edition(edition)["monarch"]


def _by_monarch(edition: str, king: str, queen: str) -> str:
    """The words of the edition's monarch, each written whole (he or she, le roi or la reine)."""
    return king if monarch(edition) == "king" else queen


def ranks(edition: str) -> tuple[str, ...]:
    return _check_edition(edition)["ranks"]


def orders(expansion: bool) -> tuple[str, ...]:
    """The orders on the tiles of a game, the Altar only with the expansion."""
    return ORDERS if expansion else tuple(o for o in ORDERS if o != ALTAR)


def order_name(order: str) -> str:
    """The order's name in the active language ("Promote", "Promouvoir", "Szkolenie")."""
    return str(_ORDER_NAMES[order])


def rank_name(rank: str) -> str:
    """The rank's name in the active language ("Strongman", "Hercule", "Osiłek")."""
    return str(_RANK_NAMES[rank])


def color_name(color: str) -> str:
    """A colour letter as the adjective of a vault or an area ("red", "rouge", "czerwony")."""
    return str(_COLOR_NAMES[color])


def wild_name(colors: str) -> str:
    """The two colours of a wild vault ("yellow and blue", "żółto-niebieski")."""
    return str(_WILD_NAMES["".join(sorted(colors, key=COLORS.index))])


def order_does(order: str, edition: str, expansion: bool = False, version: str = VERSION) -> str:
    """What the order does, without its cost or paid order, by the rules ``version`` a game is
    played by (the current one unless said)."""
    _check_edition(edition)
    if order not in _ORDER_DOES:
        raise ValueError(f"unknown order {order!r}")
    text = _ORDER_DOES[order]
    if version == "1":
        text = _ORDER_DOES_V1.get(order, text)
    if expansion:
        text = _ORDER_DOES_WITH_ALTARS.get(order, text)
    said = str(text) % {"ranks": _RANK_LISTS[edition]} if order == PROMOTE else str(text)
    if expansion and order in _ALTAR_WORDS:
        said += " " + str(_ALTAR_WORDS[order])
    return said


def paid_does(order: str) -> str:
    """What the opponent may do for a coin after this order, or "" if it has no paid order."""
    return str(_PAID_DOES.get(order, ""))


def paid_help(order: str, paid: bool | None = None) -> str:
    """The paid order in a sentence: for a tile known to have the coin box (``paid=True``),
    one known not to (``False``: ""), or the order in general (``None``)."""
    if order not in PAID_ORDERS or paid is False:
        return ""
    words = {"coin": SYMBOLS["coin"], "does": _PAID_DOES[order]}
    if paid:
        return _(
            "Paid order (this tile's coin box %(coin)s): %(does)s It costs them no action."
        ) % (words)
    return _(
        "Paid order (on tiles with a coin box %(coin)s): %(does)s It costs them no action."
    ) % (words)


@_once_per_language
def order_help(
    order: str,
    edition: str = "2022",
    expansion: bool = False,
    paid: bool | None = None,
    version: str = VERSION,
) -> str:
    """The whole help of an order: what it does, what it costs, its paid order if any.

    ``paid`` is the tile's coin box when the help is about one tile; None speaks of the order in
    general (Promote, Recruit and Confuse tiles may have one). ``version``: the game's rules.
    """
    parts = [order_does(order, edition, expansion, version), str(ACTION_COST)]
    parts.append(paid_help(order, paid))
    if order == ALTAR:
        parts.append(_("Only with the %(expansion)s expansion.") % {"expansion": EXPANSION_NAME})
    return " ".join(p for p in parts if p)


def order_entry(
    order: str, edition: str = "2022", expansion: bool = False, version: str = VERSION
) -> dict:
    """One order as data for a page: ``{order, name, does, cost, paid, expansion, text}``;
    ``paid`` is what the opponent may do for a coin ("" for an order with no paid order)."""
    expansion = expansion or order == ALTAR
    return {
        "order": order,
        "name": order_name(order),
        "does": order_does(order, edition, expansion, version),
        "cost": str(ACTION_COST),
        "paid": paid_does(order),
        "expansion": order == ALTAR,
        "text": order_help(order, edition, expansion, version=version),
    }


def rank_help(rank: str, edition: str = "2022") -> str:
    """What a builder of this rank does; ValueError for a rank the edition does not have."""
    if rank not in ranks(edition):
        raise ValueError(f"the {edition} edition has no {ENGLISH_RANK_NAMES.get(rank, rank)} rank")
    return str(_RANK_DOES[rank])


_ACTION_HELP = {
    "vault": gettext_lazy(
        "Place Vault: take a vault from the market and place it in row 0 or next to a vault or "
        "scaffold, within the five columns; two wild vaults may never touch. Costs one action. "
        "The order above it slides down to its vault side and a new order is drawn."
    ),
    "builder": gettext_lazy(
        "Place Builder: only right after Place Vault, put a builder from your supply on the "
        "vault you just placed. Costs one action."
    ),
}


def action_help(kind: str) -> str:
    """Place Vault ("vault") or Place Builder ("builder"), the two actions that are no order."""
    return str(_ACTION_HELP[kind])


@_once_per_language
def vault_help(colors: str, crown: bool = False, edition: str = "2022") -> str:
    """A vault tile, as a tooltip on the market or the board says it."""
    if len(colors) > 1:
        text = _(
            "A wild %(hues)s vault: it belongs to an area of each of its colours that it "
            "touches, without joining them, makes no area on its own, and may not be placed "
            "next to another wild vault."
        ) % {"hues": wild_name(colors)}
    else:
        text = capfirst(_("A %(hue)s vault.") % {"hue": color_name(colors)})
    if crown:
        crowned = _by_monarch(
            edition,
            _("%(crown)s Crowned: placing it moves the king one space."),
            _("%(crown)s Crowned: placing it moves the queen one space."),
        )
        text += " " + crowned % {"crown": SYMBOLS["crown"]}
    return text


def track_caption(edition: str, crown_spaces: tuple[int, ...] | list[int]) -> str:
    """The caption of the king's (queen's) track."""
    return _track_caption(edition, tuple(crown_spaces))


@_once_per_language
def _track_caption(edition: str, crown_spaces: tuple[int, ...]) -> str:
    caption = _by_monarch(
        edition,
        _(
            "The king's track. Each crowned vault placed moves the king %(monarch)s one space; "
            "when he enters a crown space %(crown)s (%(spaces)s), the areas are scored and the "
            "turn ends. The scoring at the last crown space ends the game."
        ),
        _(
            "The queen's track. Each crowned vault placed moves the queen %(monarch)s one space; "
            "when she enters a crown space %(crown)s (%(spaces)s), the areas are scored and the "
            "turn ends. The scoring at the last crown space ends the game."
        ),
    )
    return caption % {
        "monarch": SYMBOLS["monarch"],
        "crown": SYMBOLS["crown_space"],
        "spaces": ", ".join(str(s) for s in crown_spaces),
    }


def legend(edition: str = "2022", expansion: bool = False) -> list[dict]:
    """Every symbol of the game page, as ``{key, symbol, name, text}`` dicts in reading order.

    ``key`` is stable and id-safe: the legend gives each text the id ``help-<key>``, which a
    tooltip's ``aria-describedby`` may point at.
    """
    return [dict(entry) for entry in _legend(get_language(), edition, bool(expansion))]


@lru_cache(maxsize=64)
def _legend(language: str | None, edition: str, expansion: bool) -> tuple[dict, ...]:
    """The legend in ``language`` (the active one, which the words are said in), kept."""
    king = monarch(edition) == "king"
    entries = [
        {
            "key": "vault",
            "symbol": " ".join(COLORS),
            "name": _("Vault"),
            "text": _(
                "A vault of one colour: Y yellow, B blue, R red, G green. Tiles of one colour "
                "that touch (not diagonally) make an area."
            ),
        },
        {"key": "wild", "symbol": "YB", "name": _("Wild vault"), "text": vault_help("YB")},
        {
            "key": "crown",
            "symbol": SYMBOLS["crown"],
            "name": _("Crowned vault"),
            "text": _("Placing a crowned vault moves the king one space on the king's track.")
            if king
            else _("Placing a crowned vault moves the queen one space on the queen's track."),
        },
        {
            "key": "builder",
            "symbol": "1 2",
            "name": _("Builder"),
            "text": _(
                "A builder of player 1 or player 2; at most one on a vault. Builders give the "
                "majority of an area; each player has 5."
            ),
        },
    ]
    entries += [
        {
            "key": f"rank-{rank}",
            "symbol": RANK_LETTERS[rank],
            "name": rank_name(rank),
            "text": f"{_RANK_PROMOTED[rank]} {rank_help(rank, edition)}",
        }
        for rank in ranks(edition)
    ]
    entries.append(
        {
            "key": "glass",
            "symbol": SYMBOLS["glass"],
            "name": _("Stained glass"),
            "text": _(
                "Adds 2 points to the value of each area its vault is part of, 4 on a vault "
                "with an altar."
            )
            if expansion
            else _("Adds 2 points to the value of each area its vault is part of."),
        }
    )
    if expansion:
        entries.append(
            {
                "key": "altar",
                "symbol": SYMBOLS["altar"],
                "name": order_name(ALTAR),
                "text": _(
                    "%(expansion)s: its vault cannot be discarded by Disaster, its builder "
                    "cannot be moved by Confuse, and its stained glass counts 4."
                )
                % {"expansion": EXPANSION_NAME},
            }
        )
    entries += [
        {
            "key": "scaffold",
            "symbol": SYMBOLS["scaffold"],
            "name": _("Scaffold"),
            "text": _(
                "Blocks its cell: no vault or builder may go on it, and it belongs to no area. "
                "Vaults may be placed next to it. All scaffolds go at the next scoring."
            ),
        },
        {
            "key": "coin",
            "symbol": SYMBOLS["coin"],
            "name": _("Coin box"),
            "text": _(
                "An order tile with a paid order: after the order, the opponent may pay the "
                "player 1 coin to do the paid order printed in the box. Coins are not points."
            ),
        },
        {
            "key": "crown-space",
            "symbol": SYMBOLS["crown_space"],
            "name": _("Crown space"),
            "text": _(
                "A scoring space of the king's track: when the king enters it, every area is "
                "scored and the turn ends."
            )
            if king
            else _(
                "A scoring space of the queen's track: when the queen enters it, every area is "
                "scored and the turn ends."
            ),
        },
        {
            "key": "monarch",
            "symbol": SYMBOLS["monarch"],
            "name": _("The king") if king else _("The queen"),
            "text": _("Where the king stands on the track: one space per crowned vault placed.")
            if king
            else _("Where the queen stands on the track: one space per crowned vault placed."),
        },
        {
            "key": "coordinates",
            "symbol": "c2r1",
            "name": _("Cell"),
            "text": _(
                "Column 2 (of 0 to 4), row 1. Row 0 lies against the board; the cathedral grows "
                "away from it."
            ),
        },
    ]
    return tuple(entries)


def _tiles(count: int) -> str:
    return ngettext("%(count)d tile", "%(count)d tiles", count) % {"count": count}


def area_explained(area: dict, names: tuple[str, str] | list[str] | None = None) -> str:
    """One scored area in words: who took it and why. ``area`` is a scoring area as the engine
    gives it (``ScoreReport.to_json()["areas"]``); ``names`` the two players' (player 1 and
    player 2 unless given)."""
    names = names or (_("Player 1"), _("Player 2"))
    strength = area["strength"]
    size = len(area["cells"])
    head = capfirst(
        ngettext(
            "%(hue)s area of %(count)d tile, strength %(first)d to %(second)d",
            "%(hue)s area of %(count)d tiles, strength %(first)d to %(second)d",
            size,
        )
        % {
            "hue": color_name(area["color"]),
            "count": size,
            "first": strength[0],
            "second": strength[1],
        }
    )
    winner = area["winner"]
    if winner is None:
        return _("%(head)s: a tie, so nobody scores it.") % {"head": head}
    value = [_tiles(size)]
    if area["architect"]:
        value.append(_("doubled by an Architect"))
    if area["glass"]:
        value.append(_("plus %(glass)d for stained glass") % {"glass": area["glass"]})
    said = {"player": names[winner], "taken": area["value"], "why": ", ".join(value)}
    if strength[0] == strength[1]:
        told = ngettext(
            "%(player)s wins the tie with a Strongman and takes %(taken)d (%(why)s)",
            "%(player)s wins the tie with a Strongman and takes %(taken)d (%(why)s)",
            area["value"],
        )
    else:
        told = ngettext(
            "%(player)s has the majority and takes %(taken)d (%(why)s)",
            "%(player)s has the majority and takes %(taken)d (%(why)s)",
            area["value"],
        )
    told %= said
    loser = 1 - winner
    minority = area["builders"][loser]
    if minority:
        told = pgettext(
            "scoring example: the majority's clause, then the minority's",
            "%(taken)s; %(rest)s",
        ) % {
            "taken": told,
            "rest": ngettext(
                "%(player)s takes %(count)d for %(count)d builder",
                "%(player)s takes %(count)d for %(count)d builders",
                minority,
            )
            % {"player": names[loser], "count": minority},
        }
        if strength[loser] > minority:
            told += " " + pgettext("scoring example", "(a Master Mason counts as one here)")
    return _("%(head)s: %(told)s.") % {"head": head, "told": told}

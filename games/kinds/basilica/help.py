"""The words of help: what each order, rank, vault and symbol means, as the rulebooks in
``shared/rules`` say it and ``RULINGS.md`` settles it. Tooltips, the game page's legend and the
rules page all read them from here, so a rule is explained once.

Every function takes the game's edition ("2010": the king; "2022": the queen and the Jester)
and, where it matters, whether the Festum Fatuorum expansion (altars) is in play: on this site
the expansion goes with either edition (RULINGS, engine decision 13).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine.basilica.components import (
    ALTAR,
    ARCHITECT,
    COLOR_NAMES,
    COLORS,
    CONFUSE,
    DISASTER,
    EDITIONS,
    GLASS,
    JESTER,
    MASON,
    MOVE,
    ORDER_NAMES,
    ORDERS,
    PAID_ORDERS,
    PROMOTE,
    RANK_NAMES,
    RECRUIT,
    SCAFFOLD,
    STRONGMAN,
)
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
ACTION_COST = "Costs one of your three actions; the tile is then discarded and a new order drawn."

_ORDER_DOES = {
    PROMOTE: (
        "Put a promotion token under one of your builders in the cathedral, showing a rank it "
        "does not already have ({ranks}). A builder that already had a rank gives its old token "
        "back to your supply. You need a token in your supply, even to change a rank."
    ),
    MOVE: (
        "Move one of your builders, with its rank, to an adjacent vault (never diagonally) "
        "that has no builder."
    ),
    RECRUIT: "Put a builder from your supply on any vault in the cathedral that has no builder.",
    CONFUSE: _(
        "Send one of your builders in the cathedral back to your supply, then move one of your "
        "opponent's builders to an adjacent vault that has no builder. You may choose this order "
        "only if an opponent's builder can move as things stand when you choose it, before your "
        "own builder leaves; once chosen, it may move onto the vault yours left.{altar}"
    ),
    GLASS: (
        "Put a stained glass window on a vault where you have a builder and which has no window "
        "yet. At every scoring it adds {points} to the value of each area it is part of, "
        "whoever takes the area. It stays as long as its tile does."
    ),
    SCAFFOLD: (
        "Place two scaffolds, one after the other, each where a vault could go: in row 0 or next "
        "to a vault or scaffold, within the five columns (colours do not matter). Nothing can be "
        "placed on a scaffold, it belongs to no area, and every scaffold is removed at the next "
        "scoring."
    ),
    DISASTER: (
        "Discard a vault that has no builder{altar}, with its stained glass. The cathedral may "
        "be split in two."
    ),
    ALTAR: _(
        "Put an altar on a vault that has none, then a second altar on another vault without "
        "one (never on a scaffold): the second is not optional; only when no other vault can "
        "take it, or a single altar token is left, is one placed. A vault with an altar cannot "
        "be discarded by Disaster, a builder on it cannot be moved by Confuse, and its stained "
        "glass counts 4 instead of 2. Altars leave the game with their tile."
    ),
}
# The orders whose words differ in version 1 of the rules (RULINGS.md §5): the games stored
# with version 1 are played to their end by it, and their pages say its rules.
_ORDER_DOES_V1 = {
    CONFUSE: _(
        "Send one of your builders in the cathedral back to your supply, then move one of your "
        "opponent's builders to an adjacent vault that has no builder. You may choose this order "
        "only if both steps are possible once your own builder has left.{altar}"
    ),
    ALTAR: _(
        "Put an altar on a vault that has none, then, if you wish, a second altar on another "
        "vault (never on a scaffold). A vault with an altar cannot be discarded by Disaster, a "
        "builder on it cannot be moved by Confuse, and its stained glass counts 4 instead of 2. "
        "Altars leave the game with their tile."
    ),
}
# What the opponent may do for one coin after a paid order (RULINGS.md §5).
_PAID_DOES = {
    PROMOTE: "promote one of their own builders, to a rank other than the one you just chose",
    RECRUIT: (
        "put one of their builders on a vault with no builder next to a vault where they already "
        "have one"
    ),
    CONFUSE: (
        "choose themselves which of their builders moves, and where (they cannot refuse the move)"
    ),
}
_RANK_DOES = {
    ARCHITECT: (
        "In an area with an Architect, of either player, the player with the majority scores "
        "the area's tiles twice (stained glass is added afterwards, not doubled). Several "
        "Architects still double only once, and a badly placed Architect doubles the opponent's "
        "points."
    ),
    MASON: (
        "Counts as two builders for the majority in its area, but as one builder when the "
        "minority counts its points."
    ),
    STRONGMAN: (
        "Wins a tied majority in its area for its owner. If both players have a Strongman in "
        "the area, they cancel out and the tie scores nothing."
    ),
    JESTER: (
        "Just before each scoring, the Jester's owner picks one colour its tile lacks; for that "
        "scoring the tile has that colour too (a single-colour tile becomes wild, a wild one "
        "three-coloured), and like any wild tile it makes no area on its own. If both players "
        "have a Jester, the picks stay secret until the scoring. It does not change where vaults "
        "may be placed."
    ),
}


def _check_edition(edition: str) -> dict:
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    return EDITIONS[edition]


def monarch(edition: str) -> str:
    """ "king" (2010) or "queen" (2022)."""
    return _check_edition(edition)["monarch"]


def ranks(edition: str) -> tuple[str, ...]:
    return _check_edition(edition)["ranks"]


def orders(expansion: bool) -> tuple[str, ...]:
    """The orders on the tiles of a game, the Altar only with the expansion."""
    return ORDERS if expansion else tuple(o for o in ORDERS if o != ALTAR)


def _rank_list(edition: str) -> str:
    names = [RANK_NAMES[r] for r in ranks(edition)]
    return ", ".join(names[:-1]) + " or " + names[-1]


def order_does(order: str, edition: str, expansion: bool = False, version: str = VERSION) -> str:
    """What the order does, without its cost or paid order, by the rules ``version`` a game is
    played by (the current one unless said)."""
    _check_edition(edition)
    if order not in _ORDER_DOES:
        raise ValueError(f"unknown order {order!r}")
    text = _ORDER_DOES_V1.get(order, _ORDER_DOES[order]) if version == "1" else _ORDER_DOES[order]
    if order == ALTAR:
        return str(text)
    altar_words = {
        CONFUSE: " A builder standing on an altar cannot be moved by Confuse." if expansion else "",
        DISASTER: " and no altar" if expansion else "",
    }
    return text.format(
        ranks=_rank_list(edition),
        points="2 points (4 on a vault with an altar)" if expansion else "2 points",
        altar=altar_words.get(order, ""),
    )


def paid_does(order: str) -> str:
    """What the opponent may do for a coin after this order, or "" if it has no paid order."""
    return _PAID_DOES.get(order, "")


def paid_help(order: str, paid: bool | None = None) -> str:
    """The paid order in a sentence: for a tile known to have the coin box (``paid=True``),
    one known not to (``False``: ""), or the order in general (``None``)."""
    if order not in PAID_ORDERS or paid is False:
        return ""
    does = _PAID_DOES[order]
    where = "this tile's coin box" if paid else "on tiles with a coin box"
    return (
        f"Paid order ({where} {SYMBOLS['coin']}): after your order, your opponent may pay you "
        f"1 coin to {does}. It costs them no action."
    )


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
    parts = [order_does(order, edition, expansion, version), ACTION_COST, paid_help(order, paid)]
    if order == ALTAR:
        parts.append(f"Only with the {EXPANSION_NAME} expansion.")
    return " ".join(p for p in parts if p)


def order_entry(
    order: str, edition: str = "2022", expansion: bool = False, version: str = VERSION
) -> dict:
    """One order as data for a page: ``{order, name, does, cost, paid, expansion, text}``;
    ``paid`` is what the opponent may do for a coin ("" for an order with no paid order)."""
    expansion = expansion or order == ALTAR
    return {
        "order": order,
        "name": ORDER_NAMES[order],
        "does": order_does(order, edition, expansion, version),
        "cost": ACTION_COST,
        "paid": paid_does(order),
        "expansion": order == ALTAR,
        "text": order_help(order, edition, expansion, version=version),
    }


def rank_help(rank: str, edition: str = "2022") -> str:
    """What a builder of this rank does; ValueError for a rank the edition does not have."""
    if rank not in ranks(edition):
        raise ValueError(f"the {edition} edition has no {RANK_NAMES.get(rank, rank)} rank")
    return _RANK_DOES[rank]


_ACTION_HELP = {
    "vault": (
        "Place Vault: take a vault from the market and place it in row 0 or next to a vault or "
        "scaffold, within the five columns; two wild vaults may never touch. Costs one action. "
        "The order above it slides down to its vault side and a new order is drawn."
    ),
    "builder": (
        "Place Builder: only right after Place Vault, put a builder from your supply on the "
        "vault you just placed. Costs one action."
    ),
}


def action_help(kind: str) -> str:
    """Place Vault ("vault") or Place Builder ("builder"), the two actions that are no order."""
    return _ACTION_HELP[kind]


def vault_help(colors: str, crown: bool = False, edition: str = "2022") -> str:
    """A vault tile, as a tooltip on the market or the board says it."""
    names = [COLOR_NAMES[c] for c in colors]
    if len(colors) > 1:
        text = (
            f"A wild {' and '.join(names)} vault: it belongs to an area of each of its colours "
            "that it touches, without joining them, makes no area on its own, and may not be "
            "placed next to another wild vault."
        )
    else:
        text = f"A {names[0]} vault."
    if crown:
        text += f" {SYMBOLS['crown']} Crowned: placing it moves the {monarch(edition)} one space."
    return text


def track_caption(edition: str, crown_spaces: tuple[int, ...] | list[int]) -> str:
    """The caption of the king's (queen's) track."""
    who = monarch(edition)
    spaces = ", ".join(str(s) for s in crown_spaces)
    pronoun = "he" if who == "king" else "she"
    return (
        f"The {who}'s track. Each crowned vault placed moves the {who} {SYMBOLS['monarch']} one "
        f"space; when {pronoun} enters a crown space {SYMBOLS['crown_space']} ({spaces}), the "
        "areas are scored and the turn ends. The scoring at the last crown space ends the game."
    )


def legend(edition: str = "2022", expansion: bool = False) -> list[dict]:
    """Every symbol of the game page, as ``{key, symbol, name, text}`` dicts in reading order.

    ``key`` is stable and id-safe: the legend gives each text the id ``help-<key>``, which a
    tooltip's ``aria-describedby`` may point at.
    """
    who = monarch(edition)
    entries = [
        {
            "key": "vault",
            "symbol": " ".join(COLORS),
            "name": "Vault",
            "text": "A vault of one colour: "
            + ", ".join(f"{c} {COLOR_NAMES[c]}" for c in COLORS)
            + ". Tiles of one colour that touch (not diagonally) make an area.",
        },
        {"key": "wild", "symbol": "YB", "name": "Wild vault", "text": vault_help("YB")},
        {
            "key": "crown",
            "symbol": SYMBOLS["crown"],
            "name": "Crowned vault",
            "text": f"Placing a crowned vault moves the {who} one space on the {who}'s track.",
        },
        {
            "key": "builder",
            "symbol": "1 2",
            "name": "Builder",
            "text": "A builder of player 1 or player 2; at most one on a vault. Builders give "
            "the majority of an area; each player has 5.",
        },
    ]
    entries += [
        {
            "key": f"rank-{rank}",
            "symbol": RANK_LETTERS[rank],
            "name": RANK_NAMES[rank],
            "text": f"A builder promoted to {RANK_NAMES[rank]}. {rank_help(rank, edition)}",
        }
        for rank in ranks(edition)
    ]
    entries.append(
        {
            "key": "glass",
            "symbol": SYMBOLS["glass"],
            "name": "Stained glass",
            "text": "Adds 2 points to the value of each area its vault is part of"
            + (", 4 on a vault with an altar." if expansion else "."),
        }
    )
    if expansion:
        entries.append(
            {
                "key": "altar",
                "symbol": SYMBOLS["altar"],
                "name": "Altar",
                "text": f"{EXPANSION_NAME}: its vault cannot be discarded by Disaster, its "
                "builder cannot be moved by Confuse, and its stained glass counts 4.",
            }
        )
    entries += [
        {
            "key": "scaffold",
            "symbol": SYMBOLS["scaffold"],
            "name": "Scaffold",
            "text": "Blocks its cell: no vault or builder may go on it, and it belongs to no "
            "area. Vaults may be placed next to it. All scaffolds go at the next scoring.",
        },
        {
            "key": "coin",
            "symbol": SYMBOLS["coin"],
            "name": "Coin box",
            "text": "An order tile with a paid order: after the order, the opponent may pay the "
            "player 1 coin to do the paid order printed in the box. Coins are not points.",
        },
        {
            "key": "crown-space",
            "symbol": SYMBOLS["crown_space"],
            "name": "Crown space",
            "text": f"A scoring space of the {who}'s track: when the {who} enters it, every area "
            "is scored and the turn ends.",
        },
        {
            "key": "monarch",
            "symbol": SYMBOLS["monarch"],
            "name": f"The {who}",
            "text": f"Where the {who} stands on the track: one space per crowned vault placed.",
        },
        {
            "key": "coordinates",
            "symbol": "c2r1",
            "name": "Cell",
            "text": "Column 2 (of 0 to 4), row 1. Row 0 lies against the board; the cathedral "
            "grows away from it.",
        },
    ]
    return entries


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def area_explained(area: dict, names: tuple[str, str] | list[str] = ("Player 1", "Player 2")):
    """One scored area in words: who took it and why. ``area`` is a scoring area as the engine
    gives it (``ScoreReport.to_json()["areas"]``)."""
    strength = area["strength"]
    head = (
        f"{COLOR_NAMES[area['color']].capitalize()} area of {_plural(len(area['cells']), 'tile')}, "
        f"strength {strength[0]} to {strength[1]}"
    )
    winner = area["winner"]
    if winner is None:
        return f"{head}: a tie, so nobody scores it."
    how = "wins the tie with a Strongman" if strength[0] == strength[1] else "has the majority"
    value = [_plural(len(area["cells"]), "tile")]
    if area["architect"]:
        value.append("doubled by an Architect")
    if area["glass"]:
        value.append(f"plus {area['glass']} for stained glass")
    told = f"{names[winner]} {how} and takes {area['value']} ({', '.join(value)})"
    loser = 1 - winner
    minority = area["builders"][loser]
    if minority:
        told += f"; {names[loser]} takes {minority} for {_plural(minority, 'builder')}"
        if strength[loser] > minority:
            told += " (a Master Mason counts as one here)"
    return f"{head}: {told}."

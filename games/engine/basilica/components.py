"""The box: tiles, their orders, and the options a game is created with.

Every count here is the default manifest of RULINGS.md §1. Figures the rulebooks lost with their
pictures are marked in ``ASSUMED`` so the rules page can show players which ones to check against
their own box; any of them can be overridden through ``Options``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations

from ..interface import N_

COLORS = "YBRG"
# The names are words the site translates (``games.words.say``): the engine's own text is English.
COLOR_NAMES = {"Y": N_("yellow"), "B": N_("blue"), "R": N_("red"), "G": N_("green")}

PROMOTE = "promote"
MOVE = "move"
RECRUIT = "recruit"
CONFUSE = "confuse"
GLASS = "glass"
SCAFFOLD = "scaffold"
DISASTER = "disaster"
ALTAR = "altar"
ORDERS = (PROMOTE, MOVE, RECRUIT, CONFUSE, GLASS, SCAFFOLD, DISASTER, ALTAR)
ORDER_NAMES = {
    PROMOTE: N_("Promote"),
    MOVE: N_("Move Builder"),
    RECRUIT: N_("Recruit"),
    CONFUSE: N_("Confuse"),
    GLASS: N_("Stained Glass"),
    SCAFFOLD: N_("Scaffolding"),
    DISASTER: N_("Disaster"),
    ALTAR: N_("Altar"),
}
PAID_ORDERS = (PROMOTE, RECRUIT, CONFUSE)

ARCHITECT = "architect"
MASON = "mason"
STRONGMAN = "strongman"
JESTER = "jester"
RANK_NAMES = {
    ARCHITECT: N_("Architect"),
    MASON: N_("Master Mason"),
    STRONGMAN: N_("Strongman"),
    JESTER: N_("Jester"),
}
EDITIONS = {
    "2010": {"monarch": "king", "ranks": (ARCHITECT, MASON, STRONGMAN)},
    "2022": {"monarch": "queen", "ranks": (ARCHITECT, MASON, STRONGMAN, JESTER)},
}

# Order tiles on the backs of the 58 base tiles (RULINGS.md §1, assumed).
BASE_ORDER_COUNTS = {
    PROMOTE: 8,
    MOVE: 9,
    RECRUIT: 9,
    CONFUSE: 8,
    GLASS: 8,
    SCAFFOLD: 8,
    DISASTER: 8,
}
PAID_PER_ORDER = 4
# Which of the ten tiles of one colour, and of the three wilds of one pair, carry a crown.
CROWNED_SINGLE = frozenset({0, 1, 3, 5, 6, 8})
CROWNED_WILD = frozenset({0, 1})
# Festum Fatuorum: two of each colour, five crowned (RULINGS.md §1, assumed).
EXPANSION_CROWNED = frozenset({0, 2, 4, 6, 1})

ASSUMED = (
    N_("which colour pairs the 18 wild tiles have (3 of each of the 6 pairs)"),
    N_(
        "which tiles carry a crown (36 of 58: 6 of every 10 single-colour tiles, 2 of every 3 wilds)"
    ),
    N_(
        "how the orders are spread over the tiles (Promote 8, Move Builder 9, Recruit 9, "
        "Confuse 8, Stained Glass 8, Scaffolding 8, Disaster 8)"
    ),
    N_("which order tiles carry the paid-order coin box (4 Promote, 4 Recruit, 4 Confuse)"),
    N_(
        "the crown spaces of the score track at 10, 20 and 30 (the 2022 edition's; assumed for 2010)"
    ),
    N_("the 8 Festum Fatuorum tiles: 2 of each colour, 5 of them crowned"),
)


@dataclass(frozen=True, slots=True)
class Tile:
    """One cathedral tile: a vault of one or two colours on the front, an order on the back."""

    id: int
    colors: str
    crown: bool
    order: str
    paid: bool
    # Two colours; stored rather than computed, as placement asks it for every cell it tries.
    wild: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "wild", len(self.colors) > 1)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "colors": self.colors,
            "crown": self.crown,
            "order": self.order,
            "paid": self.paid,
        }


def _spread_orders(count: int, order_counts: dict[str, int]) -> list[str]:
    """Deal orders round-robin so that each colour gets a fair mix of them."""
    remaining = dict(order_counts)
    dealt: list[str] = []
    while len(dealt) < count:
        for order in order_counts:
            if remaining[order] and len(dealt) < count:
                remaining[order] -= 1
                dealt.append(order)
    return dealt


def base_tile_specs() -> list[dict]:
    """The 58 tiles of the base game as data: colours, crown, order and paid box."""
    faces: list[tuple[str, bool]] = []
    for color in COLORS:
        faces += [(color, i in CROWNED_SINGLE) for i in range(10)]
    for pair in combinations(COLORS, 2):
        faces += [("".join(pair), i in CROWNED_WILD) for i in range(3)]
    orders = _spread_orders(len(faces), BASE_ORDER_COUNTS)
    seen = dict.fromkeys(PAID_ORDERS, 0)
    specs = []
    for (colors, crown), order in zip(faces, orders, strict=True):
        paid = False
        if order in seen:
            # Every other tile of a paid-capable order gets the coin box, so they span colours.
            paid = seen[order] % 2 == 0 and seen[order] // 2 < PAID_PER_ORDER
            seen[order] += 1
        specs.append({"colors": colors, "crown": crown, "order": order, "paid": paid})
    return specs


def expansion_tile_specs() -> list[dict]:
    """The 8 Festum Fatuorum tiles, all with the Altar order."""
    colors = [c for c in COLORS for _ in range(2)]
    return [
        {"colors": c, "crown": i in EXPANSION_CROWNED, "order": ALTAR, "paid": False}
        for i, c in enumerate(colors)
    ]


# Bounds of the counts an Options may set: far beyond any variant, so that a file from outside
# cannot ask for a game that never ends.
MAX_COUNT = 99
MAX_TILES = 200
_TILE_KEYS = ("colors", "crown", "order", "paid")


@dataclass(frozen=True)
class Options:
    """Everything a game is created with, apart from its seed.

    ``tiles`` replaces the base manifest when given (a list of ``{"colors", "crown", "order",
    "paid"}`` dicts); the expansion's tiles are added to it when ``expansion`` is on.
    """

    edition: str = "2022"
    expansion: bool = False
    remove_six: bool = False
    first_player: int = 0
    crown_spaces: tuple[int, ...] = (10, 20, 30)
    promotion_tokens: int = 4
    builders: int = 5
    coins: int = 1
    altars: int = 14
    tiles: tuple[tuple[str, bool, str, bool], ...] | None = field(default=None)

    def __post_init__(self) -> None:
        if type(self.edition) is not str or self.edition not in EDITIONS:
            raise ValueError(f"unknown edition {str(self.edition)[:10]!r}: choose 2010 or 2022")
        if type(self.expansion) is not bool or type(self.remove_six) is not bool:
            raise ValueError("the expansion and removing 6 tiles are true or false")
        if type(self.first_player) is not int or self.first_player not in (0, 1):
            raise ValueError("the first player is 0 or 1")
        if self.remove_six and not self.expansion:
            raise ValueError("removing 6 tiles is part of the Festum Fatuorum expansion")
        for name in ("promotion_tokens", "builders", "coins", "altars"):
            count = getattr(self, name)
            if type(count) is not int or not 0 <= count <= MAX_COUNT:
                raise ValueError(f"{name} is a whole number from 0 to {MAX_COUNT}")
        spaces = tuple(self.crown_spaces) if isinstance(self.crown_spaces, list | tuple) else ()
        if (
            not 0 < len(spaces) <= MAX_COUNT
            or any(type(space) is not int for space in spaces)
            or list(spaces) != sorted(set(spaces))
            or spaces[0] < 1
        ):
            raise ValueError("crown spaces must be increasing positive numbers")
        object.__setattr__(self, "crown_spaces", spaces)
        if self.tiles is not None:
            _check_tiles(self.tiles)

    @property
    def ranks(self) -> tuple[str, ...]:
        return EDITIONS[self.edition]["ranks"]

    @property
    def monarch(self) -> str:
        return EDITIONS[self.edition]["monarch"]

    def to_json(self) -> dict:
        data = {
            "edition": self.edition,
            "expansion": self.expansion,
            "remove_six": self.remove_six,
            "first_player": self.first_player,
            "crown_spaces": list(self.crown_spaces),
            "promotion_tokens": self.promotion_tokens,
            "builders": self.builders,
            "coins": self.coins,
            "altars": self.altars,
        }
        if self.tiles is not None:
            data["tiles"] = [
                {"colors": c, "crown": k, "order": o, "paid": p} for c, k, o, p in self.tiles
            ]
        return data

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Strict: unknown keys or values of the wrong type raise ValueError."""
        if not isinstance(data, dict):
            raise ValueError("options are a JSON object")
        unknown = sorted(str(key)[:20] for key in data if key not in cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown options: {', '.join(unknown[:8])}")
        data = dict(data)
        if data.get("tiles") is not None:
            tiles = data["tiles"]
            if not isinstance(tiles, list) or not all(
                isinstance(t, dict) and sorted(t) == sorted(_TILE_KEYS) for t in tiles
            ):
                raise ValueError(f"tiles are a list of {{{', '.join(_TILE_KEYS)}}}")
            data["tiles"] = tuple(tuple(t[key] for key in _TILE_KEYS) for t in tiles)
        if "crown_spaces" in data:
            data["crown_spaces"] = tuple(data["crown_spaces"])
        return cls(**data)

    def with_first_player(self, player: int) -> Options:
        return replace(self, first_player=player)


def _check_tiles(tiles: object) -> None:
    """A manifest of tiles, each (colours, crown, order, paid), as ``tiles_for`` reads them."""
    if not isinstance(tiles, tuple) or len(tiles) > MAX_TILES:
        raise ValueError(f"tiles are a tuple of at most {MAX_TILES}")
    for i, tile in enumerate(tiles):
        if not isinstance(tile, tuple) or len(tile) != 4:
            raise ValueError(f"tile {i} is (colours, crown, order, paid)")
        colors, crown, order, paid = tile
        if type(colors) is not str or not 1 <= len(colors) <= 2 or set(colors) - set(COLORS):
            raise ValueError(f"tile {i}: colours must be one or two of {COLORS}")
        if order not in ORDERS:
            raise ValueError(f"tile {i}: unknown order {str(order)[:20]!r}")
        if type(crown) is not bool or type(paid) is not bool:
            raise ValueError(f"tile {i}: its crown and its payment are true or false")


@lru_cache(maxsize=64)
def tiles_for(options: Options) -> tuple[Tile, ...]:
    """The tiles in this game's box, indexed by their id."""
    if options.tiles is None:
        specs = base_tile_specs()
    else:
        specs = [{"colors": c, "crown": k, "order": o, "paid": p} for c, k, o, p in options.tiles]
    if options.expansion:
        specs += expansion_tile_specs()
    tiles = []
    for i, spec in enumerate(specs):
        colors = "".join(sorted(spec["colors"], key=COLORS.index))
        if not 1 <= len(colors) <= 2 or any(c not in COLORS for c in colors):
            raise ValueError(f"tile {i}: colours must be one or two of {COLORS}")
        if spec["order"] not in ORDERS:
            raise ValueError(f"tile {i}: unknown order {spec['order']!r}")
        tiles.append(Tile(i, colors, bool(spec["crown"]), spec["order"], bool(spec["paid"])))
    return tuple(tiles)

"""Small factories for setting up positions on a State, so that tests read as stories of play.

A position is built directly on a fresh game: tiles are taken out of the stack (so every tile is
still accounted for) and put in the cathedral or on the market; builders and promotion tokens
put in the cathedral come out of their owner's supply.
"""

from __future__ import annotations

from games.engine.basilica import VERSION, Action, Options, State, apply_action, new_game, view
from games.engine.basilica.components import COLORS
from games.engine.basilica.state import Cell

ALL = None  # "any value" for the optional filters of ``find_tile``


def game(
    edition: str = "2022",
    expansion: bool = False,
    seed: int = 7,
    first_player: int = 0,
    version: str = VERSION,
) -> State:
    """A new game with an empty cathedral, played by the rules of ``version``; the market is
    whatever the seed dealt."""
    options = Options(edition=edition, expansion=expansion, first_player=first_player)
    return new_game(options, seed, version)


def _colors(colors: str) -> str:
    return "".join(sorted(colors, key=COLORS.index))


def _in_use(state: State) -> set[int]:
    used = {cell.tile for cell in state.cells.values() if cell.tile is not None}
    used.update(t for t in state.market_orders + state.market_vaults if t is not None)
    return used


def find_tile(
    state: State,
    colors: str | None = ALL,
    order: str | None = ALL,
    crown: bool | None = ALL,
    paid: bool | None = ALL,
    avoid: set[int] | frozenset[int] = frozenset(),
) -> int:
    """The id of a tile matching these faces that is neither in the cathedral nor on offer."""
    used = _in_use(state) | set(avoid)
    for tile in state.tiles:
        if tile.id in used:
            continue
        if colors is not None and tile.colors != _colors(colors):
            continue
        if order is not None and tile.order != order:
            continue
        if crown is not None and tile.crown != crown:
            continue
        if paid is not None and tile.paid != paid:
            continue
        return tile.id
    raise LookupError(f"no free tile {colors=} {order=} {crown=} {paid=}")


def _take(state: State, tile: int) -> None:
    """Take a tile out of wherever it lies (stack, discard, removed, market)."""
    for pile in (state.stack, state.discard, state.removed):
        if tile in pile:
            pile.remove(tile)
            return
    for market in (state.market_orders, state.market_vaults):
        if tile in market:
            market[market.index(tile)] = state.stack.pop()
            return


def _return_to_stack(state: State, tile: int | None) -> None:
    if tile is not None:
        state.stack.insert(0, tile)  # the bottom of the stack: drawn last


def offer_order(
    state: State,
    order: str | None,
    slot: int = 0,
    paid: bool | None = False,
    colors: str | None = ALL,
) -> int:
    """Put an order tile on the market's order space ``slot``; returns its id."""
    tile = find_tile(state, colors=colors, order=order, paid=paid)
    _take(state, tile)
    _return_to_stack(state, state.market_orders[slot])
    state.market_orders[slot] = tile
    return tile


def offer_vault(
    state: State, colors: str, slot: int = 0, crown: bool = False, order: str | None = ALL
) -> int:
    """Put a vault tile of these colours on the market's vault space ``slot``; returns its id."""
    tile = find_tile(state, colors=colors, crown=crown, order=order)
    _take(state, tile)
    _return_to_stack(state, state.market_vaults[slot])
    state.market_vaults[slot] = tile
    return tile


def offer_only(state: State, vaults: list[str], orders: list[str]) -> tuple[list[int], list[int]]:
    """Fill the whole market: the vaults (uncrowned) and the orders (no paid box), left to right."""
    vault_ids = [offer_vault(state, colors, slot) for slot, colors in enumerate(vaults)]
    order_ids = [offer_order(state, order, slot) for slot, order in enumerate(orders)]
    return vault_ids, order_ids


def put(
    state: State,
    pos: tuple[int, int],
    colors: str,
    builder: int | None = None,
    rank: str | None = None,
    glass: bool = False,
    altar: bool = False,
) -> int:
    """Build a vault of these colours at ``pos``, optionally with a builder (and rank) on it."""
    tile = find_tile(state, colors=colors)
    _take(state, tile)
    state.cells[pos] = Cell(tile, builder, rank, glass, altar)
    if builder is not None:
        state.players[builder].builders -= 1
        if rank:
            state.players[builder].tokens -= 1
    if altar:
        state.altars_left -= 1
    return tile


def scaffold(state: State, pos: tuple[int, int]) -> None:
    state.cells[pos] = Cell(None)


def act(
    state: State,
    kind: str,
    tile: int | None = None,
    at: tuple[int, int] | None = None,
    to: tuple[int, int] | None = None,
    rank: str | None = None,
    color: str | None = None,
) -> State:
    """Apply one action, named the way a player would say it.

    The position must be a possible one: every tile and piece accounted for (this guards the
    factories above as much as the engine).
    """
    assert all_tiles_accounted_for(state), "the position lost or duplicated a tile"
    assert pieces_conserved(state), "the position lost or duplicated a piece"
    col, row = at if at else (None, None)
    to_col, to_row = to if to else (None, None)
    return apply_action(state, Action(kind, tile, col, row, to_col, to_row, rank, color))


def seen(state: State, pos: tuple[int, int], player: int | None = 0) -> dict | None:
    """The cell at ``pos`` as ``player`` sees it in the view, or None if it is empty."""
    for cell in view(state, player)["cathedral"]:
        if (cell["col"], cell["row"]) == pos:
            return cell
    return None


def kinds(actions: list[Action]) -> set[str]:
    return {a.kind for a in actions}


def targets(actions: list[Action], kind: str, tile: int | None = None) -> set[tuple[int, int]]:
    """The cells the legal actions of ``kind`` (from order tile ``tile``) aim at."""
    return {a.at for a in actions if a.kind == kind and (tile is None or a.tile == tile)}


def events(state: State, kind: str) -> list[dict]:
    return [e for e in state.events if e["kind"] == kind]


# -- invariants, shared by the scenario and property tests -------------------------------------


def all_tiles_accounted_for(state: State) -> bool:
    """Stack + discard + market + cathedral + removed is every tile of the box, once."""
    places = (
        state.stack
        + state.discard
        + state.removed
        + [t for t in state.market_orders + state.market_vaults if t is not None]
        + [cell.tile for cell in state.cells.values() if cell.tile is not None]
    )
    return sorted(places) == list(range(len(state.tiles)))


def pieces_conserved(state: State) -> bool:
    """Builders, promotion tokens and coins are each in supply or in the cathedral."""
    options = state.options
    for player in (0, 1):
        supply = state.players[player]
        on_board = [c for c in state.cells.values() if c.builder == player]
        if supply.builders + len(on_board) != options.builders:
            return False
        if supply.tokens + sum(1 for c in on_board if c.rank) != options.promotion_tokens:
            return False
        if min(supply.builders, supply.tokens, supply.coins) < 0:
            return False
    return sum(p.coins for p in state.players) == 2 * options.coins

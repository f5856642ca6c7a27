"""The cathedral's geometry: where vaults and scaffolds may go, and who stands where."""

from __future__ import annotations

from .state import WIDTH, Cell, Pos, State

NEIGHBOURS = ((0, 1), (0, -1), (1, 0), (-1, 0))
_NEIGHBOURS: dict[Pos, tuple[Pos, ...]] = {}  # the hottest lookup of the engine, memoised


def neighbours(pos: Pos) -> tuple[Pos, ...]:
    """The cells of the cathedral's plan orthogonally next to ``pos``."""
    found = _NEIGHBOURS.get(pos)
    if found is None:
        col, row = pos
        found = tuple(
            (col + dc, row + dr) for dc, dr in NEIGHBOURS if 0 <= col + dc < WIDTH and row + dr >= 0
        )
        if len(_NEIGHBOURS) < 100_000:
            _NEIGHBOURS[pos] = found
    return found


def _row_major(pos: Pos) -> tuple[int, int]:
    return (pos[1], pos[0])


def placement_cells(cells: dict[Pos, Cell]) -> list[Pos]:
    """Empty cells where a vault or a scaffold may go, colour aside (RULINGS.md §2).

    An empty cell of row 0, or one orthogonally next to a vault or a scaffold, within the five
    columns. Returned bottom row first, left to right.
    """
    found = {(col, 0) for col in range(WIDTH) if (col, 0) not in cells}
    for pos in cells:
        for nxt in _NEIGHBOURS.get(pos) or neighbours(pos):
            if nxt not in cells:
                found.add(nxt)
    if len(found) < 2:
        return list(found)
    # Sorting row-first by sorting swapped pairs natively: cheaper than a key function.
    return [(col, row) for row, col in sorted([(row, col) for col, row in found])]


def touches_wild(state: State, pos: Pos) -> bool:
    """Whether a printed two-colour vault stands next to ``pos`` (a Jester never counts)."""
    cells, tiles = state.cells, state.tiles
    for nxt in _NEIGHBOURS.get(pos) or neighbours(pos):
        cell = cells.get(nxt)
        if cell is not None and cell.tile is not None and tiles[cell.tile].wild:
            return True
    return False


def wild_cells(state: State, free: list[Pos]) -> list[Pos]:
    """The cells of ``free`` where a wild vault may go: touching no wild vault."""
    return [pos for pos in free if not touches_wild(state, pos)]


def vaults(state: State) -> list[Pos]:
    """Cells holding a vault (not scaffolding), bottom row first."""
    return sorted(
        (pos for pos, cell in state.cells.items() if cell.tile is not None), key=_row_major
    )


def empty_vaults(state: State) -> list[Pos]:
    """Vaults with no builder."""
    return [pos for pos in vaults(state) if state.cells[pos].builder is None]


def builders_of(state: State, player: int) -> list[Pos]:
    return sorted(
        (pos for pos, cell in state.cells.items() if cell.builder == player), key=_row_major
    )


def moves_from(state: State, pos: Pos) -> list[Pos]:
    """Vaults next to ``pos`` with no builder, where a builder on ``pos`` could move."""
    cells = state.cells
    result = []
    for nxt in _NEIGHBOURS.get(pos) or neighbours(pos):
        cell = cells.get(nxt)
        if cell is not None and cell.tile is not None and cell.builder is None:
            result.append(nxt)
    return result


def any_vault_placeable(state: State) -> bool:
    """Whether some vault on offer has a legal cell (a single-colour tile always has one)."""
    offered = [t for t in state.market_vaults if t is not None]
    if any(not state.tiles[t].wild for t in offered):
        return True
    if not offered:
        return False
    return any(not touches_wild(state, pos) for pos in placement_cells(state.cells))


def _cell_row_major(item: tuple[Pos, Cell]) -> tuple[int, int]:
    return (item[0][1], item[0][0])


def view_cells(state: State) -> list[dict]:
    """The cathedral as the list of cells that ``view`` shows and ``score_cathedral`` reads."""
    tiles = state.tiles
    out = []
    for (col, row), cell in sorted(state.cells.items(), key=_cell_row_major):
        tile = None if cell.tile is None else tiles[cell.tile]
        out.append(
            {
                "col": col,
                "row": row,
                "tile": cell.tile,
                "colors": tile.colors if tile else "",
                "scaffold": tile is None,
                "crown": bool(tile and tile.crown),
                "builder": (
                    None if cell.builder is None else {"player": cell.builder, "rank": cell.rank}
                ),
                "glass": cell.glass,
                "altar": cell.altar,
            }
        )
    return out

"""The actions: which are legal for whoever decides now, and what each one does.

``legal_actions`` is the single source of truth for legality: ``apply_action`` accepts exactly
what it lists. ``perform`` applies an action known to be legal (a replayed log skips the check).
"""

from __future__ import annotations

from .actions import Action, make
from .board import (
    builders_of,
    empty_vaults,
    moves_from,
    neighbours,
    placement_cells,
    vaults,
    wild_cells,
)
from .components import (
    ALTAR,
    COLORS,
    CONFUSE,
    DISASTER,
    GLASS,
    MOVE,
    PROMOTE,
    RECRUIT,
    SCAFFOLD,
)
from .flow import complete_action, resolve_scoring
from .state import Cell, Pos, State, cell_key

# -- what each order may target ----------------------------------------------------------------


def promote_targets(state: State, player: int, barred: str | None = None) -> list[tuple]:
    if state.players[player].tokens == 0:
        return []
    return [
        (pos, rank)
        for pos in builders_of(state, player)
        for rank in state.options.ranks
        if rank != state.cells[pos].rank and rank != barred
    ]


def move_targets(state: State, player: int, confusing: bool = False) -> list[tuple[Pos, Pos]]:
    """(from, to) pairs moving one of ``player``'s builders; Confuse cannot move one off an altar."""
    return [
        (pos, to)
        for pos in builders_of(state, player)
        if not (confusing and state.cells[pos].altar)
        for to in moves_from(state, pos)
    ]


def recruit_targets(state: State, player: int) -> list[Pos]:
    return empty_vaults(state) if state.players[player].builders else []


def paid_recruit_targets(state: State, player: int) -> list[Pos]:
    if not state.players[player].builders:
        return []
    own = builders_of(state, player)
    near = {nxt for pos in own for nxt in neighbours(pos)}
    return [pos for pos in empty_vaults(state) if pos in near]


def confuse_targets(state: State, player: int) -> list[Pos]:
    """Own builders Confuse may send home: all of them while an opponent's builder (not on an
    altar) can move to an adjacent free vault in the position where the order is chosen
    (RULINGS.md §5); none otherwise."""
    own = builders_of(state, player)
    cells = state.cells
    movable = [pos for pos in builders_of(state, 1 - player) if not cells[pos].altar]
    if not own or not movable:
        return []
    if any(moves_from(state, pos) for pos in movable):
        return own  # whichever goes home, a move is left
    if state.version != "1":
        return []
    # Version 1 judged the order after the own builder had gone home: a builder next to a
    # movable one opened a vault for it by going.
    near = {nxt for pos in movable for nxt in neighbours(pos)}
    return [pos for pos in own if pos in near]


def glass_targets(state: State, player: int) -> list[Pos]:
    return [pos for pos in builders_of(state, player) if not state.cells[pos].glass]


def disaster_targets(state: State) -> list[Pos]:
    return [pos for pos in empty_vaults(state) if not state.cells[pos].altar]


def altar_targets(state: State) -> list[Pos]:
    if state.altars_left == 0:
        return []
    return [pos for pos in vaults(state) if not state.cells[pos].altar]


# -- legal actions -----------------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """Every legal choice for whoever must decide now, in a stable order."""
    decision = state.decision
    if decision is None:
        return []
    kind = decision["kind"]
    if kind == "main":
        return _main_actions(state)
    return _FOLLOW_UPS[kind](state, decision)


def _main_actions(state: State) -> list[Action]:
    player = state.active
    actions: list[Action] = []
    free = placement_cells(state.cells)
    for_wild = None
    tiles = state.tiles
    for tile in state.market_vaults:
        if tile is None:
            continue
        cells = free
        if tiles[tile].wild:
            if for_wild is None:
                for_wild = wild_cells(state, free)
            cells = for_wild
        actions += [make("vault", tile, c, r) for c, r in cells]
    if state.last_vault is not None and state.players[player].builders:
        actions.append(make("builder"))
    for tile in state.market_orders:
        if tile is not None:
            actions += _order_actions(state, player, tile, free)
    return actions


def _order_actions(state: State, player: int, tile: int, free: list[Pos]) -> list[Action]:
    order = state.tiles[tile].order
    if order == PROMOTE:
        return [
            make(order, tile, c, r, None, None, k) for (c, r), k in promote_targets(state, player)
        ]
    if order == MOVE:
        return [make(order, tile, c, r, tc, tr) for (c, r), (tc, tr) in move_targets(state, player)]
    if order == RECRUIT:
        targets = recruit_targets(state, player)
    elif order == CONFUSE:
        targets = confuse_targets(state, player)
    elif order == GLASS:
        targets = glass_targets(state, player)
    elif order == SCAFFOLD:
        targets = free
    elif order == DISASTER:
        targets = disaster_targets(state)
    else:
        targets = altar_targets(state)
    return [make(order, tile, c, r) for c, r in targets]


def _paid_actions(state: State, decision: dict) -> list[Action]:
    player, order = decision["player"], decision["order"]
    actions = [Action("decline")]
    if order == PROMOTE:
        targets = promote_targets(state, player, barred=decision["rank"])
        actions += [Action("pay", col=c, row=r, rank=k) for (c, r), k in targets]
    elif order == RECRUIT:
        actions += [Action("pay", col=c, row=r) for c, r in paid_recruit_targets(state, player)]
    else:
        moves = move_targets(state, player, confusing=True)
        actions += [Action("pay", col=c, row=r, to_col=tc, to_row=tr) for (c, r), (tc, tr) in moves]
    return actions


def _confuse_move_actions(state: State, decision: dict) -> list[Action]:
    moves = move_targets(state, 1 - decision["player"], confusing=True)
    return [
        Action("confuse_move", col=c, row=r, to_col=tc, to_row=tr) for (c, r), (tc, tr) in moves
    ]


def _second_scaffold_actions(state: State, decision: dict) -> list[Action]:
    return [Action("second_scaffold", col=c, row=r) for c, r in placement_cells(state.cells)]


def _second_altar_actions(state: State, decision: dict) -> list[Action]:
    """The second altar is owed whenever it is asked for (RULINGS.md §5); version 1 let the
    player stop after the first."""
    actions = [Action("second_altar", col=c, row=r) for c, r in altar_targets(state)]
    if state.version == "1":
        actions.append(Action("skip_altar"))
    return actions


def _jester_actions(state: State, decision: dict) -> list[Action]:
    col, row = decision["at"]
    cell = state.cells[(col, row)]
    lacking = [c for c in COLORS if c not in state.tiles[cell.tile].colors]
    return [Action("jester", col=col, row=row, color=c) for c in lacking]


_FOLLOW_UPS = {
    "paid": _paid_actions,
    "confuse_move": _confuse_move_actions,
    "second_scaffold": _second_scaffold_actions,
    "second_altar": _second_altar_actions,
    "jester": _jester_actions,
}

# -- performing an action ----------------------------------------------------------------------


def perform(state: State, action: Action) -> None:
    """Apply a legal action to ``state`` in place."""
    player = state.to_decide
    # The turn is kept beside the action for the log, which groups actions by turn.
    state.history.append({"player": player, "action": action.to_json(), "turn": state.turn})
    kind = action.kind
    if kind == "vault":
        _place_vault(state, action)
    elif kind == "builder":
        _place_builder(state)
    elif kind == "jester":
        state.jester_picks[cell_key(action.col, action.row)] = action.color
        state.pending.pop(0)
        if not state.pending:
            resolve_scoring(state)
    elif kind in _ORDER_EFFECTS:
        _execute_order(state, action)
    else:
        _FOLLOW_UP_EFFECTS[kind](state, action)
        if not state.pending:
            complete_action(state)


def _place_vault(state: State, action: Action) -> None:
    slot = state.market_vaults.index(action.tile)
    state.cells[action.at] = Cell(action.tile)
    # The order tile above slides down to its vault side; a new order is drawn above it.
    state.market_vaults[slot] = state.market_orders[slot]
    state.market_orders[slot] = None
    if state.tiles[action.tile].crown:
        state.king += 1
    state.actions_left -= 1
    state.last_vault = action.at
    complete_action(state)


def _place_builder(state: State) -> None:
    player = state.active
    state.cells[state.last_vault].builder = player
    state.players[player].builders -= 1
    state.actions_left -= 1
    state.last_vault = None
    complete_action(state)


def _execute_order(state: State, action: Action) -> None:
    slot = state.market_orders.index(action.tile)
    state.market_orders[slot] = None
    state.discard.append(action.tile)
    state.actions_left -= 1
    state.last_vault = None
    _ORDER_EFFECTS[action.kind](state, action, state.active)
    if not state.pending:
        complete_action(state)


def _promote(state: State, pos: Pos, player: int, rank: str) -> None:
    cell = state.cells[pos]
    supply = state.players[player]
    supply.tokens -= 1
    if cell.rank:
        supply.tokens += 1
    cell.rank = rank


def _offer(state: State, action: Action, player: int, order: str, **data) -> None:
    """Offer the paid order to the opponent if she has a coin and it would do something."""
    opponent = 1 - player
    if not state.tiles[action.tile].paid or not state.players[opponent].coins:
        return
    decision = {"kind": "paid", "player": opponent, "order": order, **data}
    if len(_paid_actions(state, decision)) > 1:
        state.pending.append(decision)


def _order_promote(state: State, action: Action, player: int) -> None:
    _promote(state, action.at, player, action.rank)
    _offer(state, action, player, PROMOTE, rank=action.rank)


def _move_builder(state: State, source: Pos, target: Pos) -> None:
    src, dst = state.cells[source], state.cells[target]
    dst.builder, dst.rank = src.builder, src.rank
    src.builder, src.rank = None, None


def _order_move(state: State, action: Action, player: int) -> None:
    _move_builder(state, action.at, action.to)


def _order_recruit(state: State, action: Action, player: int) -> None:
    state.cells[action.at].builder = player
    state.players[player].builders -= 1
    _offer(state, action, player, RECRUIT)


def _send_home(state: State, pos: Pos) -> None:
    cell = state.cells[pos]
    supply = state.players[cell.builder]
    supply.builders += 1
    if cell.rank:
        supply.tokens += 1
    cell.builder, cell.rank = None, None


def _order_confuse(state: State, action: Action, player: int) -> None:
    _send_home(state, action.at)
    _offer(state, action, player, CONFUSE)
    if not state.pending:
        state.pending.append({"kind": "confuse_move", "player": player})


def _order_glass(state: State, action: Action, player: int) -> None:
    state.cells[action.at].glass = True


def _order_scaffold(state: State, action: Action, player: int) -> None:
    state.cells[action.at] = Cell(None)
    state.pending.append({"kind": "second_scaffold", "player": player})


def _order_disaster(state: State, action: Action, player: int) -> None:
    cell = state.cells.pop(action.at)
    state.discard.append(cell.tile)
    # The log names the vault discarded, which the cathedral no longer shows.
    state.history[-1]["discarded"] = cell.tile


def _order_altar(state: State, action: Action, player: int) -> None:
    state.cells[action.at].altar = True
    state.altars_left -= 1
    # A second altar while a token and another vault without one are left; else only one.
    if altar_targets(state):
        state.pending.append({"kind": "second_altar", "player": player})


_ORDER_EFFECTS = {
    PROMOTE: _order_promote,
    MOVE: _order_move,
    RECRUIT: _order_recruit,
    CONFUSE: _order_confuse,
    GLASS: _order_glass,
    SCAFFOLD: _order_scaffold,
    DISASTER: _order_disaster,
    ALTAR: _order_altar,
}


def _pay(state: State, action: Action) -> None:
    decision = state.pending.pop(0)
    payer = decision["player"]
    state.players[payer].coins -= 1
    state.players[1 - payer].coins += 1
    order = decision["order"]
    if order == PROMOTE:
        _promote(state, action.at, payer, action.rank)
    elif order == RECRUIT:
        state.cells[action.at].builder = payer
        state.players[payer].builders -= 1
    else:
        _move_builder(state, action.at, action.to)


def _decline(state: State, action: Action) -> None:
    decision = state.pending.pop(0)
    if decision["order"] == CONFUSE:
        state.pending.append({"kind": "confuse_move", "player": 1 - decision["player"]})


def _confuse_move(state: State, action: Action) -> None:
    state.pending.pop(0)
    _move_builder(state, action.at, action.to)


def _second_scaffold(state: State, action: Action) -> None:
    state.pending.pop(0)
    state.cells[action.at] = Cell(None)


def _second_altar(state: State, action: Action) -> None:
    state.pending.pop(0)
    state.cells[action.at].altar = True
    state.altars_left -= 1


def _skip_altar(state: State, action: Action) -> None:
    state.pending.pop(0)


_FOLLOW_UP_EFFECTS = {
    "pay": _pay,
    "decline": _decline,
    "confuse_move": _confuse_move,
    "second_scaffold": _second_scaffold,
    "second_altar": _second_altar,
    "skip_altar": _skip_altar,
}

"""The actions: which are legal for whoever decides now, what each one does, and why one is
refused.

``legal_actions`` is the single source of truth for legality: ``apply_action`` accepts exactly
what it lists (``is_legal``), and ``why_illegal`` names the rule in a player's words when it
does not. ``perform`` applies an action known to be legal (a replayed log skips the check).
"""

from __future__ import annotations

from ..interface import Reason
from .actions import _FIELDS, KINDS, ORDER_KINDS, Action, make
from .board import (
    builders_of,
    empty_vaults,
    moves_from,
    neighbours,
    placement_cells,
    touches_wild,
    vaults,
    wild_cells,
)
from .components import (
    ALTAR,
    COLOR_NAMES,
    COLORS,
    CONFUSE,
    DISASTER,
    GLASS,
    MOVE,
    ORDER_NAMES,
    PROMOTE,
    RANK_NAMES,
    RECRUIT,
    SCAFFOLD,
)
from .flow import complete_action, resolve_scoring
from .state import WIDTH, Cell, Pos, State, cell_key, cell_label

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


# -- why an action is refused ------------------------------------------------------------------


def is_legal(state: State, action: Action) -> bool:
    """Whether ``action`` is one of ``legal_actions(state)``."""
    legal = legal_actions(state)
    # Legal actions and parsed ones are shared instances: an identity scan usually settles it.
    return any(a is action for a in legal) or action in legal


def why_illegal(state: State, action: Action) -> Reason:
    """The rule that forbids ``action`` now, in a player's words (a ``Reason``, which the site
    says in the player's language)."""
    decision = state.decision
    if decision is None:
        return Reason("the game is over")
    if action.kind not in KINDS:
        return Reason("unknown action type {kind}", kind=repr(action.kind))
    kind = decision["kind"]
    if kind != "main":
        if action.kind not in _FOLLOW_UP_KINDS[kind]:
            if kind == "second_altar" and state.version == "1":
                return Reason("the game is waiting for the second altar, or none")
            return _WAITING[kind]
        return _why_fields(decision, action) or _why_follow_up(state, decision, action)
    if action.kind in {k for kinds in _FOLLOW_UP_KINDS.values() for k in kinds}:
        return Reason("there is no such decision pending: it is time for a main action")
    problem = _why_fields(decision, action)
    if problem:
        return problem
    if action.kind == "vault":
        return _why_vault(state, action)
    if action.kind == "builder":
        if state.last_vault is None:
            return Reason("Place Builder is only possible immediately after Place Vault")
        return Reason("you have no builder left in your supply")
    return _why_order(state, action)


# What the game waits for instead, by the decision pending.
_WAITING = {
    "paid": Reason("the game is waiting for an answer to the paid-order offer (pay or decline)"),
    "confuse_move": Reason("the game is waiting for the Confuse move of an opponent's builder"),
    "second_scaffold": Reason("the game is waiting for the second scaffold"),
    "second_altar": Reason("the game is waiting for the second altar"),
    "jester": Reason("the game is waiting for a Jester colour"),
}


_FOLLOW_UP_KINDS = {
    "paid": ("pay", "decline"),
    "confuse_move": ("confuse_move",),
    "second_scaffold": ("second_scaffold",),
    "second_altar": ("second_altar", "skip_altar"),
    "jester": ("jester",),
}


_CELL = ("col", "row")
_MOVE = ("col", "row", "to_col", "to_row")
_TAKES = {
    "vault": ("tile", *_CELL),
    "builder": (),
    "promote": ("tile", *_CELL, "rank"),
    "move": ("tile", *_MOVE),
    **{kind: ("tile", *_CELL) for kind in ORDER_KINDS if kind not in ("promote", "move")},
    "decline": (),
    "confuse_move": _MOVE,
    "second_scaffold": _CELL,
    "second_altar": _CELL,
    "skip_altar": (),
    "jester": (*_CELL, "color"),
}
_PAY_TAKES = {"promote": (*_CELL, "rank"), "recruit": _CELL, "confuse": _MOVE}


def _why_fields(decision: dict, action: Action) -> Reason | None:
    """A field the action does not take (say, a rank on a vault) is refused by name."""
    takes = _PAY_TAKES[decision["order"]] if action.kind == "pay" else _TAKES[action.kind]
    extra = [name for name in _FIELDS if getattr(action, name) is not None and name not in takes]
    if extra:
        return Reason(
            "a {kind} action has no {fields}", kind=action.kind, fields=" or ".join(extra)
        )
    return None


def _why_position(state: State, action: Action) -> Reason | None:
    if action.col is None or action.row is None:
        return Reason("this action needs a cell of the cathedral (col and row)")
    if not 0 <= action.col < WIDTH or action.row < 0:
        return Reason("the cathedral is five columns wide (0-4) and grows from row 0")
    return None


def _why_vault(state: State, action: Action) -> Reason:
    if action.tile not in state.market_vaults:
        return Reason("that vault is not on offer in the market")
    problem = _why_position(state, action)
    if problem:
        return problem
    if action.at in state.cells:
        return Reason("that cell is already built on")
    if action.at not in placement_cells(state.cells):
        return Reason("a vault goes on a starting slot of row 0 or next to a vault or scaffold")
    if state.tiles[action.tile].wild and touches_wild(state, action.at):
        return Reason("a wild vault may not be adjacent to another wild vault")
    return Reason("that vault cannot be placed there")


def _why_order(state: State, action: Action) -> Reason:
    if action.tile not in state.market_orders:
        return Reason("that order is not on offer in the market")
    order = state.tiles[action.tile].order
    if action.kind != order:
        return Reason(
            "that tile's order is {name}, not {kind}", name=ORDER_NAMES[order], kind=action.kind
        )
    problem = _why_position(state, action)
    if problem:
        return problem
    player = state.active
    cell = state.cells.get(action.at)
    own_builder_needed = order in ("promote", "move", "confuse", "glass")
    if own_builder_needed and (cell is None or cell.builder != player):
        return Reason("{name} needs one of your own builders in that cell", name=ORDER_NAMES[order])
    if order == "promote":
        if state.players[player].tokens == 0:
            return Reason("you have no promotion token left in your supply")
        if action.rank not in state.options.ranks:
            return _ranks_of_edition(state.options.ranks)
        return Reason("a builder must be promoted to a rank it does not already have")
    if order == "move" and action.to not in moves_from(state, action.at):
        return Reason("a builder moves to an adjacent vault with no builder on it")
    if order == "confuse":
        if state.version == "1":
            return Reason(
                "Confuse needs an opponent's builder that can then move to an adjacent empty "
                "vault (not off an altar)"
            )
        return Reason(
            "Confuse needs an opponent's builder that can move now to an adjacent empty vault "
            "(not off an altar)"
        )
    if order == "glass":
        return Reason("a vault holds at most one stained glass")
    if order == "recruit":
        if not state.players[player].builders:
            return Reason("you have no builder left in your supply")
        return Reason("Recruit puts a builder on a vault with no builder")
    if order == "scaffold":
        return _SCAFFOLD_RULE
    if order == "disaster":
        if cell is not None and cell.altar:
            return Reason("a vault with an altar is protected from Disaster")
        return Reason("Disaster discards a vault with no builder on it")
    if order == "altar":
        if state.altars_left == 0:
            return Reason("no altar tokens are left")
        return Reason("an altar goes on a vault (not scaffolding) without one")
    return Reason("that order cannot be executed there")


_SCAFFOLD_RULE = Reason(
    "a scaffold goes where a vault could: row 0 or next to a vault or scaffold, on an empty cell"
)


def _ranks_of_edition(ranks: tuple[str, ...]) -> Reason:
    """The ranks an edition has, each a word the site translates."""
    names = {f"title{i}": RANK_NAMES[rank] for i, rank in enumerate(ranks, 1)}
    if len(ranks) == 3:
        return Reason("the ranks of this edition are {title1}, {title2}, {title3}", **names)
    return Reason("the ranks of this edition are {title1}, {title2}, {title3}, {title4}", **names)


def _why_follow_up(state: State, decision: dict, action: Action) -> Reason:
    kind = decision["kind"]
    if kind == "jester":
        col, row = decision["at"]
        if action.at != (col, row):
            return Reason("the Jester to colour now stands at {cell}", cell=cell_label(col, row))
        colors = state.tiles[state.cells[(col, row)].tile].colors
        if len(colors) == 1:
            return Reason(
                "a Jester adds a colour the tile lacks (it is already {hue})",
                hue=COLOR_NAMES[colors],
            )
        return Reason(
            "a Jester adds a colour the tile lacks (it is already {hue1}, {hue2})",
            hue1=COLOR_NAMES[colors[0]],
            hue2=COLOR_NAMES[colors[1]],
        )
    if kind == "paid":
        order = decision["order"]
        if order == "promote":
            return Reason(
                "the paid Promote must choose a rank other than {title} for one of your builders, "
                "with a token from your supply",
                title=RANK_NAMES[decision["rank"]],
            )
        if order == "recruit":
            return Reason(
                "the paid Recruit puts your builder on an empty vault next to one of your builders"
            )
        return Reason(
            "the paid Confuse moves one of your builders (not off an altar) to an adjacent empty "
            "vault"
        )
    if kind == "confuse_move":
        return Reason(
            "Confuse moves an opponent's builder (not off an altar) to an adjacent empty vault"
        )
    if kind == "second_scaffold":
        return _SCAFFOLD_RULE
    if action.kind == "skip_altar":
        return Reason("the second altar is not optional: place it on another vault without one")
    return Reason("the second altar goes on another vault without one")

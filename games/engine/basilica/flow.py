"""The flow of play around the actions: the market and its refills, the stack and its
exhaustion, the king's track, scorings with their Jester picks, turns and the end of the game."""

from __future__ import annotations

import random

from ..interface import N_
from .board import any_vault_placeable, view_cells
from .components import JESTER
from .scoring import ScoreReport, score_cathedral
from .state import Outcome, State

# How a game ends by the rules (``Outcome.termination``), words the site translates.
THIRD_SCORING = N_("third scoring")
EXHAUSTION = N_("exhaustion")


def shuffled(seed: int, salt: str, items: list[int]) -> list[int]:
    """``items`` in a seeded random order: the same seed and salt always give the same order."""
    items = list(items)
    random.Random(f"{seed}:{salt}").shuffle(items)
    return items


def deal(state: State) -> None:
    """Set up a new game: shuffle, remove six unseen if asked, fill the market."""
    ids = list(range(len(state.tiles)))
    state.stack = shuffled(state.seed, "stack", ids)
    if state.options.remove_six:
        state.removed = [state.stack.pop() for _ in range(6)]
    state.market_orders = [state.stack.pop() for _ in range(3)]
    state.market_vaults = [state.stack.pop() for _ in range(3)]
    ensure_placeable(state)


def draw(state: State) -> int | None:
    """Draw the top tile; None when the stack has run out for good, which ends the game."""
    if not state.stack:
        if state.exhaustions == 0 and state.discard:
            state.exhaustions = 1
            state.stack = shuffled(state.seed, "reshuffle", state.discard)
            state.discard = []
            _event(state, "reshuffle", tiles=len(state.stack))
        else:
            state.exhaustions = 2
            _event(state, "exhaustion")
            return None
    return state.stack.pop()


def exhausted(state: State) -> bool:
    return state.exhaustions >= 2


def refill(state: State) -> None:
    """Fill empty order spaces from the stack (vault spaces were filled from above)."""
    for slot in range(3):
        if state.market_orders[slot] is None:
            tile = draw(state)
            if tile is None:
                return
            state.market_orders[slot] = tile


def ensure_placeable(state: State) -> None:
    """The rare refresh: while no vault on offer fits anywhere, discard the three and deal anew."""
    while not state.finished and not exhausted(state) and not any_vault_placeable(state):
        old = [t for t in state.market_vaults if t is not None]
        state.discard.extend(old)
        state.market_vaults = [None, None, None]
        _event(state, "refresh", discarded=old)
        for slot in range(3):
            tile = draw(state)
            if tile is None:
                begin_scoring(state)
                return
            state.market_vaults[slot] = tile


def complete_action(state: State) -> None:
    """An action and all its follow-ups are resolved: refill, then score or go on."""
    refill(state)
    if exhausted(state) or scoring_due(state):
        begin_scoring(state)
    elif state.actions_left == 0:
        end_turn(state)
    else:
        ensure_placeable(state)


def scoring_due(state: State) -> bool:
    spaces = state.options.crown_spaces
    return state.scorings < len(spaces) and state.king >= spaces[state.scorings]


def end_turn(state: State) -> None:
    state.active = 1 - state.active
    state.turn += 1
    state.actions_left = 3
    state.last_vault = None
    ensure_placeable(state)


def begin_scoring(state: State) -> None:
    """Ask each Jester's owner for its colour, the active player first, then score."""
    state.last_vault = None
    jesters = [
        (pos, cell.builder)
        for pos, cell in sorted(state.cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        if cell.rank == JESTER
    ]
    order = (state.active, 1 - state.active)
    state.pending = [
        {"kind": "jester", "player": player, "at": pos}
        for player in order
        for pos, owner in jesters
        if owner == player
    ]
    if not state.pending:
        resolve_scoring(state)


def resolve_scoring(state: State) -> None:
    cells = view_cells(state)
    report = score_cathedral(cells, state.jester_picks)
    for player in (0, 1):
        state.players[player].score += report.points[player]
    state.scorings += 1
    _event(
        state,
        "scoring",
        number=state.scorings,
        jesters=state.jester_picks,
        cathedral=cells,  # as it was scored: the clean-up changes it at once
        **_explained(report, cells),
    )
    state.jester_picks = {}
    if exhausted(state):
        finish(state, EXHAUSTION)
    elif state.scorings >= len(state.options.crown_spaces):
        finish(state, THIRD_SCORING)
    else:
        clean_up(state)
        end_turn(state)


def _explained(report: ScoreReport, cells: list[dict]) -> dict:
    """The report as the scoring event keeps it, each area also saying how many of its
    stained-glass windows stand on an altar (worth 4, not 2), so that its value can be told."""
    on_altar = {(c["col"], c["row"]) for c in cells if c["glass"] and c["altar"]}
    data = report.to_json()
    for area in data["areas"]:
        area["altar_glass"] = sum(1 for col, row in area["cells"] if (col, row) in on_altar)
    return data


def clean_up(state: State) -> None:
    """After a scoring: builders and tokens home, rows 0-1 discarded, scaffolds gone, slide down."""
    for cell in state.cells.values():
        if cell.builder is not None:
            owner = state.players[cell.builder]
            owner.builders += 1
            if cell.rank:
                owner.tokens += 1
            cell.builder = None
            cell.rank = None
    kept = {}
    for pos, cell in state.cells.items():
        if cell.tile is None:
            continue  # scaffolding: all removed
        if pos[1] < 2:
            state.discard.append(cell.tile)
        else:
            kept[pos] = cell
    drop = min((row for _, row in kept), default=0)
    state.cells = {(col, row - drop): cell for (col, row), cell in kept.items()}


def finish(state: State, termination: str) -> None:
    state.finished = True
    state.pending = []
    scores = state.returns()
    best = max(scores)
    winners = tuple(p for p in (0, 1) if scores[p] == best)
    state.outcome = Outcome(termination, winners, scores)
    _event(state, "end", termination=termination, winners=list(winners), scores=list(scores))


def _event(state: State, kind: str, **data) -> None:
    state.events.append({"seq": len(state.history), "kind": kind, **data})

"""How good a position looks to one seat, in the game's own points: what the greedy bot
maximises after each action and what the search bot reads where its playouts stop.

Each game has its own shaping, read from the state the bot was handed (a determinization, so
nothing the seat may not see). A finished game is worth far more than any running one.
"""

from __future__ import annotations

from collections.abc import Callable

from games.engine.basilica import score_cathedral
from games.engine.basilica.board import view_cells

WON = 1000.0


def basilica(state, seat: int) -> float:
    """Points ahead, plus the points ahead "if scored now", weighed by how near the next
    scoring is (the monarch's progress to the next crown space, or the stack running out);
    a builder, token or coin still in supply counts a little, as what it may yet do."""
    if state.finished:
        return _finished(state, seat)
    scores = state.returns()
    preview = score_cathedral(view_cells(state), state.jester_picks).points
    spaces = state.options.crown_spaces
    done = state.scorings
    start = spaces[done - 1] if done else 0
    progress = min(1.0, max(0.0, (state.king - start) / max(1, spaces[done] - start)))
    if state.exhaustions:
        progress = 1.0
    weight = 0.45 + 0.55 * progress
    value = scores[seat] - scores[1 - seat] + weight * (preview[seat] - preview[1 - seat])
    for player, sign in ((seat, 1), (1 - seat, -1)):
        supply = state.players[player]
        value += sign * (0.3 * supply.builders + 0.3 * supply.tokens + 0.5 * supply.coins)
    return value


def cathedral(state, seat: int) -> float:
    """Squares placed ahead (the fewest unplaced wins), plus half the claimed territory ahead:
    squares the opponent may no longer build on."""
    if state.finished:
        return _finished(state, seat)
    unplaced = state.returns()
    territory = state.territory
    claimed = territory[seat].bit_count() - territory[1 - seat].bit_count()
    return unplaced[1 - seat] - unplaced[seat] + 0.5 * claimed


def _finished(state, seat: int) -> float:
    winners = state.outcome.winners
    if len(winners) == 2:
        return 0.0
    return WON if winners == (seat,) else -WON


EVALUATE: dict[str, Callable[..., float]] = {"basilica": basilica, "cathedral": cathedral}
# What a lead of one point is worth as a chance of winning: leads are read through a logistic
# curve of this scale (a lead of SCALE points is about a 73% chance).
SCALE = {"basilica": 8.0, "cathedral": 6.0}

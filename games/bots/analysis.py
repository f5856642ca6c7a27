"""The computer's analysis of a finished game, move by move (pure Python, no Django).

Each action is judged from the seat that took it, with only what that seat could see then: the
search is handed the position and, like every bot, first draws a determinization of the seat's
view (``engine.determinize``), then grows its tree from that alone. The generator is seeded by
the caller from what is public (the game's id and the position), never by the game's seed, so an
analysis is the same every time it is made.

For the position before each action the search weighs the seat's best actions and the action it
took (added to the ones searched, if the heuristic would not have looked at it): ``before`` is
the chance of winning the search gives its preferred action, ``after`` the one it gives the
action played, both as percentages for the seat that acted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.engine import engine_for

from .search import Budget, grow, shortlist

# Bumped whenever the bot, its budgets or the way a move is judged change: an analysis is kept
# once per game and version, and an older one is made again when asked for.
ANALYSIS_VERSION = 1

# Simulations for each position judged, fixed numbers as for the bot's moves (so that an analysis
# is reproducible): some 0.3 s of one core a position of Basilica, so that a long game of 200
# actions takes about a minute of one core of these machines, and a Cathedral game of some 25
# actions a quarter of that (README, "Analysis of a finished game").
ANALYSIS_BUDGETS = {"basilica": Budget(simulations=100), "cathedral": Budget(simulations=250)}


@dataclass(frozen=True)
class Judgement:
    """One action judged: its seat's chances (0 to 100) by the preferred action and by the
    action played, and the preferred action (None when it is the one played, or reads no
    better)."""

    before: float
    after: float
    preferred: object | None

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)


def judge(kind: str, state, played, budget: Budget, rng: random.Random) -> Judgement:
    """The action ``played`` by the seat deciding in ``state``, judged from that seat's view."""
    engine = engine_for(kind)
    seat = state.to_decide
    seen = engine.determinize(state, seat, rng)
    first = shortlist(engine, kind, seen, seat, budget.width, None, rng)
    if played not in first:
        first.append(played)  # public: the log says it was played
    root = grow(engine, kind, seen, seat, budget, rng, first)

    def chance(action) -> float:
        child = root.children.get(action)
        return 100.0 * child.total / child.visits if child and child.visits else 50.0

    best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))[0]
    before, after = round(chance(best), 1), round(chance(played), 1)
    # The move played may read better than the one searched most (a few lucky iterations): then
    # nothing was lost, and the position is worth what the move played made of it.
    if best == played or after >= before:
        return Judgement(before=after, after=after, preferred=None)
    return Judgement(before, after, best)

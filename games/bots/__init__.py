"""The computer's players: pure Python over the engine interface, so they play every game the
site hosts (no Django here).

``choose(kind, state, seat, level, rng)`` is the level's decision for ``seat``, which must be
the seat to decide in ``state``. The bot never reads the secrets of ``state``: the first thing
it does is to draw a determinization of what the seat sees (``engine.determinize``), which by
the engine's contract depends only on the seat's view, and it plans on that alone.

- ``random``: a legal action, uniformly.
- ``greedy``: the action that looks best one action ahead, by the game's heuristic
  (``heuristics``): the points gained over the opponent, and the game's own shaping.
- ``search``: information-set Monte Carlo tree search (``search``), within a budget.
"""

from __future__ import annotations

import random

from games.engine import engine_for

from .analysis import ANALYSIS_BUDGETS, ANALYSIS_VERSION, Judgement, judge
from .search import Budget, ranked, search

__all__ = [
    "ANALYSIS_BUDGETS",
    "ANALYSIS_VERSION",
    "BUDGETS",
    "HINT_BUDGETS",
    "LEVELS",
    "SITE_BUDGETS",
    "Budget",
    "Judgement",
    "choose",
    "judge",
]

LEVELS = ("random", "greedy", "search")

# The search budgets, all fixed numbers of simulations, never of time: a level plays the same
# way however busy the machine is, and a decision replays alike. The site's bot thinks about a
# second of one core a move on these machines (a usual day's speed: a slow day's is up to 2.5
# times slower), a hint a quarter of that; the arena's budgets are about 0.05, 0.2 and 0.8 s a
# move of Basilica on one core.
SITE_BUDGETS = {"basilica": Budget(simulations=700), "cathedral": Budget(simulations=1300)}
HINT_BUDGETS = {"basilica": Budget(simulations=200), "cathedral": Budget(simulations=350)}
BUDGETS = {
    "small": Budget(simulations=50),
    "middle": Budget(simulations=200),
    "large": Budget(simulations=800),
}


def choose(
    kind: str, state, seat: int, level: str, rng: random.Random, budget: Budget | None = None
):
    """The action of the bot of ``level`` for ``seat``, which decides now in ``state``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    engine = engine_for(kind)
    if state.to_decide != seat:
        raise ValueError(f"seat {seat} does not decide now")
    seen = engine.determinize(state, seat, rng)
    legal = list(engine.legal_actions(seen))
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    if level == "greedy":
        return ranked(engine, kind, seen, seat, legal, rng)[0][1]
    return search(engine, kind, seen, seat, budget or SITE_BUDGETS[kind], rng)

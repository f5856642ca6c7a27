"""Bots against bots, to measure their strength: seeded games, seats alternated, in parallel.

    python -m games.bots.arena [--games 200] [--match greedy,random ...] [--variant basilica-2022 ...]
                               [--simulations N] [--processes P] [--seed S]

A match ``a,b`` plays ``--games`` games of each variant: game ``i`` is dealt by seed
``S + i // 2`` and ``a`` takes seat ``i % 2``, so each deal is played from both seats. A bot is
a level (``random``, ``greedy``, ``search``), ``search:N``, the search with N simulations a
move, or ``search:small`` (50) or ``search:large`` (800); ``search`` alone is the middle budget
(200; ``--simulations`` changes it). Budgets are simulation counts, not times, so a run gives
the same games on any machine. A shared win counts half; the
interval is Wilson's 95% score interval. Moves per second are each bot's decisions divided by
the CPU time it spent deciding.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing import Pool

from games.engine import engine_for

from . import BUDGETS, Budget, choose

VARIANTS = {
    "basilica-2010": ("basilica", {"edition": "2010"}),
    "basilica-2022": ("basilica", {"edition": "2022"}),
    "basilica-2010-expansion": ("basilica", {"edition": "2010", "expansion": True}),
    "basilica-2022-expansion": ("basilica", {"edition": "2022", "expansion": True}),
    "basilica-2022-remove-six": (
        "basilica",
        {"edition": "2022", "expansion": True, "remove_six": True},
    ),
    "cathedral": ("cathedral", {}),
    "cathedral-lehman": ("cathedral", {"lehman": True}),
}
MAX_ACTIONS = 3000


@dataclass(frozen=True)
class Bot:
    level: str
    budget: Budget | None = None

    @property
    def name(self) -> str:
        if self.level != "search":
            return self.level
        return f"search({self.budget.simulations})"


def parse_bot(spec: str, simulations: int | None) -> Bot:
    level, _, count = spec.partition(":")
    if level not in ("random", "greedy", "search"):
        raise argparse.ArgumentTypeError(f"unknown bot {spec!r}: random, greedy, search[:N]")
    if level != "search":
        return Bot(level)
    if count in BUDGETS:
        return Bot(level, BUDGETS[count])
    budget = BUDGETS["middle"]
    if count or simulations:
        try:
            budget = replace(budget, simulations=int(count or simulations))
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"search:{count}: a number of simulations or {', '.join(BUDGETS)}"
            ) from None
    return Bot(level, budget)


@dataclass
class Played:
    score: float  # for the first bot of the match: 1 a win, 0.5 shared, 0 a loss
    actions: int
    decisions: tuple[int, int]  # of the match's two bots
    seconds: tuple[float, float]


def play(task: tuple) -> Played:
    """One seeded game: ``bots[0]`` in seat ``first_seat``."""
    variant, seed, first_seat, bots = task
    kind, options = VARIANTS[variant]
    engine = engine_for(kind)
    state = engine.new_game(engine.Options.from_json(options), seed)
    seats = (bots[0], bots[1]) if first_seat == 0 else (bots[1], bots[0])
    rngs = [random.Random(f"{variant}:{seed}:{first_seat}:{seat}") for seat in (0, 1)]
    decisions, seconds = [0, 0], [0.0, 0.0]
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        seat = state.to_decide
        bot = seats[seat]
        started = time.process_time()
        action = choose(kind, state, seat, bot.level, rngs[seat], bot.budget)
        who = 0 if seat == first_seat else 1
        seconds[who] += time.process_time() - started
        decisions[who] += 1
        state = engine.apply_action(state, action)
    else:
        raise RuntimeError(f"{variant} game {seed} did not end within {MAX_ACTIONS} actions")
    winners = state.outcome.winners
    score = 0.5 if len(winners) == 2 else float(winners == (first_seat,))
    return Played(score, len(state.history), (decisions[0], decisions[1]), (seconds[0], seconds[1]))


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``wins`` in ``games``."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def run_match(variant: str, bots: tuple[Bot, Bot], games: int, seed: int, pool) -> str:
    tasks = [(variant, seed + i // 2, i % 2, bots) for i in range(games)]
    started = time.monotonic()
    results = list(pool.imap_unordered(play, tasks) if pool else map(play, tasks))
    wall = time.monotonic() - started
    score = sum(r.score for r in results)
    low, high = wilson(score, games)
    rates = []
    for who in (0, 1):
        decided = sum(r.decisions[who] for r in results)
        spent = sum(r.seconds[who] for r in results)
        rates.append(f"{bots[who].name} {decided / spent if spent else float('inf'):,.0f}")
    actions = sum(r.actions for r in results) / len(results)
    return (
        f"{variant}: {bots[0].name} vs {bots[1].name}: {score:g} of {games} won "
        f"({score / games:.1%}, 95% CI {low:.1%}-{high:.1%}); moves per second: "
        f"{', '.join(rates)}; {actions:.0f} actions a game; {wall:.0f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--match", action="append", help="a,b: e.g. greedy,random or search:400,greedy"
    )
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    parser.add_argument("--simulations", type=int, help="the search's simulations a move")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    matches = args.match or ["greedy,random", "search,greedy"]
    variants = args.variant or ["basilica-2010", "basilica-2022", "cathedral"]
    pairs = []
    for match in matches:
        bots = match.split(",")
        if len(bots) != 2:
            parser.error(f"a match is two bots, a,b (not {match!r})")
        try:
            pairs.append(tuple(parse_bot(bot, args.simulations) for bot in bots))
        except argparse.ArgumentTypeError as error:
            parser.error(str(error))
    pool = Pool(args.processes) if args.processes > 1 else None
    try:
        for bots in pairs:
            for variant in variants:
                print(run_match(variant, bots, args.games, args.seed, pool), flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())

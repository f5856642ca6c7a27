"""Play many random legal games and report how they go.

    python -m games.engine.basilica.simulate --games 500 [--edition 2022] [--expansion] [--seed 0]

A random player picks a kind of action at random (place vault, place builder, one of the orders
on offer, pay or decline, ...) and then one action of that kind, so that orders are played about
as often as vaults are placed; ``--policy uniform`` picks uniformly among all legal actions
instead (which places vaults most of the time, there being many cells for each).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from . import legal_actions, new_game
from .actions import Action
from .components import Options
from .rules import perform
from .state import State


def by_kind(rng: random.Random, actions: list[Action]) -> Action:
    """A kind of action at random, then one action of that kind."""
    kind = rng.choice(sorted({action.kind for action in actions}))
    return rng.choice([action for action in actions if action.kind == kind])


def uniform(rng: random.Random, actions: list[Action]) -> Action:
    return rng.choice(actions)


POLICIES: dict[str, Callable[[random.Random, list[Action]], Action]] = {
    "kind": by_kind,
    "uniform": uniform,
}


def play_random(
    options: Options, seed: int, policy: Callable = by_kind, max_actions: int = 5000
) -> State:
    """One random legal game from ``seed`` to its end (the actions are legal: no re-check)."""
    state = new_game(options, seed)
    rng = random.Random(seed)
    for _ in range(max_actions):
        if state.finished:
            return state
        perform(state, policy(rng, legal_actions(state)))
    raise RuntimeError(f"game {seed} did not end within {max_actions} actions")


@dataclass
class Summary:
    games: int
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time: steadier on a busy machine
    turns: list[int]
    actions: list[int]
    endings: Counter
    scorings: Counter
    winners: list[int]  # the higher score of each game
    losers: list[int]  # the lower score
    ties: int

    def report(self) -> str:
        def spread(values: list[int]) -> str:
            return f"median {statistics.median(values):g}, min {min(values)}, max {max(values)}"

        margins = [w - lo for w, lo in zip(self.winners, self.losers, strict=True)]
        n = self.games
        lines = [
            f"games:              {n}",
            f"turns per game:     {spread(self.turns)}",
            f"actions per game:   {spread(self.actions)}",
            f"third scoring:      {self.endings['third scoring']} ({self.endings['third scoring'] / n:.0%})",
            f"exhaustion:         {self.endings['exhaustion']} ({self.endings['exhaustion'] / n:.0%})"
            + (
                "  [scorings done before it: "
                + ", ".join(f"{k}: {v}" for k, v in sorted(self.scorings.items()))
                + "]"
                if self.endings["exhaustion"]
                else ""
            ),
            f"winner's score:     {spread(self.winners)}",
            f"loser's score:      {spread(self.losers)}",
            f"margin:             {spread(margins)}",
            f"shared victories:   {self.ties} ({self.ties / n:.0%})",
            f"games per second:   {n / self.seconds:.0f} "
            f"({n / self.cpu_seconds:.0f} per CPU second)",
        ]
        return "\n".join(lines)


def simulate(options: Options, games: int, seed: int = 0, policy: str = "uniform") -> Summary:
    """Play ``games`` random games with seeds ``seed``, ``seed + 1``, ..."""
    choose = POLICIES[policy]
    turns, actions, winners, losers = [], [], [], []
    endings: Counter = Counter()
    scorings: Counter = Counter()
    ties = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for n in range(games):
        state = play_random(options, seed + n, choose)
        outcome = state.outcome
        turns.append(state.turn)
        actions.append(len(state.history))
        endings[outcome.termination] += 1
        if outcome.termination == "exhaustion":
            scorings[state.scorings - 1] += 1
        winners.append(max(outcome.scores))
        losers.append(min(outcome.scores))
        ties += len(outcome.winners) == 2
    seconds = time.perf_counter() - start
    cpu_seconds = max(time.process_time() - cpu_start, 1e-9)
    return Summary(
        games, seconds, cpu_seconds, turns, actions, endings, scorings, winners, losers, ties
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--edition", choices=("2010", "2022"), default="2022")
    parser.add_argument("--expansion", action="store_true", help="add Festum Fatuorum")
    parser.add_argument(
        "--remove-six", action="store_true", help="with the expansion, remove 6 tiles unseen"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="uniform")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    options = Options(
        edition=args.edition,
        expansion=args.expansion or args.remove_six,
        remove_six=args.remove_six,
    )
    print(
        f"Basilica {args.edition}{' + Festum Fatuorum' if options.expansion else ''}"
        f"{' (6 removed)' if args.remove_six else ''}: {args.games} random games "
        f"from seed {args.seed}, policy {args.policy!r}"
    )
    print(simulate(options, args.games, args.seed, args.policy).report())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Play many random legal games and report how they go.

    python -m games.engine.cathedral.simulate --games 500 [--lehman] [--seed 0]

Each move is a uniformly random legal placement, drawn without building the list of legal
actions: every orientation of every building in hand counts its fitting pivot squares on the
bitboard, one of all those placements is picked by index, and its square is found bit by bit.
The result has the distribution of ``rng.choice(legal_actions(state))``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from .actions import ACTIONS, Action
from .buildings import CATHEDRAL, FULL, KEYS, SHAPES, fitting
from .rules import free_for, perform
from .state import Options, State


def random_placement(state: State, rng: random.Random) -> Action:
    """A legal placement for ``state.to_decide``, each one equally likely."""
    seat = state.current
    placements = SHAPES[state.version][state.options.colour(seat)]
    if state.cathedral_due:
        free, keys = FULL & ~state.occupied, (CATHEDRAL,)
    else:
        free = free_for(state, seat)
        keys = tuple(KEYS[i] for i, count in enumerate(state.hands[seat]) if count)
    found = []
    total = 0
    for key in keys:
        for o in placements[key]:
            fits = fitting(free, o)
            if fits:
                n = fits.bit_count()
                found.append((n, fits, key, o.turn))
                total += n
    pick = rng.randrange(total)
    for n, fits, key, turn in found:
        if pick < n:
            for _ in range(pick):
                fits &= fits - 1  # drop the lowest pivot square
            return ACTIONS[key][(fits & -fits).bit_length() - 1][turn]
        pick -= n
    raise AssertionError("unreachable: the pick is below the total")


def play_random(options: Options, seed: int) -> State:
    """One random legal game from ``seed`` to its end (the placements are legal: no re-check)."""
    state = State(options)
    rng = random.Random(seed)
    while not state.finished:
        perform(state, random_placement(state, rng))
    return state


@dataclass
class Summary:
    games: int = 0
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU time: steadier on a busy machine
    actions: list[int] = field(default_factory=list)
    passes: list[int] = field(default_factory=list)
    captures: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)
    results: Counter = field(default_factory=Counter)  # "light", "dark", "draw"
    margins: list[int] = field(default_factory=list)

    def report(self) -> str:
        def spread(values: list[int]) -> str:
            return f"median {statistics.median(values):g}, min {min(values)}, max {max(values)}"

        n = self.games
        per = ", ".join(f"{k} {v / n:.0%}" for k, v in sorted(self.results.items()))
        return "\n".join(
            [
                f"games:              {n}",
                f"actions per game:   {spread(self.actions)}",
                f"passes per game:    {spread(self.passes)}",
                f"captures per game:  {', '.join(f'{k} {v / n:.2f}' for k, v in sorted(self.captures.items()))}",
                f"endings:            {', '.join(f'{k} {v / n:.0%}' for k, v in self.endings.items())}",
                f"results:            {per}",
                f"margin (squares):   {spread(self.margins)}",
                f"speed:              {n / self.seconds:.0f} games a second "
                f"({n / self.cpu_seconds:.0f} per CPU second)",
            ]
        )


def simulate(options: Options, games: int, seed: int = 0) -> Summary:
    summary = Summary(games=games)
    start, cpu = time.perf_counter(), time.process_time()
    states = [play_random(options, seed + n) for n in range(games)]
    summary.seconds = time.perf_counter() - start
    summary.cpu_seconds = time.process_time() - cpu
    for state in states:
        summary.actions.append(len(state.history))
        summary.passes.append(sum(1 for e in state.events if e[0] == "pass"))
        for event in state.events:
            if event[0] == "place":
                for _, owner, _ in event[6]:
                    summary.captures["cathedral" if owner is None else "building"] += 1
        outcome = state.outcome
        summary.endings[outcome.termination] += 1
        winners = outcome.winners
        summary.results["draw" if len(winners) > 1 else options.colour(winners[0])] += 1
        summary.margins.append(abs(outcome.scores[0] - outcome.scores[1]))
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--lehman", action="store_true", help="Tom Lehman's opening")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    args = parser.parse_args(argv)
    print(simulate(Options(lehman=args.lehman), args.games, args.seed).report())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Time the engine's hot paths on a stored log of a long random game.

    python -m games.engine.basilica.bench [--repeat 200]

Targets: a 150-action log replays in under 2 ms; the simulator plays hundreds of random games
a second.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

from . import apply_action, legal_actions, replay, view
from .components import Options
from .simulate import by_kind, play_random, simulate
from .state import State

OPTIONS = Options(edition="2022", expansion=True)
TARGET_ACTIONS = 150


def long_game() -> tuple[int, list[dict]]:
    """The seed and stored log (JSON actions) of a random game of about 150 actions."""
    best: tuple[int, int] | None = None
    for seed in range(200):
        length = len(play_random(OPTIONS, seed, by_kind).history)
        if best is None or abs(length - TARGET_ACTIONS) < abs(best[1] - TARGET_ACTIONS):
            best = (seed, length)
        if length == TARGET_ACTIONS:
            break
    seed = best[0]
    state = play_random(OPTIONS, seed, by_kind)
    # Stored as the site stores it: JSON text, read back into plain dicts.
    return seed, json.loads(json.dumps([entry["action"] for entry in state.history]))


def _median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _per_call(states: list[State], call: Callable[[State], object], repeat: int) -> float:
    """Mean seconds per call over every state of the game, best of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for state in states:
            call(state)
        best = min(best, time.perf_counter() - start)
    return best / len(states)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed runs of each figure")
    parser.add_argument("--games", type=int, default=200, help="games for the simulator figure")
    args = parser.parse_args(argv)

    seed, log = long_game()
    final = replay(OPTIONS, seed, log)
    states = [replay(OPTIONS, seed, log[:n]) for n in range(len(log))]
    actions = [final.history[n]["action"] for n in range(len(log))]
    pairs = list(zip(states, actions, strict=True))

    full = _median_seconds(lambda: replay(OPTIONS, seed, log), args.repeat)
    checked = _median_seconds(lambda: replay(OPTIONS, seed, log, check=True), args.repeat // 4)
    apply_each = _per_call(
        [s for s, _ in pairs], lambda s: apply_action(s, actions[len(s.history)]), 5
    )
    legal = _per_call(states, legal_actions, 5)
    seen = _per_call(states, lambda s: view(s, 0), 5)
    sim = simulate(OPTIONS, args.games, policy="uniform")
    sim_kind = simulate(OPTIONS, args.games, policy="kind")

    us = 1e6
    print(f"log: seed {seed}, {len(log)} actions, {OPTIONS.edition} with Festum Fatuorum")
    print(
        f"replay (unchecked):     {full * us:8.0f} us per full replay, "
        f"{full * us / len(log):6.1f} us per action   (target: under 2000 us)"
    )
    print(
        f"replay (checked):       {checked * us:8.0f} us per full replay, "
        f"{checked * us / len(log):6.1f} us per action"
    )
    print(f"apply_action (checked): {apply_each * us:8.1f} us per call")
    print(f"legal_actions:          {legal * us:8.1f} us per call")
    print(f"view:                   {seen * us:8.1f} us per call")
    print(
        f"simulator:              {sim.games / sim.seconds:8.0f} games per second (uniform), "
        f"{sim_kind.games / sim_kind.seconds:.0f} (by kind); per CPU second "
        f"{sim.games / sim.cpu_seconds:.0f} and {sim_kind.games / sim_kind.cpu_seconds:.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

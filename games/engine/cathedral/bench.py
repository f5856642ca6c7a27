"""Time the engine's hot paths.

    python -m games.engine.cathedral.bench [--repeat 200] [--games 1000]

Targets: every legal placement of the opening (the Cathedral placed, dark to move) in 2 ms or
less; 300 random games a second or more on one core. A random game plays a uniformly random
legal placement at every move to the end, drawn by ``simulate.random_placement`` (fitting pivot
squares counted per orientation on the bitboard; no list of actions built).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable

from . import apply_action, legal_actions, new_game, replay, view
from .simulate import play_random
from .state import Options

OPTIONS = Options()
# The Cathedral in the middle of the city, as players often open.
OPENING_CATHEDRAL = {"kind": "place", "building": "cathedral", "col": 4, "row": 4, "turn": 0}


def _median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed runs of each figure")
    parser.add_argument("--games", type=int, default=1000, help="random games to play")
    args = parser.parse_args(argv)

    opening = apply_action(new_game(OPTIONS, 0), OPENING_CATHEDRAL)
    count = len(legal_actions(opening))
    legal = _median_seconds(lambda: legal_actions(opening), args.repeat)

    start, cpu = time.perf_counter(), time.process_time()
    games = [play_random(OPTIONS, seed) for seed in range(args.games)]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu

    # A stored log, as the site keeps it: JSON text read back into plain dicts.
    final = games[0]
    log = json.loads(json.dumps([entry["action"] for entry in final.history]))
    states = [replay(OPTIONS, 0, log[:n]) for n in range(len(log))]
    unchecked = _median_seconds(lambda: replay(OPTIONS, 0, log), args.repeat)
    checked = _median_seconds(lambda: replay(OPTIONS, 0, log, check=True), args.repeat)
    apply_each = _median_seconds(
        lambda: [apply_action(s, log[n]) for n, s in enumerate(states)], args.repeat // 4
    ) / len(states)
    legal_each = _median_seconds(lambda: [legal_actions(s) for s in states], args.repeat // 4)
    seen = _median_seconds(lambda: view(final, 0), args.repeat)

    ms, us = 1e3, 1e6
    print(
        f"opening legal_actions:  {legal * ms:8.3f} ms for {count} placements "
        "(Cathedral on E5, dark to move; target: 2 ms or less)"
    )
    print(
        f"random games:           {args.games / wall:8.0f} games a second "
        f"({args.games / cpu:.0f} per CPU second; target: 300 or more), "
        "uniform random legal placements drawn by counting fitting pivots per orientation"
    )
    print(
        f"replay (unchecked):     {unchecked * us:8.0f} us for a {len(log)}-action log, "
        f"checked {checked * us:.0f} us"
    )
    print(f"apply_action (checked): {apply_each * us:8.1f} us per call")
    print(f"legal_actions:          {legal_each * us / len(states):8.1f} us per call, that game")
    print(f"view:                   {seen * us:8.1f} us per call (the finished game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Changing what a seat cannot see, to check that nothing it does depends on it."""

from __future__ import annotations

import random

from games.engine.basilica import State


def other_secrets(state: State, viewer: int, rng: random.Random) -> State:
    """``state`` with every secret of ``viewer``'s changed: the unseen tiles dealt anew
    between the stack below its top (which lies face up) and the removed six, the stack below
    its top reordered, another seed, and another colour for each of the other player's Jesters
    picked in secret (in the log too)."""
    other = state.copy()
    below, top = state.stack[:-1], state.stack[-1:]
    if state.exhaustions == 0:
        unseen = below + state.removed
        rng.shuffle(unseen)
        other.stack, other.removed = unseen[: len(below)] + top, unseen[len(below) :]
    else:
        rng.shuffle(below)
        other.stack = below + top
        rng.shuffle(other.removed)  # the six never seen: their order was never seen either
    other.seed = state.seed + 1 + rng.randrange(1000)
    for key, color in state.jester_picks.items():
        col, row = (int(x) for x in key.split(","))
        if state.cells[(col, row)].builder == viewer:
            continue
        lacking = [c for c in "YBRG" if c not in state.tiles[state.cells[(col, row)].tile].colors]
        new = next(c for c in lacking if c != color)
        other.jester_picks[key] = new
        for index, entry in enumerate(state.history):
            action = entry["action"]
            if action["type"] == "jester" and (action["col"], action["row"]) == (col, row):
                other.history[index] = {**entry, "action": {**action, "color": new}}
    return other

"""Random legal play for the property tests: every game is a seed and a policy."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.engine.basilica import Action, Options, State, apply_action, legal_actions, new_game

CONFIGS = {
    "2010": Options(edition="2010"),
    "2022": Options(edition="2022"),
    "2010+expansion": Options(edition="2010", expansion=True),
    "2022+expansion": Options(edition="2022", expansion=True),
    "2022+expansion-6": Options(edition="2022", expansion=True, remove_six=True, first_player=1),
}
MAX_ACTIONS = 2000  # far beyond any real game: a game that goes on longer is stuck


def choose(rng: random.Random, actions: list[Action]) -> Action:
    """A kind of action at random, then one of that kind: orders get played, not only vaults."""
    by_kind: dict[str, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(action.kind, []).append(action)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def play(options: Options, seed: int) -> Iterator[tuple[State, Action, State]]:
    """Play one random game, yielding (before, action, after) for every action."""
    state = new_game(options, seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            return
        action = choose(rng, legal_actions(state))
        after = apply_action(state, action)
        yield state, action, after
        state = after
    raise AssertionError(f"game {seed} did not end within {MAX_ACTIONS} actions")


def final_state(options: Options, seed: int) -> State:
    (*_, (_, _, last)) = play(options, seed)
    return last

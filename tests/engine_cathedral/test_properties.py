"""Properties of random legal play over many seeds, both openings, either seat light: games
end, nothing is created or lost, saved games replay, every view is JSON."""

from __future__ import annotations

import json
import random

import pytest

from games.engine.cathedral import (
    Action,
    Options,
    State,
    apply_action,
    legal_actions,
    new_game,
    replay,
    view,
)
from games.engine.cathedral.actions import ACTIONS
from games.engine.cathedral.buildings import ALL_KEYS, CELLS, SQUARES, TURNS
from games.engine.cathedral.rules import can_place, why_illegal
from games.engine.cathedral.simulate import play_random, random_placement

SEEDS = range(200)


def options_for(seed: int) -> Options:
    return Options(light=seed % 2, lehman=seed % 4 >= 2)


def random_game(seed: int):
    """(state before, action, state after) for each placement of a uniformly random game."""
    options = options_for(seed)
    rng = random.Random(seed)
    state = new_game(options, seed)
    while not state.finished:
        action = rng.choice(legal_actions(state))
        following = apply_action(state, action)
        yield state, action, following
        state = following


def squares_accounted_for(state: State) -> int:
    on_board = sum(piece.mask.bit_count() for piece in state.pieces.values())
    off_board = 0 if state.cathedral else SQUARES["cathedral"]  # not yet placed, or captured
    return on_board + state.unplaced_squares(0) + state.unplaced_squares(1) + off_board


def check_board(state: State) -> None:
    covered = 0
    for piece in state.pieces.values():
        assert not covered & piece.mask  # every square covered at most once
        covered |= piece.mask
    assert covered == state.own[0] | state.own[1] | state.cathedral
    for seat in (0, 1):
        theirs = state.own[1 - seat] | state.cathedral | state.own[seat]
        assert not state.territory[seat] & theirs  # a territory is open ground only
    assert not state.territory[0] & state.territory[1]
    assert squares_accounted_for(state) == 100


@pytest.mark.parametrize("seed", SEEDS)
def test_random_play_keeps_every_invariant_and_replays(seed):
    state = None
    for before, action, after in random_game(seed):
        assert before.to_decide in (0, 1)
        assert action in legal_actions(before)
        check_board(after)
        for event in after.events[len(before.events) :]:
            if event[0] == "pass":
                assert not can_place(after, event[2])
        for player in (0, 1, None):
            json.dumps(view(after, player))
        state = after
    assert state.finished
    assert state.to_decide is None
    assert state.outcome.scores == state.returns()
    actions = [entry["action"] for entry in state.history]
    assert replay(state.options, seed, actions) == state
    assert replay(state.options, seed, json.loads(json.dumps(actions)), check=True) == state
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("seed", range(0, 200, 10))
def test_legal_actions_and_the_refusals_agree(seed):
    rng = random.Random(seed)
    for before, _, _ in random_game(seed):
        legal = set(legal_actions(before))
        assert len(legal) == len(legal_actions(before))  # no action twice
        for _ in range(40):
            key = rng.choice(ALL_KEYS)
            action = ACTIONS[key][rng.randrange(CELLS)][rng.randrange(TURNS[key])]
            assert (why_illegal(before, action) is None) == (action in legal)
        for action in rng.sample(sorted(legal, key=str), min(10, len(legal))):
            assert why_illegal(before, action) is None


@pytest.mark.parametrize("seed", range(0, 200, 10))
def test_legal_actions_come_in_a_stable_order(seed):
    for before, _, _ in random_game(seed):
        assert legal_actions(before) == legal_actions(before.copy())
        assert legal_actions(State.from_json(before.to_json())) == legal_actions(before)


@pytest.mark.parametrize("seed", range(20))
def test_the_fast_sampler_plays_only_legal_placements(seed):
    rng = random.Random(seed)
    for before, _, _ in random_game(seed):
        assert random_placement(before, rng) in legal_actions(before)


def test_the_fast_sampler_can_draw_every_legal_placement():
    state = play_random(Options(), 3)
    history = [entry["action"] for entry in state.history]
    late = next(
        s
        for s in (replay(state.options, 3, history[:n]) for n in range(len(history) - 1, 0, -1))
        if 2 <= len(legal_actions(s)) <= 40
    )
    rng = random.Random(0)
    drawn = {random_placement(late, rng) for _ in range(4000)}
    assert drawn == set(legal_actions(late))


def test_a_game_played_by_the_simulator_replays_to_the_same_state():
    state = play_random(Options(light=1, lehman=True), 11)
    actions = [Action.from_json(entry["action"]) for entry in state.history]
    assert replay(state.options, 11, actions, check=True) == state

"""Determinization: the full state a bot plans on is drawn from what its seat sees, so changing
what the seat cannot see (the stack's order and content, the seed, the other player's hidden
Jester colour) changes nothing of it; and it is a state the seat cannot tell from the real one."""

from __future__ import annotations

import random

from games.engine.basilica import determinize, legal_actions, view

from .helpers import act
from .hidden import other_secrets
from .randomplay import CONFIGS, play
from .test_jester import BLACK, WHITE, _both_jesters_at_a_scoring


def sampled_positions(config: str, seeds: range, every: int = 7):
    for seed in seeds:
        for index, (before, _, _) in enumerate(play(CONFIGS[config], seed)):
            if index % every == 0 or before.pending or before.exhaustions:
                yield before


def test_a_determinization_depends_on_nothing_the_seat_cannot_see():
    rng = random.Random(1)
    checked = hidden_picks = reshuffled = 0
    # Both players rarely field a Jester at one scoring in random play: one position is set up.
    jesters = act(_both_jesters_at_a_scoring(), "jester", at=(0, 0), color="B")
    for config in [*CONFIGS, "jesters"]:
        positions = [jesters] if config == "jesters" else sampled_positions(config, range(3))
        for state in positions:
            seat = state.to_decide
            hidden_picks += any(
                state.cells[tuple(int(x) for x in key.split(","))].builder != seat
                for key in state.jester_picks
            )
            reshuffled += state.exhaustions == 1
            swapped = other_secrets(state, seat, rng)
            assert view(swapped, seat) == view(state, seat)
            assert (
                determinize(state, seat, random.Random(checked)).to_json()
                == determinize(swapped, seat, random.Random(checked)).to_json()
            )
            checked += 1
    assert checked > 500
    assert hidden_picks  # the positions include every kind of secret
    assert reshuffled


def test_the_seat_cannot_tell_a_determinization_from_the_real_game():
    rng = random.Random(2)
    for config in CONFIGS:
        for state in sampled_positions(config, range(3), every=11):
            seat = state.to_decide
            sample = determinize(state, seat, rng)
            assert view(sample, seat) == view(state, seat)
            assert legal_actions(sample) == legal_actions(state)
            assert sorted(sample.stack + sample.removed) == sorted(state.stack + state.removed)


def test_the_stack_and_the_seed_are_drawn_anew():
    state = next(sampled_positions("2022+expansion-6", range(1)))
    samples = [determinize(state, 0, random.Random(n)) for n in range(5)]
    assert len({tuple(s.stack) for s in samples}) == 5
    assert len({tuple(sorted(s.removed)) for s in samples}) > 1  # the six may be any unseen
    assert len({s.seed for s in samples}) == 5


def test_the_top_of_the_stack_is_kept_as_everyone_sees_it():
    kept = 0
    for config in CONFIGS:
        for state in sampled_positions(config, range(2), every=13):
            if len(state.stack) < 2:
                continue
            samples = [determinize(state, state.to_decide, random.Random(n)) for n in range(6)]
            assert all(s.stack[-1] == state.stack[-1] for s in samples)
            # What lies below it is still drawn anew.
            assert len({tuple(s.stack[:-1]) for s in samples}) > 1 or len(state.stack) < 4
            kept += 1
    assert kept


def test_after_the_reshuffle_the_stack_holds_the_old_discard_pile_in_a_new_order():
    for state in sampled_positions("2022", range(20), every=1000):
        if state.exhaustions == 1 and len(state.stack) > 3:
            break
    else:
        raise AssertionError("no reshuffle in 20 games")
    samples = [determinize(state, state.to_decide, random.Random(n)) for n in range(4)]
    assert all(sorted(s.stack) == sorted(state.stack) for s in samples)
    assert len({tuple(s.stack) for s in samples}) > 1


def test_the_other_players_hidden_jester_colour_is_drawn_and_ones_own_is_kept():
    state = act(_both_jesters_at_a_scoring(), "jester", at=(0, 0), color="B")
    colours = set()
    for n in range(20):
        sample = determinize(state, BLACK, random.Random(n))
        colours.add(sample.jester_picks["0,0"])
        assert sample.history[-1]["action"]["color"] == sample.jester_picks["0,0"]
        assert determinize(state, WHITE, random.Random(n)).jester_picks == {"0,0": "B"}
    assert colours == {"Y", "B", "G"}  # the colours a red tile lacks
    assert state.history[-1]["action"]["color"] == "B"  # the real game is untouched

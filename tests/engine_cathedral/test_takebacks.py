"""Takebacks in Cathedral, a game with nothing hidden: any action may be taken back until the
other player has acted, and the city is then as it was before it."""

from __future__ import annotations

import random

import pytest

from games.engine import cathedral as engine
from games.engine.takeback import marker

OPPONENT_ACTED = "your opponent has acted since your last action: it cannot be taken back"


def test_the_first_building_taken_back_leaves_the_city_as_it_was():
    options = engine.Options()
    start = engine.new_game(options, 0)
    placed = engine.apply_action(start, engine.legal_actions(start)[0])
    assert engine.takeback_refusal(start, placed, placed.history[-1]["player"]) is None
    back = engine.take_back(placed)
    assert engine.view(back, None)["log"] == []
    assert back.to_decide == start.to_decide
    assert back.hands == start.hands
    assert back.cathedral == start.cathedral


def test_after_the_other_player_has_placed_the_first_player_cannot_take_back():
    options = engine.Options()
    state = engine.new_game(options, 0)
    first = engine.apply_action(state, engine.legal_actions(state)[0])
    second = engine.apply_action(first, engine.legal_actions(first)[0])
    refusal = engine.takeback_refusal(first, second, first.history[-1]["player"])
    assert str(refusal) == OPPONENT_ACTED


def test_a_capture_taken_back_gives_the_captured_building_back_to_its_owner():
    rng = random.Random(3)
    for seed in range(60):
        state = engine.new_game(engine.Options(), seed)
        while not state.finished:
            before = state
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
            placed = [e for e in engine.view(state, None)["log"] if e["kind"] == "place"]
            if placed[-1]["captures"] and not state.finished:
                back = engine.take_back(state)
                assert back.hands == before.hands
                assert back.own == before.own
                assert back.territory == before.territory
                return
    pytest.fail("no random game captured a building")


def test_a_log_with_takebacks_replays_to_the_game_it_was_played_as():
    rng = random.Random(11)
    options = engine.Options(lehman=True)
    for seed in range(20):
        state, log = engine.new_game(options, seed), []
        while not state.finished:
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
            log.append(state.history[-1]["action"])
            if not state.finished and rng.random() < 0.3:
                state = engine.take_back(state)
                log.append(marker(len(log)))
        replayed = engine.replay(options, seed, log, check=True)
        assert replayed.to_json() == state.to_json()
        assert engine.view(replayed, 0) == engine.view(state, 0)

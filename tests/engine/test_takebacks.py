"""Takebacks in Basilica: which actions may be taken back (none that showed anything hidden:
a tile drawn from the stack, which also turns up the next tile's order side, or a scoring that
reveals the Jester picks), and a log with takebacks replaying to the game as if the action
taken back had never been made."""

from __future__ import annotations

import random

import pytest

from games.engine import basilica as engine
from games.engine.basilica.actions import kind_of
from games.engine.takeback import is_takeback, marker

from .helpers import game

HIDDEN = "that action showed what was hidden (a tile drawn, a Jester pick revealed)"
OPPONENT_ACTED = "your opponent has acted since your last action: it cannot be taken back"
OPTIONS = engine.Options(edition="2022", expansion=True)


def played_until(wanted, seeds=range(300), options=OPTIONS):
    """(the log, the state before its last action, the state after it) of the first random
    game whose last action makes ``wanted(before, after, action)`` true."""
    for seed in seeds:
        rng = random.Random(seed)
        state, log = engine.new_game(options, seed), []
        while not state.finished:
            action = rng.choice(engine.legal_actions(state))
            after = engine.apply_action(state, action)
            log.append(action.to_json())
            if wanted(state, after, action):
                return seed, log, state, after
            state = after
    raise LookupError("no random game reached the position")


def refusal(before, after) -> str | None:
    reason = engine.takeback_refusal(before, after, after.history[-1]["player"])
    return None if reason is None else str(reason)


def test_a_vault_placed_draws_an_order_into_the_market_so_it_cannot_be_taken_back():
    _, _, before, after = played_until(lambda s, a, act: act.kind == "vault")
    assert before.stack != after.stack
    assert refusal(before, after) == HIDDEN


def test_an_order_executed_draws_a_new_one_so_it_cannot_be_taken_back():
    def order_resolved(before, after, action):
        return kind_of(action.to_json()) in {"move", "glass", "disaster"} and not after.pending

    _, _, before, after = played_until(order_resolved)
    assert refusal(before, after) == HIDDEN


def test_a_builder_placed_without_a_draw_may_be_taken_back_and_the_board_is_as_before():
    def quiet_builder(before, after, action):
        return action.kind == "builder" and before.stack == after.stack and not after.finished

    seed, log, before, after = played_until(quiet_builder)
    assert refusal(before, after) is None
    back = engine.take_back(after)
    assert engine.view(back, 0)["log"] == engine.view(before, 0)["log"]
    assert _board(back) == _board(before)
    assert back.to_decide == before.to_decide
    # The log keeps both entries; a replay of it gives the same game.
    assert len(back.history) == len(log) + 1
    assert back.history[-2]["taken_back"] is True
    assert is_takeback(back.history[-1]["action"])
    replayed = engine.replay(OPTIONS, seed, [*log, marker(len(log))], check=True)
    assert replayed.to_json() == back.to_json()


def test_a_paid_order_not_yet_answered_may_be_taken_back():
    def offered(before, after, action):
        return bool(after.pending) and after.pending[0]["kind"] == "paid"

    _, _, before, after = played_until(offered)
    assert before.stack == after.stack
    assert refusal(before, after) is None
    assert engine.take_back(after).to_decide == before.to_decide


def test_a_jester_pick_while_the_other_pick_is_still_to_come_may_be_taken_back():
    def first_of_two_picks(before, after, action):
        return action.kind == "jester" and any(p["kind"] == "jester" for p in after.pending)

    _, _, before, after = played_until(first_of_two_picks, options=engine.Options(edition="2022"))
    assert refusal(before, after) is None


def test_the_last_jester_pick_reveals_the_picks_at_the_scoring_so_it_cannot_be_taken_back():
    def scoring(before, after, action):
        return action.kind == "jester" and after.scorings > before.scorings

    _, _, before, after = played_until(scoring, options=engine.Options(edition="2022"))
    assert refusal(before, after) == HIDDEN


def test_once_the_opponent_has_acted_nothing_of_the_players_can_be_taken_back():
    _, _, before, after = played_until(
        lambda s, a, act: len(a.history) > 1 and a.history[-2]["player"] != a.history[-1]["player"]
    )
    mover = after.history[-1]["player"]
    assert str(engine.takeback_refusal(before, after, 1 - mover)) == OPPONENT_ACTED


def test_a_second_takeback_in_a_row_is_refused_the_opponent_agreed_to_the_first():
    _, _, _, after = played_until(
        lambda s, a, act: act.kind == "builder" and s.stack == a.stack and not a.finished
    )
    back = engine.take_back(after)
    with pytest.raises(engine.IllegalAction, match="your opponent has acted since"):
        engine.take_back(back)


def test_a_replay_that_checks_refuses_a_takeback_of_a_drawing_action():
    seed, log, _, _ = played_until(lambda s, a, act: act.kind == "vault")
    with pytest.raises(engine.IllegalAction, match="showed what was hidden"):
        engine.replay(OPTIONS, seed, [*log, marker(len(log))], check=True)


def test_random_games_with_takebacks_replay_the_same_by_steps_and_at_once():
    rng = random.Random(7)
    taken = 0
    for seed in range(12):
        state, log = engine.new_game(OPTIONS, seed), []
        while not state.finished:
            before = state
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
            log.append(state.history[-1]["action"])
            if refusal(before, state) is None and rng.random() < 0.7:
                state = engine.take_back(state)
                log.append(marker(len(log)))
                assert _board(state) == _board(before)
                taken += 1
        assert engine.replay(OPTIONS, seed, log, check=True).to_json() == state.to_json()
        cut = len(log) // 2
        halves = engine.replay(
            OPTIONS, seed, log[cut:], start=engine.replay(OPTIONS, seed, log[:cut])
        )
        assert halves.to_json() == state.to_json()
    assert taken > 20


def test_a_state_built_by_hand_has_no_takeback_to_refuse_before_any_action():
    state = game()
    assert str(engine.takeback_refusal(state, state)) == "there is no action to take back"


def _board(state) -> dict:
    full = state.to_json()
    for key in ("history", "events"):
        full.pop(key)
    return full

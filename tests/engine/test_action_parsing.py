"""Reading actions: a posted action is checked in full and never remembered; a stored log is.
Data that is no action at all is malformed; a well-formed action the rules refuse is illegal."""

from __future__ import annotations

import tracemalloc

import pytest

from games.engine import cathedral, interface
from games.engine.basilica import Action, IllegalAction, MalformedAction, apply_action

from .helpers import act, game, offer_vault


def test_ten_thousand_distinct_posted_actions_are_not_kept_in_memory():
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(10_000):
            data = {
                "type": "pay",
                "tile": i % 1000,
                "col": i % 5,
                "row": i // 1000,
                "rank": "mason",
            }
            Action.from_json(data)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 200_000


def test_a_stored_action_reads_as_the_same_value_as_a_posted_one():
    data = {"type": "vault", "tile": 3, "col": 2, "row": 1}
    assert Action.from_log(dict(data)) == Action.from_json(dict(data)) == Action("vault", 3, 2, 1)
    assert Action.from_log(dict(data)) is Action.from_log(dict(data))


@pytest.mark.parametrize(
    "data",
    [
        {"type": "vault", "tile": True, "col": 0, "row": 0},
        {"type": "vault", "tile": 0, "col": 0, "row": 1024},
        {"type": "promote", "tile": 0, "col": 0, "row": 0, "rank": "bishop"},
        {"type": ["vault"]},
        {"type": "vault", 7: 1},
    ],
)
def test_an_action_outside_the_engines_bounds_is_no_action(data):
    with pytest.raises(MalformedAction):
        Action.from_json(data)
    with pytest.raises(MalformedAction):
        Action.from_log(data)


VAULT = {"type": "vault", "tile": 3, "col": 2, "row": 0}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (["vault", 3, 2, 0], "an action is a JSON object"),
        ({**VAULT, "type": "teleport"}, "unknown action type 'teleport'"),
        ({"tile": 3, "col": 2, "row": 0}, "unknown action type None"),
        ({**VAULT, "colour": "B"}, "unexpected fields in action: colour"),
        ({**VAULT, "col": "2"}, "col must be a whole number"),
        ({**VAULT, "col": 5}, "col is off the board"),
        ({**VAULT, "row": -1}, "row is off the board"),
        ({"type": "promote", "tile": 3, "col": 0, "row": 0, "rank": 1}, "rank must be text"),
        ({"type": "jester", "col": 0, "row": 0, "color": "P"}, "no such color"),
    ],
)
def test_data_that_is_no_action_is_malformed_before_any_rule_is_asked(data, message):
    with pytest.raises(MalformedAction, match=message):
        Action.from_json(data)
    with pytest.raises(MalformedAction, match=message):
        apply_action(game(), data)


def test_a_well_formed_action_the_rules_refuse_is_illegal_not_malformed():
    state = game()
    red = offer_vault(state, "R")
    elsewhere = next(t for t in range(40) if t not in state.market_vaults)
    refusals = [
        ({"type": "vault", "tile": red, "col": 2, "row": 3}, "a vault goes on a starting slot"),
        ({"type": "vault", "tile": elsewhere, "col": 2, "row": 0}, "not on offer"),
        ({"type": "builder"}, "only possible immediately after Place Vault"),
        ({"type": "decline"}, "no such decision pending"),
    ]
    for data, message in refusals:
        action = Action.from_json(data)  # well formed
        with pytest.raises(IllegalAction, match=message) as refused:
            apply_action(state, action)
        assert not isinstance(refused.value, MalformedAction)
    state = act(state, "vault", red, at=(2, 0))
    with pytest.raises(IllegalAction, match="already built on"):
        apply_action(state, {"type": "vault", "tile": state.market_vaults[0], "col": 2, "row": 0})


def test_malformed_and_illegal_are_two_value_errors_shared_by_every_engine():
    assert issubclass(MalformedAction, ValueError)
    assert issubclass(IllegalAction, ValueError)
    assert not issubclass(MalformedAction, IllegalAction)
    assert not issubclass(IllegalAction, MalformedAction)
    assert MalformedAction is interface.MalformedAction is cathedral.MalformedAction
    assert IllegalAction is interface.IllegalAction is cathedral.IllegalAction

"""Reading actions: a posted action is checked in full and never remembered; a stored log is."""

from __future__ import annotations

import tracemalloc

import pytest

from games.engine.basilica import Action, IllegalAction


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
    with pytest.raises(IllegalAction):
        Action.from_json(data)
    with pytest.raises(IllegalAction):
        Action.from_log(data)

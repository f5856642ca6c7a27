"""Basilica's options are read strictly, as Cathedral's are: a record or a stored game from
outside names only options the engine has, each of its type and within its bounds."""

from __future__ import annotations

import json

import pytest

from games.engine.basilica import Options

TILE = {"colors": "YB", "crown": False, "order": "promote", "paid": True}


def test_options_round_trip_through_json():
    options = Options(edition="2010", expansion=True, remove_six=True, first_player=1)
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert Options.from_json({}) == Options()
    with_tiles = Options.from_json({"tiles": [TILE, {**TILE, "colors": "G"}]})
    assert Options.from_json(json.loads(json.dumps(with_tiles.to_json()))) == with_tiles


@pytest.mark.parametrize(
    "data",
    [
        {"edition": 2022},
        {"edition": ["2022"]},
        {"expansion": 1},
        {"expansion": "yes"},
        {"first_player": True},
        {"first_player": 2},
        {"altars": {}},
        {"altars": 14.0},
        {"coins": float("nan")},
        {"coins": float("inf")},
        {"builders": "5"},
        {"builders": -1},
        {"builders": 10**9},
        {"promotion_tokens": True},
        {"crown_spaces": []},
        {"crown_spaces": ["10"]},
        {"crown_spaces": [20, 10]},
        {"crown_spaces": [10, True]},
        {"crown_spaces": 10},
        {"tiles": "YB"},
        {"tiles": [{**TILE, "colors": "X"}]},
        {"tiles": [{**TILE, "colors": "YBR"}]},
        {"tiles": [{**TILE, "colors": ["Y"]}]},
        {"tiles": [{**TILE, "order": "teleport"}]},
        {"tiles": [{**TILE, "order": {}}]},
        {"tiles": [{**TILE, "crown": "no"}]},
        {"tiles": [TILE] * 1000},
        {"players": 3},
    ],
)
def test_options_refuse_unknown_keys_and_bad_values(data):
    with pytest.raises((ValueError, TypeError, KeyError)):
        Options.from_json(data)

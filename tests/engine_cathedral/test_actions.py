"""Actions and options as JSON: they round-trip, and anything malformed is refused by name."""

from __future__ import annotations

import json

import pytest

from games.engine.cathedral import (
    Action,
    IllegalAction,
    MalformedAction,
    Options,
    apply_action,
    describe_action,
    legal_actions,
    view,
)

from .helpers import DARK_SEAT, action_for, game, play

TOWER = {"kind": "place", "building": "tower", "col": 3, "row": 3, "turn": 1}


def test_an_action_round_trips_through_json():
    action = Action.from_json(TOWER)
    assert action == Action("tower", 3, 3, 1)
    assert action.to_json() == TOWER
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) is action


def test_every_legal_action_round_trips():
    state = play(game(), "cathedral E5")
    for action in legal_actions(state):
        assert Action.from_json(action.to_json()) == action
        assert Action.from_log(action.to_json()) == action


def test_an_action_is_a_placement_of_a_kind_of_building_not_of_a_copy():
    assert Action.from_json({**TOWER, "building": "tavern", "turn": 0}).building == "tavern"


def _without(key):
    return {k: v for k, v in TOWER.items() if k != key}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([TOWER], "an action is a JSON object"),
        ({**TOWER, "kind": "move"}, "unknown action kind"),
        ({**TOWER, "kind": ["place"]}, "unknown action kind"),
        (_without("kind"), "unknown action kind"),
        ({**TOWER, "colour": "light"}, "unexpected fields in action: colour"),
        ({**TOWER, 7: 1}, "unexpected fields"),
        (_without("turn"), "a placement needs turn"),
        ({**TOWER, "building": "palace"}, "no such building"),
        ({**TOWER, "building": "x" * 1_000_000}, "no such building"),
        ({**TOWER, "building": None}, "no such building"),
        ({**TOWER, "col": 10}, "col and row are 0-9"),
        ({**TOWER, "row": -1}, "col and row are 0-9"),
        ({**TOWER, "col": 10**100}, "col and row are 0-9"),
        ({**TOWER, "turn": 4}, "the Tower has 4 distinct orientations: turn is 0-3"),
        ({**TOWER, "building": "stable", "turn": 2}, "turn is 0-1"),
        ({**TOWER, "building": "square", "turn": 1}, "the Square has 1 distinct orientation"),
        ({**TOWER, "col": "3"}, "col must be a whole number"),
        ({**TOWER, "row": 3.0}, "row must be a whole number"),
        ({**TOWER, "turn": True}, "turn must be a whole number"),
        ({**TOWER, "col": False}, "col must be a whole number"),
    ],
)
def test_a_malformed_action_is_refused_by_name(data, message):
    with pytest.raises(MalformedAction, match=message):
        Action.from_json(data)
    with pytest.raises(MalformedAction, match=message):
        Action.from_log(data)


def test_a_refused_message_stays_short_even_for_a_huge_value():
    with pytest.raises(MalformedAction) as refused:
        Action.from_json({**TOWER, "building": "x" * 1_000_000})
    assert len(str(refused.value)) < 100


def test_illegal_action_is_a_value_error():
    assert issubclass(IllegalAction, ValueError)


def test_malformed_action_is_a_value_error_and_no_illegal_action():
    assert issubclass(MalformedAction, ValueError)
    assert not issubclass(MalformedAction, IllegalAction)
    assert not issubclass(IllegalAction, MalformedAction)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**TOWER, "building": "palace"}, "no such building"),
        ({**TOWER, "col": 10}, "col and row are 0-9"),
        ({**TOWER, "turn": 4}, "turn is 0-3"),
    ],
)
def test_apply_action_refuses_json_that_is_no_placement_as_malformed(data, message):
    with pytest.raises(MalformedAction, match=message):
        apply_action(play(game(), "cathedral E5"), data)


def test_a_placement_the_rules_refuse_is_illegal_not_malformed():
    with pytest.raises(IllegalAction, match="it would stick out past the city wall") as refused:
        apply_action(play(game(), "cathedral E5"), {**TOWER, "col": 0, "row": 0})
    assert not isinstance(refused.value, MalformedAction)


def test_apply_action_takes_json_and_leaves_the_old_state_as_it_was():
    before = play(game(), "cathedral E5")
    frozen = before.to_json()
    after = apply_action(before, TOWER)
    assert before.to_json() == frozen
    assert after != before
    assert len(after.history) == 2


def test_a_building_sticking_out_of_the_city_is_refused():
    with pytest.raises(
        IllegalAction, match="the Tower does not fit there: it would stick out past the city wall"
    ):
        apply_action(play(game(), "cathedral E5"), {**TOWER, "col": 0, "row": 0})


def test_a_building_on_a_built_square_is_refused_naming_the_square():
    state = play(game(), "cathedral E5")  # E4, D5 E5 F5, E6, E7
    with pytest.raises(
        IllegalAction, match="the Bridge does not fit there: E6 is already built on"
    ):
        play(state, "bridge E6")


def test_describe_action_tells_what_the_placement_would_do():
    state = play(game(), "cathedral H7", "stable A3 B3", "tavern J1")
    assert describe_action(state, action_for(state, "bridge C1 C2 C3")) == (
        "place the Bridge on C1\u2013C3, claiming 4 squares"
    )
    assert describe_action(state, action_for(state, "tavern E5")) == "place the Tavern on E5"


def test_describe_action_of_an_illegal_placement_still_reads():
    state = play(game(), "cathedral E5")
    assert describe_action(state, {**TOWER, "col": 0, "row": 0}) == "place the Tower at A1, turn 1"


def test_options_round_trip_through_json():
    options = Options(light=1, lehman=True)
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert Options.from_json({}) == Options(light=0, lehman=False)


@pytest.mark.parametrize(
    "data",
    [
        {"light": 2},
        {"light": True},
        {"light": "0"},
        {"lehman": 1},
        {"lehman": "yes"},
        {"first_player": 0},
        [0, False],
    ],
)
def test_options_refuse_unknown_keys_and_bad_values(data):
    with pytest.raises(ValueError):
        Options.from_json(data)


def test_the_view_says_who_plays_light_and_the_variant():
    seen = view(game(light=1, lehman=True), DARK_SEAT)
    assert seen["light"] == 1
    assert seen["lehman"] is True
    assert seen["viewer"] == DARK_SEAT

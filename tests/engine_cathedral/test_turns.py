"""Who places when: the Cathedral first, then dark and light in turn; Tom Lehman's opening."""

from __future__ import annotations

import pytest

from games.engine.cathedral import IllegalAction, legal_actions, view
from games.engine.cathedral.buildings import CATHEDRAL

from .helpers import game, play


def test_light_places_the_cathedral_anywhere_first():
    state = game(light=0)
    assert state.to_decide == 0
    actions = legal_actions(state)
    assert {a.building for a in actions} == {CATHEDRAL}
    # 8 columns x 7 rows for each upright turn, 7 x 8 for each lying one
    assert len(actions) == 4 * 56


def test_the_seat_playing_light_places_the_cathedral():
    state = game(light=1)
    assert state.to_decide == 1
    assert view(state, None)["colours"] == ["dark", "light"]


def test_dark_moves_first_after_the_cathedral_then_they_alternate():
    state = play(game(light=1), "cathedral E5")
    assert state.to_decide == 0  # dark
    state = play(state, "tower A1 A2 B2 B3 C3")
    assert state.to_decide == 1
    state = play(state, "tavern J10")
    assert state.to_decide == 0
    assert [entry["player"] for entry in state.history] == [1, 0, 1]


def test_no_building_goes_in_before_the_cathedral():
    with pytest.raises(IllegalAction, match="Light places the Cathedral now"):
        play(game(), "tavern A1")


def test_the_cathedral_goes_in_once():
    state = play(game(), "cathedral E5")
    assert CATHEDRAL not in {a.building for a in legal_actions(state)}
    with pytest.raises(IllegalAction, match="the Cathedral is already in the city"):
        play(state, "cathedral B2")


def test_tom_lehman_dark_opens_then_light_places_the_cathedral_and_its_first_building():
    state = game(light=0, lehman=True)
    assert state.to_decide == 1  # dark
    assert CATHEDRAL not in {a.building for a in legal_actions(state)}
    state = play(state, "castle B2")
    assert state.to_decide == 0
    assert {a.building for a in legal_actions(state)} == {CATHEDRAL}
    state = play(state, "cathedral F6")
    assert state.to_decide == 0  # light again: its own first building
    assert CATHEDRAL not in {a.building for a in legal_actions(state)}
    state = play(state, "tower H2")
    assert state.to_decide == 1
    state = play(state, "tavern J10")
    assert state.to_decide == 0
    assert [entry["player"] for entry in state.history] == [1, 0, 0, 1]


def test_tom_lehman_the_cathedral_goes_on_any_empty_squares_but_not_on_darks_building():
    state = play(game(lehman=True), "tavern E5")
    assert len(legal_actions(state)) == 4 * 56 - 6 * 4  # 6 placements per turn cover E5
    with pytest.raises(IllegalAction, match="E5 is already built on"):
        play(state, "cathedral E5")


def test_tom_lehman_dark_cannot_open_with_the_cathedral():
    with pytest.raises(IllegalAction, match="Dark places a building first"):
        play(game(lehman=True), "cathedral E5")


def test_tom_lehman_light_places_the_cathedral_before_its_own_building():
    state = play(game(lehman=True), "castle B2")
    with pytest.raises(IllegalAction, match="Light places the Cathedral now"):
        play(state, "tower H2")


def test_the_two_copies_of_a_building_are_one_kind_and_a_third_is_refused():
    state = play(game(), "cathedral E5", "tavern A1", "tavern J1", "tavern A10", "tavern J10")
    assert view(state, 1)["hands"][1]["buildings"][0]["building"] == "stable"  # no Tavern left
    state = play(state, "stable C10 D10")
    with pytest.raises(IllegalAction, match="both your Taverns are already in the city"):
        play(state, "tavern F1")


def test_a_single_building_placed_is_not_in_hand_any_more():
    state = play(game(), "cathedral E5", "tower A1 A2 B2 B3 C3", "bridge J2 1")
    with pytest.raises(IllegalAction, match="your Tower is already in the city"):
        play(state, "tower H8")

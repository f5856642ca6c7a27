"""Capturing: one piece alone in an enclosed part of the city is removed and the part claimed;
two pieces (or two that touch) are safe; the Cathedral, once taken, never comes back."""

from __future__ import annotations

import pytest

from games.engine.cathedral import IllegalAction, legal_actions, view
from games.engine.cathedral.buildings import CATHEDRAL

from .helpers import DARK_SEAT, LIGHT_SEAT, game, play, territory


def tavern_captured():
    """Light's Tavern in A1 is walled in by dark's Stable A2-B2 and, last, dark's Tavern B1.
    Light's other Tavern and the Cathedral stay in the open city."""
    return play(
        game(),
        "cathedral H7",
        "stable A2 B2",
        "tavern A1",
        "tavern J10",
        "tavern J1",
        "tavern B1",
    )


def test_a_building_alone_in_an_enclosed_part_is_captured_and_the_part_claimed():
    state = tavern_captured()
    assert view(state, None)["cells"][0][0] is None
    assert territory(state, DARK_SEAT) == {"A1"}


def test_a_captured_building_goes_back_to_its_owners_hand():
    hand = view(tavern_captured(), LIGHT_SEAT)["hands"][LIGHT_SEAT]
    assert hand["buildings"][0] == {
        "building": "tavern",
        "name": "Tavern",
        "squares": 1,
        "count": 1,
    }
    assert hand["unplaced_squares"] == 47 - 1


def test_the_log_tells_of_the_capture():
    entry = view(tavern_captured(), LIGHT_SEAT)["log"][-1]
    assert entry["text"] == (
        "Dark placed the Tavern on B1, claimed 1 square "
        "and captured Light's Tavern (back to Light's hand)"
    )
    assert entry["captured"] == {"building": "tavern", "owner": LIGHT_SEAT, "cells": ["A1"]}
    assert entry["claimed"] == [[0, 0]]


def test_a_captured_building_may_be_placed_again_later():
    state = play(tavern_captured(), "tavern E5")
    assert view(state, None)["cells"][4][4]["building"] == "tavern"
    assert state.hands[LIGHT_SEAT][0] == 0


def test_the_captured_space_is_closed_to_the_former_owner():
    with pytest.raises(IllegalAction, match="A1 is Dark's territory"):
        play(tavern_captured(), "tavern A1")


def cathedral_captured():
    """The Cathedral stands in the top-left corner (B1, A2 B2 C2, B3, B4); dark walls it in
    with the Bridge D1-D3, the Stable A5-B5 and, last, the Inn C5 D5 D4."""
    return play(
        game(),
        "cathedral B2",
        "bridge D2 1",
        "tavern J10",
        "stable A5 B5",
        "tavern J9",
        "inn C5 D5 D4",
    )


def test_the_cathedral_alone_in_an_enclosed_part_is_captured():
    state = cathedral_captured()
    assert state.cathedral_out
    assert view(state, None)["cathedral_out"] is True
    assert len(territory(state, DARK_SEAT)) == 6 + 6  # its squares and the six around it
    assert view(state, None)["log"][-1]["text"] == (
        "Dark placed the Inn on C4\u2013D5, claimed 12 squares "
        "and captured the Cathedral (out of the game)"
    )


def test_a_captured_cathedral_is_out_of_the_game_for_good():
    state = cathedral_captured()
    assert CATHEDRAL not in {a.building for a in legal_actions(state)}
    with pytest.raises(IllegalAction, match="the Cathedral was captured: it is out of the game"):
        play(state, "cathedral F5")
    assert view(state, None)["log"][-1]["captured"] == {
        "building": "cathedral",
        "owner": "cathedral",
        "cells": ["B1", "A2", "B2", "C2", "B3", "B4"],
    }


def test_two_buildings_enclosed_together_are_both_safe_note_3():
    # Light's Taverns A1 and C3 end up together inside dark's wall D1-D5, A5-C5.
    state = play(
        game(),
        "cathedral H7",
        "bridge D2 1",
        "tavern A1",
        "stable A5 B5",
        "tavern C3",
        "tavern J1",
        "stable I10 J10",
        "inn C5 D5 D4",
    )
    cells = view(state, None)["cells"]
    assert cells[0][0]["owner"] == LIGHT_SEAT
    assert cells[2][2]["owner"] == LIGHT_SEAT
    assert territory(state, DARK_SEAT) == set()


def test_the_cathedral_and_a_building_touching_it_are_both_safe_note_4():
    # Light's Manor (C3, D2 D3 D4) leans on the Cathedral (B1, A2 B2 C2, B3, B4); dark's
    # Bridge E1-E3, Manor A5 B5 C5 B6 and Inn E4 E5 D5 close them in together.
    state = play(
        game(),
        "cathedral B2",
        "bridge E2 1",
        "manor C3 D2 D3 D4",
        "manor A5 B5 C5 B6",
        "tavern J10",
        "stable A10 B10",
        "tavern J1",
        "inn E4 E5 D5",
    )
    assert not state.cathedral_out
    assert view(state, None)["cells"][2][2]["building"] == "manor"
    assert territory(state, DARK_SEAT) == set()


def test_capturing_the_building_that_walls_a_territory_takes_the_territory_too():
    # Light's Inn (A2 B2 B1) claims A1; dark then walls the Inn in with the Stable A3-B3 and
    # the Bridge C1-C3, captures it, and A1 changes hands with the Inn's squares.
    state = play(game(), "cathedral H7", "tavern J1", "tavern J10", "stable A3 B3", "inn A2 B2 B1")
    assert territory(state, LIGHT_SEAT) == {"A1"}
    state = play(state, "bridge C1 C2 C3")
    assert territory(state, LIGHT_SEAT) == set()
    assert territory(state, DARK_SEAT) == {"A1", "B1", "A2", "B2"}
    assert view(state, None)["log"][-1]["text"] == (
        "Dark placed the Bridge on C1\u2013C3, claimed 4 squares "
        "and captured Light's Inn (back to Light's hand)"
    )


def test_one_building_that_isolates_two_pieces_in_two_parts_captures_neither():
    # Dark's Tavern B1 closes A1 (against the Stable A2-B2) and C1 (against the Inn C2 D2 D1),
    # each holding one of light's Taverns. Rule 5: "If you surround two or more buildings...
    # neither of the buildings may be removed and the space is still available" (README,
    # Decisions 2): both Taverns stay, and neither part is claimed.
    state = play(
        game(),
        "cathedral H7",
        "stable A2 B2",
        "stable I1 J1",
        "tavern J10",
        "tavern A1",
        "stable A10 B10",
        "tavern C1",
        "inn D1 D2 C2",  # A1 B1 C1 closed, but with two of light's Taverns in it
        "bridge E10",
        "tavern B1",
    )
    entry = view(state, None)["log"][-1]
    assert entry["captures"] == []
    assert entry["captured"] is None
    assert territory(state, DARK_SEAT) == set()
    assert state.hands[LIGHT_SEAT][0] == 0
    assert "captured" not in entry["text"]


def test_cutting_off_a_lone_building_from_the_cathedral_captures_neither():
    # Dark's Tavern B1 cuts A1 off from the rest of the city: light's Tavern alone in one part,
    # the Cathedral alone in the other. Two pieces isolated by one move: neither is captured,
    # nothing is claimed (README, Decisions 2), and light plays on.
    state = play(game(), "cathedral H7", "stable A2 B2", "tavern A1", "tavern B1")
    assert not state.cathedral_out
    assert territory(state, DARK_SEAT) == set()
    assert state.to_decide == LIGHT_SEAT

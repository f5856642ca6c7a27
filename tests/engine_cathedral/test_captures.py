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


def _two_taverns_in_two_parts(version: str):
    """Dark's Tavern B1 closes A1 (against the Stable A2-B2) and C1 (against the Inn C2 D2 D1),
    each holding one of light's Taverns."""
    return play(
        game(version=version),
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


def test_one_building_may_capture_in_two_regions_at_once():
    # Each region the Tavern closes is judged on its own (RULINGS.md §6): one piece in each,
    # so both Taverns go back to light's hand and both squares become dark's.
    state = _two_taverns_in_two_parts("2")
    entry = view(state, None)["log"][-1]
    assert [c["cells"] for c in entry["captures"]] == [["A1"], ["C1"]]
    assert entry["text"] == (
        "Dark placed the Tavern on B1, claimed 2 squares, "
        "captured Light's Tavern (back to Light's hand) "
        "and captured Light's Tavern (back to Light's hand)"
    )
    assert territory(state, DARK_SEAT) == {"A1", "C1"}
    assert state.hands[LIGHT_SEAT][0] == 2
    assert view(state, None)["cells"][0][0] is None
    assert view(state, None)["cells"][0][2] is None


def test_version_1_captured_neither_of_two_pieces_isolated_by_one_move():
    # Version 1 read rule 5 over the whole move ("If you surround two or more buildings...
    # neither of the buildings may be removed", README, Decisions 2): both Taverns stayed and
    # neither part was claimed.
    state = _two_taverns_in_two_parts("1")
    entry = view(state, None)["log"][-1]
    assert entry["captures"] == []
    assert entry["captured"] is None
    assert territory(state, DARK_SEAT) == set()
    assert state.hands[LIGHT_SEAT][0] == 0
    assert "captured" not in entry["text"]


def test_a_region_with_two_pieces_captures_nothing_while_the_other_captures_its_one():
    # Dark's Tavern B1 closes A1-A2, with light's Stable alone in it, and C1-D1 (against the
    # Bridge C2-E2 and the Tavern E1), with light's two Taverns in it.
    state = play(
        game(),
        "cathedral H7",
        "inn A3 B3 B2",
        "stable A1 A2",
        "bridge C2 D2 E2",
        "tavern C1",
        "stable I1 J1",
        "tavern D1",
        "stable A10 B10",
        "bridge J6 J7 J8",  # in the open city, beside the Cathedral: that region holds two
        "tavern E1",
        "square D5 E5 D6 E6",
        "tavern B1",
    )
    entry = view(state, None)["log"][-1]
    assert [c["cells"] for c in entry["captures"]] == [["A1", "A2"]]
    assert territory(state, DARK_SEAT) == {"A1", "A2"}
    cells = view(state, None)["cells"]
    assert (cells[0][2]["building"], cells[0][2]["owner"]) == ("tavern", LIGHT_SEAT)
    assert (cells[0][3]["building"], cells[0][3]["owner"]) == ("tavern", LIGHT_SEAT)


def test_cutting_off_a_lone_building_from_the_cathedral_captures_both():
    # Dark's Tavern B1 cuts A1 off from the rest of the city: light's Tavern alone in one part,
    # the Cathedral alone in the other. Each region on its own (RULINGS.md §6): both are
    # captured, and the whole city but dark's buildings is dark's.
    state = play(game(), "cathedral H7", "stable A2 B2", "tavern A1", "tavern B1")
    assert state.cathedral_out
    assert len(territory(state, DARK_SEAT)) == 100 - 3
    assert state.finished or state.to_decide == DARK_SEAT  # light has nowhere to build


def test_version_1_cutting_off_a_lone_building_from_the_cathedral_captured_neither():
    # Version 1: two pieces isolated by one move, neither captured, nothing claimed (README,
    # Decisions 2), and light played on.
    state = play(game(version="1"), "cathedral H7", "stable A2 B2", "tavern A1", "tavern B1")
    assert not state.cathedral_out
    assert territory(state, DARK_SEAT) == set()
    assert state.to_decide == LIGHT_SEAT

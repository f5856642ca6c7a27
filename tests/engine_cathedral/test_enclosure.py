"""Claiming part of the city: edge-to-edge walls, never corners, never the Cathedral, never
with a first building; the territory is closed to the opponent and open to its owner."""

from __future__ import annotations

import pytest

from games.engine.cathedral import IllegalAction, legal_actions, view
from games.engine.cathedral.rules import placement_mask

from .helpers import DARK_SEAT, LIGHT_SEAT, game, play, squares, territory

# The Cathedral out of the way, at the bottom right: H6, G7 H7 I7, H8, H9.
OPENING = ("cathedral H7",)


def corner_claimed():
    """Dark walls off the top-left corner with the Stable A3-B3 and the Bridge C1-C3, edge
    to edge: A1 B1 A2 B2 become dark's."""
    return play(game(), *OPENING, "stable A3 B3", "tavern J1", "bridge C1 C2 C3")


def test_buildings_meeting_edge_to_edge_with_the_wall_enclose_a_part_of_the_city():
    state = corner_claimed()
    assert territory(state, DARK_SEAT) == {"A1", "B1", "A2", "B2"}
    assert territory(state, LIGHT_SEAT) == set()


def test_the_log_tells_how_many_squares_were_claimed():
    entry = view(corner_claimed(), LIGHT_SEAT)["log"][-1]
    assert entry["text"] == "Dark placed the Bridge on C1\u2013C3, claimed 4 squares"
    assert entry["cells"] == ["C1", "C2", "C3"]
    assert sorted(entry["claimed"]) == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert entry["captured"] is None


def test_the_view_draws_the_territory():
    seen = view(corner_claimed(), None)
    assert seen["territory"][0][:3] == [DARK_SEAT, DARK_SEAT, None]
    assert seen["territory"][1][:3] == [DARK_SEAT, DARK_SEAT, None]
    assert seen["cells"][0][2]["building"] == "bridge"
    assert seen["cells"][0][2]["owner"] == DARK_SEAT


def test_buildings_meeting_corner_to_corner_do_not_seal_note_6():
    # The Stable C1-C2 touches the Stable A3-B3 only at a corner: B2 leaks out through C3.
    state = play(game(), *OPENING, "stable A3 B3", "tavern J1", "stable C1 C2")
    assert territory(state, DARK_SEAT) == set()


def test_a_first_building_claims_nothing_for_dark():
    # The Inn and the wall close A1 off, but it is dark's first building.
    state = play(game(), *OPENING, "inn A2 B2 B1")
    assert territory(state, DARK_SEAT) == set()


def test_a_first_building_claims_nothing_for_light():
    state = play(game(), *OPENING, "tavern E5", "inn J2 I2 I1")
    assert territory(state, LIGHT_SEAT) == set()


def test_a_first_building_claims_nothing_in_tom_lehmans_opening_either():
    state = play(game(lehman=True), "inn A2 B2 B1", "cathedral H7", "inn J2 I2 I1")
    assert territory(state, DARK_SEAT) == set()
    assert territory(state, LIGHT_SEAT) == set()


def test_the_second_building_claims_as_usual():
    state = play(game(), *OPENING, "tavern E5", "tavern E1", "inn A2 B2 B1")
    assert territory(state, DARK_SEAT) == {"A1"}


def test_a_corner_closed_by_a_first_building_stays_open_to_both_players():
    # Decisions 1: the corner was closed by dark's first move, which claims nothing; a later
    # building elsewhere does not claim it either, and light may build in it safely.
    state = play(game(), *OPENING, "inn A2 B2 B1", "tavern J10", "tower E4")
    assert territory(state, DARK_SEAT) == set()
    state = play(state, "tavern A1", "castle E9")
    assert view(state, None)["cells"][0][0]["owner"] == LIGHT_SEAT


def test_the_cathedral_is_no_part_of_a_boundary_note_2():
    # The Cathedral stands on E1, D2 E2 F2, E3, E4; dark's Bridge on A2-C2 with the Cathedral
    # would close A1-D1, but the Cathedral walls nothing off: the space joins the rest of the
    # city, with light's Tavern in it, and nothing is claimed.
    state = play(game(), "cathedral E2", "tavern J10", "tavern J1", "bridge B2")
    assert territory(state, DARK_SEAT) == set()


def test_the_opponent_cannot_build_in_a_territory():
    state = corner_claimed()
    with pytest.raises(IllegalAction, match="the Tavern cannot go there: A1 is Dark's territory"):
        play(state, "tavern A1")
    corner = squares("A1 B1 A2 B2")
    assert not any(placement_mask(state, a) & corner for a in legal_actions(state))


def test_the_owner_may_build_in_its_own_territory():
    state = play(corner_claimed(), "tavern J3", "square A1")
    assert territory(state, DARK_SEAT) == set()  # built on: a building, no longer open ground
    assert view(state, None)["cells"][1][1]["building"] == "square"


def test_building_in_ones_own_territory_keeps_the_rest_of_it():
    state = play(corner_claimed(), "tavern J3", "tavern A1")
    assert territory(state, DARK_SEAT) == {"B1", "A2", "B2"}

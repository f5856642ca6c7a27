"""Passing and the end: a player who cannot place is passed; when neither can, the fewer
unplaced squares win, and equal figures are a draw."""

from __future__ import annotations

import pytest

from games.engine.cathedral import IllegalAction, legal_actions, view
from games.engine.cathedral.rules import ALL_PLACED, NO_MORE_PLACEMENTS

from .helpers import DARK_SEAT, LIGHT_SEAT, game, play, position

# Two late positions of random games of version 1 (light's Abbey the Z; light is seat 0), light
# to place.
# Light holds an Infirmary, the Castle and the Tower; only the Tower still fits (A1-C3).
TOWER_LAST = """
    ....d..II+
    ..Eddf.IA+
    .EE.dfF.AA
    bH.aafGAAL
    bHBjj.GGLL
    kHBjjcGLL.
    JJJccci#ee
    JKJgcii#.e
    +CC.Di###h
    CC..D..#hh
"""
# Light holds the Bridge, the Square and the Infirmary; only the Bridge still fits (G1-I1).
BRIDGE_LAST = """
    H.eeeh...i
    J.e.e.#.ii
    JAbb####dd
    AAAbb.#dd.
    jj.a.CLd.I
    -aaaCCLLGI
    kkag.DDLGG
    EEB.ffDGGc
    +EBB.f..cc
    EEFBBKKK.c
"""
# Each player's two Taverns in the open city.
FOUR_TAVERNS = """
    a........A
    ..........
    b........B
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
    ..........
"""
# Dark's territory on every other square: light, holding only its Infirmary, cannot place.
CHEQUERED = "\n".join(("+." * 5 if row % 2 else ".+" * 5) for row in range(10))


def light_blocked():
    """Dark to place, with its two Taverns; light holds only its Infirmary, which fits nowhere."""
    hands = {LIGHT_SEAT: {"infirmary": 1}, DARK_SEAT: {"tavern": 2}}
    return position(CHEQUERED, to_decide=DARK_SEAT, hands=hands)


def test_a_player_who_cannot_place_is_passed_and_the_other_places_again():
    state = light_blocked()
    state = play(state, "tavern A1")
    assert state.to_decide == DARK_SEAT
    entry = view(state, LIGHT_SEAT)["log"][-1]
    assert entry["kind"] == "pass"
    assert entry["player"] == LIGHT_SEAT
    assert entry["text"] == "Light cannot place: Dark goes on"
    assert entry["action"] is None


def test_a_pass_is_no_action_in_the_history():
    state = light_blocked()
    state = play(state, "tavern A1")
    assert [entry["player"] for entry in state.history] == [DARK_SEAT]
    assert view(state, None)["seq"] == 1


def test_a_player_who_placed_every_building_is_passed_while_the_other_places_on():
    state = position(
        FOUR_TAVERNS,
        to_decide=LIGHT_SEAT,
        hands={LIGHT_SEAT: {"stable": 1}, DARK_SEAT: {"stable": 1, "bridge": 1}},
    )
    state = play(state, "stable E5 F5", "stable E7 F7")
    assert state.to_decide == DARK_SEAT
    assert view(state, None)["log"][-1]["text"] == "Light has placed every building: Dark goes on"


def test_a_player_who_placed_every_building_wins_when_the_other_cannot():
    state = light_blocked()
    state = play(state, "tavern A1", "tavern C1")
    assert state.finished
    assert state.outcome.termination == ALL_PLACED
    assert state.outcome.winners == (DARK_SEAT,)
    assert state.outcome.scores == (5, 0)


def test_when_neither_can_place_the_fewer_unplaced_squares_win():
    state = position(TOWER_LAST, to_decide=LIGHT_SEAT, version="1")
    assert len(legal_actions(state)) == 1
    state = play(state, "tower B2 1")
    assert state.finished
    assert state.to_decide is None
    assert state.outcome.termination == NO_MORE_PLACEMENTS
    # light still holds an Infirmary and the Castle, dark its Square and an Infirmary
    assert state.outcome.scores == (5 + 5, 4 + 5)
    assert state.outcome.winners == (DARK_SEAT,)


def test_equal_unplaced_squares_are_a_draw():
    state = play(position(BRIDGE_LAST, to_decide=LIGHT_SEAT, version="1"), "bridge G1 H1 I1")
    assert state.finished
    assert state.outcome.scores == (9, 9)
    assert state.outcome.winners == (LIGHT_SEAT, DARK_SEAT)


def test_the_view_of_a_finished_game_names_the_winners():
    seen = view(play(position(TOWER_LAST, to_decide=LIGHT_SEAT, version="1"), "tower B2 1"), None)
    assert seen["finished"] is True
    assert seen["to_decide"] is None
    assert seen["winners"] == [DARK_SEAT]
    assert seen["termination"] == NO_MORE_PLACEMENTS
    assert seen["scores"] == [10, 9]


def test_a_finished_game_takes_no_more_placements():
    state = play(position(TOWER_LAST, to_decide=LIGHT_SEAT, version="1"), "tower B2 1")
    assert legal_actions(state) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        play(state, "tavern D1")


def test_returns_are_the_unplaced_squares_so_far():
    state = game()
    assert state.returns() == (47, 47)
    state = play(state, "cathedral E5", "tower A1 A2 B2 B3 C3", "bridge J2 1")
    assert state.returns() == (47 - 3, 47 - 5)

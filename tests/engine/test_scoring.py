"""Scoring the cathedral: areas, majorities, ranks, stained glass and altars, Jester colours."""

from __future__ import annotations

from games.engine.basilica import score_cathedral, view
from games.engine.basilica.components import ARCHITECT, JESTER, MASON, STRONGMAN

from .helpers import game, put, scaffold

WHITE, BLACK = 0, 1


def score(state, jesters=None):
    return score_cathedral(view(state, None)["cathedral"], jesters)


def areas_by_colour(report) -> dict[str, list[set]]:
    found: dict[str, list[set]] = {}
    for area in report.areas:
        found.setdefault(area.color, []).append(set(area.cells))
    return found


def test_the_rulebooks_wild_tile_example():
    """Green A 2 spaces, blue B 5 (with wilds D and E), red C 1; wild F is in no area."""
    state = game()
    put(state, (0, 0), "G")  # A
    put(state, (1, 0), "GB", builder=WHITE)  # D: green and blue
    put(state, (2, 0), "B")
    put(state, (3, 0), "BY")  # E: joins the two blue parts; no yellow area of its own
    put(state, (4, 0), "B")
    put(state, (4, 1), "B")
    put(state, (3, 1), "R", builder=BLACK)  # C: E touches it but is not red
    put(state, (3, 2), "GY", builder=BLACK)  # F: touches no green or yellow tile
    report = score(state)
    assert areas_by_colour(report) == {
        "G": [{(0, 0), (1, 0)}],
        "B": [{(1, 0), (2, 0), (3, 0), (4, 0), (4, 1)}],
        "R": [{(3, 1)}],
    }
    # White's one builder on D counts in green (2 tiles) and blue (5 tiles).
    assert report.points == (2 + 5, 1)


def test_the_rulebooks_architect_mason_and_glass_example():
    """(4 x 2) + 2 = 10 for blue, 2 x 2 = 4 for yellow."""
    state = game()
    put(state, (0, 0), "Y", builder=WHITE)
    put(state, (1, 0), "YB", builder=WHITE, rank=ARCHITECT)  # in both areas
    put(state, (2, 0), "B", builder=BLACK, rank=MASON, glass=True)
    put(state, (2, 1), "B")
    put(state, (3, 0), "B")
    report = score(state)
    by_colour = {a.color: a for a in report.areas}
    assert by_colour["Y"].value == 2 * 2
    assert by_colour["Y"].winner == WHITE
    assert by_colour["B"].value == (4 * 2) + 2
    assert by_colour["B"].winner == BLACK
    # White is the minority in blue with one builder: 1 point.
    assert report.points == (4 + 1, 10)


def test_the_majority_takes_the_tiles_and_the_minority_one_per_builder():
    state = game()
    for col in range(5):
        put(state, (col, 0), "R", builder=WHITE if col < 3 else BLACK)
    report = score(state)
    assert report.points == (5, 2)


def test_a_master_mason_counts_two_for_the_majority_but_one_for_the_minority():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=MASON)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (2, 0), "R", builder=BLACK)
    put(state, (3, 0), "R", builder=BLACK)
    put(state, (4, 0), "R")
    (area,) = score(state).areas
    assert area.strength == (2, 3)
    assert area.points == (1, 5)
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=MASON)
    put(state, (1, 0), "R", builder=WHITE)
    put(state, (2, 0), "R", builder=BLACK)
    put(state, (3, 0), "R", builder=BLACK)
    put(state, (4, 0), "R", builder=BLACK, rank=MASON)
    (area,) = score(state).areas
    assert area.winner == BLACK
    assert area.points == (2, 5)


def test_a_tie_scores_nothing():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (2, 0), "R")
    (area,) = score(state).areas
    assert area.winner is None
    assert area.points == (0, 0)


def test_a_strongman_breaks_a_tie():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R", builder=BLACK, rank=STRONGMAN)
    put(state, (2, 0), "R")
    (area,) = score(state).areas
    assert area.winner == BLACK
    assert area.points == (1, 3)


def test_two_strongmen_cancel_out():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=STRONGMAN)
    put(state, (1, 0), "R", builder=BLACK, rank=STRONGMAN)
    (area,) = score(state).areas
    assert area.points == (0, 0)


def test_a_strongman_does_not_beat_a_real_majority():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=STRONGMAN)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (2, 0), "R", builder=BLACK)
    (area,) = score(state).areas
    assert area.winner == BLACK


def test_an_architect_doubles_the_area_for_whoever_holds_the_majority():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=ARCHITECT)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (2, 0), "R", builder=BLACK)
    (area,) = score(state).areas
    assert area.points == (1, 6)


def test_several_architects_double_only_once():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=ARCHITECT)
    put(state, (1, 0), "R", builder=WHITE, rank=ARCHITECT)
    put(state, (2, 0), "R", builder=BLACK, rank=ARCHITECT)
    (area,) = score(state).areas
    assert area.points == (6, 1)


def test_stained_glass_adds_two_after_doubling_and_four_with_an_altar():
    state = game(expansion=True)
    put(state, (0, 0), "R", builder=WHITE, rank=ARCHITECT, glass=True)
    put(state, (1, 0), "R", glass=True, altar=True)
    put(state, (2, 0), "R", altar=True)  # an altar without glass adds nothing
    (area,) = score(state).areas
    assert area.glass == 2 + 4
    assert area.value == 3 * 2 + 2 + 4


def test_an_area_with_no_builders_scores_nothing():
    state = game()
    put(state, (0, 0), "R", glass=True)
    put(state, (1, 0), "R")
    put(state, (3, 0), "B", builder=WHITE)
    report = score(state)
    assert [a.color for a in report.areas] == ["B"]
    assert report.points == (1, 0)


def test_areas_of_one_colour_touching_diagonally_are_separate():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B")
    put(state, (1, 1), "R", builder=BLACK)
    put(state, (0, 1), "B")
    assert score(state).points == (1, 1)


def test_a_lone_wild_tile_is_not_an_area():
    state = game()
    put(state, (0, 0), "RB", builder=WHITE)
    put(state, (1, 0), "Y")
    assert score(state).areas == []


def test_a_lone_single_colour_tile_is_an_area():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    assert score(state).points == (1, 0)


def test_scaffolding_belongs_to_no_area_and_splits_areas():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    scaffold(state, (1, 0))
    put(state, (2, 0), "R", builder=BLACK)
    put(state, (3, 0), "R")
    assert score(state).points == (1, 2)


def test_a_wild_tile_never_joins_two_colours():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "RB")
    put(state, (2, 0), "B", builder=BLACK)
    report = score(state)
    assert areas_by_colour(report) == {"B": [{(1, 0), (2, 0)}], "R": [{(0, 0), (1, 0)}]}
    assert report.points == (2, 2)


def test_a_builder_on_a_wild_tile_counts_in_both_areas():
    state = game()
    put(state, (0, 0), "R")
    put(state, (1, 0), "RB", builder=WHITE, glass=True)
    put(state, (2, 0), "B")
    assert score(state).points == ((2 + 2) + (2 + 2), 0)


# -- Jester colours (2022) ---------------------------------------------------------------------


def test_a_jester_gives_its_tile_an_extra_colour_for_the_scoring():
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=JESTER)
    put(state, (0, 1), "R", builder=WHITE)
    put(state, (1, 0), "B")
    put(state, (2, 0), "B")
    assert score(state).points == (2, 0)
    report = score(state, {"0,0": "B"})
    assert areas_by_colour(report) == {"B": [{(0, 0), (1, 0), (2, 0)}], "R": [{(0, 0), (0, 1)}]}
    assert report.points == (2 + 3, 0)


def test_a_jester_can_make_a_wild_tile_three_coloured():
    state = game()
    put(state, (0, 0), "RB", builder=WHITE, rank=JESTER)
    put(state, (1, 0), "Y")
    assert score(state).areas == []
    report = score(state, {"0,0": "Y"})
    assert areas_by_colour(report) == {"Y": [{(0, 0), (1, 0)}]}
    assert report.points == (2, 0)


def test_a_jester_making_a_lone_wild_tile_scores_nothing():
    """A red tile alone is a red area; with a Jester's blue it is a lone wild tile, no area."""
    state = game()
    put(state, (0, 0), "R", builder=WHITE, rank=JESTER)
    put(state, (1, 0), "Y")
    assert score(state).points == (1, 0)
    assert score(state, {"0,0": "B"}).areas == []

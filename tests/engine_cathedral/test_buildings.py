"""The buildings of the box: shapes, squares, copies, turns, and the two mirrored pairs."""

from __future__ import annotations

import json

import pytest

from games.engine.cathedral import BUILDINGS, cell_label, parse_label
from games.engine.cathedral.buildings import (
    CATHEDRAL,
    COPIES,
    DARK,
    KEYS,
    LIGHT,
    PLACEMENTS,
    SQUARES,
    orientations,
)


def normal(offsets) -> frozenset:
    """The shape without its position: shifted to its top-left corner."""
    low_c = min(c for c, _ in offsets)
    low_r = min(r for _, r in offsets)
    return frozenset((c - low_c, r - low_r) for c, r in offsets)


def turned(shape) -> frozenset:
    return normal([(-r, c) for c, r in shape])


def mirrored(shape) -> frozenset:
    return normal([(-c, r) for c, r in shape])


def rotations(shape) -> set[frozenset]:
    found = set()
    for _ in range(4):
        found.add(shape)
        shape = turned(shape)
    return found


def neighbour_counts(shape) -> list[int]:
    return sorted(
        sum((c + dc, r + dr) in shape for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))
        for c, r in shape
    )


def box(shape) -> tuple[int, int]:
    """Width and height, the longer first."""
    w = max(c for c, _ in shape) + 1
    h = max(r for _, r in shape) + 1
    return (max(w, h), min(w, h))


def shape(key: str, colour: str = DARK) -> frozenset:
    return normal(orientations(key, colour)[0])


def test_each_side_has_fourteen_buildings_of_47_squares_and_with_the_cathedral_they_fill_the_city():
    assert sum(COPIES[key] for key in KEYS) == 14
    assert sum(SQUARES[key] * COPIES[key] for key in KEYS) == 47
    assert SQUARES[CATHEDRAL] == 6
    assert 47 + 47 + 6 == 100


def test_three_buildings_come_in_two_copies():
    assert {key for key in KEYS if COPIES[key] == 2} == {"tavern", "stable", "inn"}


@pytest.mark.parametrize(
    ("key", "squares", "box_", "neighbours"),
    [
        ("tavern", 1, (1, 1), [0]),
        ("stable", 2, (2, 1), [1, 1]),
        ("inn", 3, (2, 2), [1, 1, 2]),  # an L
        ("bridge", 3, (3, 1), [1, 1, 2]),  # straight
        ("square", 4, (2, 2), [2, 2, 2, 2]),
        ("manor", 4, (3, 2), [1, 1, 1, 3]),  # a T
        ("abbey", 4, (3, 2), [1, 1, 2, 2]),  # an S or Z
        ("infirmary", 5, (3, 3), [1, 1, 1, 1, 4]),  # a plus
        ("castle", 5, (3, 2), [1, 1, 2, 2, 2]),  # a U
        ("tower", 5, (3, 3), [1, 1, 2, 2, 2]),  # a W, a staircase
        ("academy", 5, (3, 3), [1, 1, 1, 2, 3]),  # an F
        ("cathedral", 6, (4, 3), [1, 1, 1, 1, 2, 4]),  # a plus with one arm two long
    ],
)
def test_every_building_has_its_shape(key, squares, box_, neighbours):
    for colour in (LIGHT, DARK):
        assert len(shape(key, colour)) == squares == SQUARES[key]
        assert box(shape(key, colour)) == box_
        assert neighbour_counts(shape(key, colour)) == neighbours


def test_the_cathedrals_long_arm_is_the_one_two_squares_long():
    cross = shape(CATHEDRAL)
    hub = next(square for square in cross if _degree(cross, square) == 4)
    arms = sorted(abs(c - hub[0]) + abs(r - hub[1]) for c, r in cross if (c, r) != hub)
    assert arms == [1, 1, 1, 1, 2]


def _degree(shape_, square) -> int:
    c, r = square
    return sum((c + dc, r + dr) in shape_ for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)))


@pytest.mark.parametrize(
    ("key", "count"),
    [
        ("tavern", 1),
        ("square", 1),
        ("infirmary", 1),
        ("stable", 2),
        ("bridge", 2),
        ("abbey", 2),
        ("inn", 4),
        ("manor", 4),
        ("castle", 4),
        ("tower", 4),
        ("academy", 4),
        ("cathedral", 4),
    ],
)
def test_only_distinct_orientations_are_offered(key, count):
    for colour in (LIGHT, DARK):
        turns = orientations(key, colour)
        assert len(turns) == count
        assert len({normal(o) for o in turns}) == count  # no two alike up to a shift


@pytest.mark.parametrize("key", [*KEYS, CATHEDRAL])
def test_each_turn_is_a_quarter_turn_clockwise_about_the_pivot_never_a_flip(key):
    for colour in (LIGHT, DARK):
        turns = orientations(key, colour)
        for t, offsets in enumerate(turns):
            assert (0, 0) in offsets  # the pivot stays under the player's finger
            assert set(offsets) == _quarter_turns(turns[0], t)


def _quarter_turns(offsets, times):
    cells = set(offsets)
    for _ in range(times):
        cells = {(-r, c) for c, r in cells}  # clockwise, rows growing downwards
    return cells


def test_a_quarter_turn_is_clockwise_on_the_board():
    bridge = orientations("bridge", DARK)
    assert set(bridge[0]) == {(-1, 0), (0, 0), (1, 0)}  # lying along the row
    assert set(bridge[1]) == {(0, -1), (0, 0), (0, 1)}  # standing up
    manor = orientations("manor", DARK)
    assert (0, 1) in manor[0]  # the T's foot points down at turn 0...
    assert (-1, 0) in manor[1]  # ...and left after a clockwise turn
    assert (1, 0) not in manor[1]


@pytest.mark.parametrize("key", ["abbey", "academy"])
def test_light_holds_the_mirror_image_of_darks_abbey_and_academy(key):
    assert shape(key, LIGHT) == mirrored(shape(key, DARK))
    assert shape(key, LIGHT) not in rotations(shape(key, DARK))


def drawn(key: str, colour: str, version: str = "2") -> list[str]:
    """The building at turn 0, drawn row by row from the top ("#" a square)."""
    cells = normal(orientations(key, colour, version)[0])
    width = max(c for c, _ in cells) + 1
    height = max(r for _, r in cells) + 1
    return ["".join("#" if (c, r) in cells else "." for c in range(width)) for r in range(height)]


def test_darks_abbey_is_the_z_and_lights_the_s():
    assert drawn("abbey", DARK) == ["##.", ".##"]
    assert drawn("abbey", LIGHT) == [".##", "##."]


def test_darks_academy_is_the_f_and_lights_its_mirror_image():
    assert drawn("academy", DARK) == [".##", "##.", ".#."]
    assert drawn("academy", LIGHT) == ["##.", ".##", ".#."]


def test_version_1_gave_dark_the_s_shaped_abbey_and_the_same_academies():
    assert drawn("abbey", DARK, "1") == [".##", "##."]
    assert drawn("abbey", LIGHT, "1") == ["##.", ".##"]
    for colour in (LIGHT, DARK):
        assert drawn("academy", colour, "1") == drawn("academy", colour)
    for key in [k for k in (*KEYS, CATHEDRAL) if k != "abbey"]:
        for colour in (LIGHT, DARK):
            assert orientations(key, colour, "1") == orientations(key, colour)


@pytest.mark.parametrize("key", [k for k in KEYS if k not in ("abbey", "academy")])
def test_every_other_building_is_the_same_for_both_colours(key):
    assert orientations(key, LIGHT) == orientations(key, DARK)
    # and turning it can give its mirror image, so no player is missing an orientation
    assert mirrored(shape(key)) in rotations(shape(key))


def test_placements_cover_every_square_the_building_fits_on():
    tower = PLACEMENTS[DARK]["tower"][0]
    assert tower.anchors.bit_count() == 8 * 8  # a 3x3 box fits with its centre off the rim
    assert PLACEMENTS[DARK]["tavern"][0].anchors.bit_count() == 100


def test_the_building_data_for_the_site_is_json_and_names_every_orientation():
    data = json.loads(json.dumps(BUILDINGS))
    assert set(data) == {*KEYS, CATHEDRAL}
    assert data["tower"] == {
        "name": "Tower",
        "squares": 5,
        "count": 1,
        "sides": {
            "light": [[list(o) for o in t] for t in orientations("tower", LIGHT)],
            "dark": [[list(o) for o in t] for t in orientations("tower", DARK)],
        },
    }
    assert set(data[CATHEDRAL]["sides"]) == {"light"}  # light places it
    assert data["abbey"]["sides"]["light"] != data["abbey"]["sides"]["dark"]
    for entry in data.values():
        for turns in entry["sides"].values():
            assert all([0, 0] in cells for cells in turns)
            assert all(len(cells) == entry["squares"] for cells in turns)


def test_squares_are_named_by_column_letter_and_row_number_from_the_top_left():
    assert cell_label(0, 0) == "A1"
    assert cell_label(3, 3) == "D4"
    assert cell_label(9, 9) == "J10"
    assert parse_label("J10") == (9, 9)
    assert parse_label("d4") == (3, 3)
    with pytest.raises(ValueError):
        parse_label("K1")
    with pytest.raises(ValueError):
        parse_label("A11")

"""A cell of the cathedral in its two notations: the key "col,row" of the state and the view,
and the label "c{col}r{row}" players read. Each reads back as the cell it was written from."""

from __future__ import annotations

import pytest

from games.engine.basilica import MalformedAction, cell_key, cell_label, parse_key, parse_label

CELLS = [(0, 0), (4, 0), (2, 1), (0, 12), (3, 1023)]


@pytest.mark.parametrize("cell", CELLS)
def test_a_cell_reads_back_from_its_key_and_from_its_label(cell):
    assert parse_key(cell_key(*cell)) == cell
    assert parse_label(cell_label(*cell)) == cell


def test_a_key_is_col_comma_row_and_a_label_names_column_then_row():
    assert cell_key(2, 1) == "2,1"
    assert cell_label(2, 1) == "c2r1"
    assert parse_key("4,10") == (4, 10)
    assert parse_label("c4r10") == (4, 10)


@pytest.mark.parametrize(
    "key",
    ["", "2", "2,", ",1", "2,1,0", "2;1", " 2,1", "2, 1", "-1,0", "02,1", "2,01", "5,0", "a,b"],
)
def test_a_malformed_key_names_no_cell(key):
    with pytest.raises(MalformedAction, match="no such cell"):
        parse_key(key)


@pytest.mark.parametrize("label", ["", "c2", "r1", "2,1", "C2R1", "c2r1 ", "c-1r0", "c5r0", "c2r"])
def test_a_malformed_label_names_no_cell(label):
    with pytest.raises(MalformedAction, match="no such cell"):
        parse_label(label)


def test_a_key_that_is_not_text_names_no_cell():
    with pytest.raises(MalformedAction, match="no such cell"):
        parse_key((2, 1))

"""The words of help against the engine's facts: every order and rank explained, paid orders
said to be paid, each edition's monarch and ranks, the expansion's altars; and every picture of
the rules page played through the engine."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template

from games.engine.basilica import Action, Options, apply_action, legal_actions, new_game, view
from games.engine.basilica.components import (
    ALTAR,
    EDITIONS,
    ORDER_NAMES,
    ORDERS,
    PAID_ORDERS,
    RANK_NAMES,
)
from games.engine.basilica.state import Cell
from games.kinds.basilica import diagrams
from games.kinds.basilica import help as words

EDITION_LIST = list(EDITIONS)


# -- orders ------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITION_LIST)
@pytest.mark.parametrize("order", ORDERS)
def test_every_order_says_what_it_does_and_costs(order, edition):
    text = words.order_help(order, edition)
    assert words.order_does(order, edition) in text
    assert "one of your three actions" in text
    entry = words.order_entry(order, edition)
    assert entry["name"] == ORDER_NAMES[order]
    assert entry["does"]
    assert entry["cost"]


@pytest.mark.parametrize("order", ORDERS)
def test_only_the_paid_orders_speak_of_a_coin(order):
    text = words.order_help(order, "2022")
    if order in PAID_ORDERS:
        assert "Paid order (on tiles with a coin box" in text
        assert "pay you 1 coin" in text
        assert "costs them no action" in text
        assert words.order_entry(order)["paid"]
    else:
        assert "coin" not in text
        assert words.order_entry(order)["paid"] == ""


@pytest.mark.parametrize("order", PAID_ORDERS)
def test_a_tile_without_a_coin_box_offers_no_paid_order(order):
    assert "coin" not in words.order_help(order, "2022", paid=False)
    assert "this tile's coin box" in words.order_help(order, "2022", paid=True)


def test_the_paid_orders_are_those_of_the_rulebooks():
    assert "rank other than the one you just chose" in words.paid_does("promote")
    assert "next to a vault where they already have one" in words.paid_does("recruit")
    assert "cannot refuse the move" in words.paid_does("confuse")


@pytest.mark.parametrize("edition", EDITION_LIST)
def test_promote_offers_exactly_the_ranks_of_the_edition(edition):
    text = words.order_help("promote", edition)
    for rank, name in RANK_NAMES.items():
        assert (name in text) == (rank in EDITIONS[edition]["ranks"])


def test_the_altar_is_the_expansions_and_changes_confuse_disaster_and_glass():
    assert "Festum Fatuorum" in words.order_help(ALTAR, "2010")
    assert ALTAR not in words.orders(expansion=False)
    assert words.orders(expansion=True) == ORDERS
    for order in ("confuse", "disaster", "glass"):
        assert "altar" not in words.order_help(order, "2022", expansion=False)
        assert "altar" in words.order_help(order, "2022", expansion=True)


@pytest.mark.parametrize("order", ORDERS)
def test_each_order_is_told_by_the_rules_version_of_the_game(order):
    today, earlier = (words.order_help(order, "2022", True, version=v) for v in ("2", "1"))
    assert today == words.order_help(order, "2022", True)  # the current rules unless said
    if order == ALTAR:
        assert "the second is not optional" in today
        assert "if you wish, a second altar" in earlier
    elif order == "confuse":
        assert "before your own builder leaves" in today
        assert "once your own builder has left" in earlier
    else:
        assert today == earlier


def test_an_unknown_order_or_edition_is_refused():
    with pytest.raises(ValueError):
        words.order_help("pray", "2022")
    with pytest.raises(ValueError):
        words.order_help("promote", "1999")


# -- ranks, vaults, the track -------------------------------------------------------------------


@pytest.mark.parametrize("edition", EDITION_LIST)
def test_every_rank_of_the_edition_is_explained(edition):
    for rank in EDITIONS[edition]["ranks"]:
        assert words.rank_help(rank, edition)


def test_the_2010_edition_has_no_jester():
    with pytest.raises(ValueError, match="no Jester"):
        words.rank_help("jester", "2010")
    assert "secret" in words.rank_help("jester", "2022")


def test_the_ranks_say_what_the_scoring_does():
    assert "twice" in words.rank_help("architect")
    assert "two builders for the majority" in words.rank_help("mason")
    assert "as one builder when the minority" in words.rank_help("mason")
    assert "tied majority" in words.rank_help("strongman")
    assert "cancel out" in words.rank_help("strongman")


def test_a_vault_says_its_colours_and_its_crown_moves_the_monarch():
    assert words.vault_help("R") == "A red vault."
    assert "wild yellow and blue vault" in words.vault_help("YB")
    assert "another wild vault" in words.vault_help("YB")
    assert "moves the king" in words.vault_help("G", crown=True, edition="2010")
    assert "moves the queen" in words.vault_help("G", crown=True, edition="2022")


def test_the_track_caption_names_the_monarch_and_the_crown_spaces():
    assert words.track_caption("2010", (10, 20, 30)).startswith("The king's track.")
    caption = words.track_caption("2022", [8, 16])
    assert "queen" in caption
    assert "(8, 16)" in caption
    assert "king" not in caption


def test_the_place_actions_cost_one_action_each():
    assert "Costs one action" in words.action_help("vault")
    assert "only right after Place Vault" in words.action_help("builder")


# -- the legend ---------------------------------------------------------------------------------


def names_in(entries) -> set[str]:
    return {e["name"] for e in entries}


@pytest.mark.parametrize("edition", EDITION_LIST)
@pytest.mark.parametrize("expansion", [False, True])
def test_the_legend_explains_every_symbol_of_the_edition(edition, expansion):
    entries = words.legend(edition, expansion)
    keys = [e["key"] for e in entries]
    assert len(keys) == len(set(keys))
    assert all(re.fullmatch(r"[a-z-]+", k) for k in keys)
    assert all(e["symbol"] and e["name"] and e["text"] for e in entries)
    ranks = {RANK_NAMES[r] for r in EDITIONS[edition]["ranks"]}
    assert ranks <= names_in(entries)
    assert ("Jester" in names_in(entries)) == (edition == "2022")
    assert ("Altar" in names_in(entries)) == expansion
    for symbol in ("♔", "◈", "▦", "♚", "¢"):
        assert symbol in {e["symbol"] for e in entries}
    monarch = EDITIONS[edition]["monarch"]
    other = "queen" if monarch == "king" else "king"
    text = " ".join(e["name"] + " " + e["text"] for e in entries)
    assert monarch in text
    assert other not in text


def test_the_rank_letters_are_those_on_the_pawns():
    entries = {e["key"]: e for e in words.legend("2022")}
    assert [entries[f"rank-{r}"]["symbol"] for r in EDITIONS["2022"]["ranks"]] == list("AMSJ")


def test_the_legend_partial_works_without_javascript_and_escapes():
    html = Template("{% load basilica_help %}{% symbol_legend '2010' True %}").render(Context())
    assert html.count("<details") == 1
    assert "<summary>Symbols</summary>" in html
    assert 'id="help-rank-strongman"' in html
    assert 'id="help-altar"' in html
    assert "help-rank-jester" not in html
    assert "<script" not in html


def test_the_tooltip_tags_give_the_help_texts():
    html = Template(
        "{% load basilica_help %}<b title=\"{% order_help 'recruit' '2010' False True %}\">"
        "</b><i title=\"{% rank_help 'jester' %}\"></i>"
    ).render(Context())
    assert "this tile&#x27;s coin box" in html
    assert "secret" in html


# -- the pictures of the rules page, played through the engine ---------------------------------


def position(rows: tuple[str, ...], order: str) -> tuple:
    """A new game whose cathedral is the diagram and whose market offers ``order`` (no coin
    box), player 1 (the engine's player 0) to act. Every tile comes out of the stack."""
    state = new_game(Options(expansion=True), seed=5)
    tiles = state.tiles

    def take(match) -> int:
        tile = next(t for t in state.stack if match(tiles[t]))
        state.stack.remove(tile)
        return tile

    order_tile = take(lambda t: t.order == order and not t.paid)
    state.stack.insert(0, state.market_orders[0])
    state.market_orders[0] = order_tile
    for cell in diagrams.cells(rows):
        pos = (cell["col"], cell["row"])
        if cell["scaffold"]:
            state.cells[pos] = Cell(None)
            continue
        builder = cell["builder"]
        state.cells[pos] = Cell(
            take(lambda t, c=cell: t.colors == c["colors"]),
            builder and builder["player"],
            builder and builder["rank"],
            cell["glass"],
            cell["altar"],
        )
        if builder:
            state.players[builder["player"]].builders -= 1
            state.players[builder["player"]].tokens -= bool(builder["rank"])
        state.altars_left -= cell["altar"]
    return state, order_tile


def comparable(cells: list[dict]) -> list[tuple]:
    return sorted(
        (c["col"], c["row"], c["colors"], c["scaffold"], c["builder"], c["glass"], c["altar"])
        for c in cells
    )


@pytest.mark.parametrize("order", ORDERS)
def test_each_order_picture_is_a_legal_move_that_leads_to_its_after(order):
    diagram = diagrams.ORDER_DIAGRAMS[order]
    state, tile = position(diagram.before, order)
    assert comparable(view(state, None)["cathedral"]) == comparable(diagrams.cells(diagram.before))
    for number, step in enumerate(diagram.steps):
        action = Action.from_json({**step, "tile": tile} if number == 0 else step)
        assert action in legal_actions(state), step
        state = apply_action(state, action)
    assert state.decision["kind"] == "main"  # the order is done, follow-ups and all
    assert comparable(view(state, None)["cathedral"]) == comparable(diagrams.cells(diagram.after))


def test_every_order_has_a_picture_with_its_changes_marked():
    pictures = {p["order"]: p for p in diagrams.order_pictures("2022")}
    assert list(pictures) == list(ORDERS)
    for picture in pictures.values():
        changed = [c for row in picture["after"] for c in row if c["changed"]]
        assert changed, picture["order"]
        assert not any(c["changed"] for row in picture["before"] for c in row)


def test_a_diagram_cell_reads_as_a_view_cell():
    cell = diagrams.parse_cell("YB^2A*+", 3, 1)
    assert cell["colors"] == "YB"
    assert (cell["crown"], cell["glass"], cell["altar"]) == (True, True, True)
    assert cell["builder"] == {"player": 1, "rank": "architect"}
    assert diagrams.cell_label(cell) == (
        "wild yellow and blue vault, crowned, Architect, builder of player 2, stained glass, altar"
    )
    assert diagrams.parse_cell(".", 0, 0) is None
    assert diagrams.parse_cell("#", 0, 0)["scaffold"]
    with pytest.raises(ValueError):
        diagrams.parse_cell("X1", 0, 0)


# -- scoring in words -----------------------------------------------------------------------------


def test_the_worked_example_scores_as_the_rulebook_says():
    example = diagrams.scoring_example()
    by_color = {a["color"]: a for a in example["areas"]}
    # Yellow: 5 tiles (the wild one too), 2 builders to 1, an Architect, one window: 5*2+2.
    assert by_color["Y"]["points"] == [12, 1]
    # Blue: 3 tiles (with the wild one), 1 to 1, player 1's Strongman wins the tie.
    assert by_color["B"]["points"] == [3, 1]
    # Red: player 2's three builders beat a Master Mason (2); the Mason scores 1 in minority.
    assert by_color["R"]["points"] == [1, 4]
    assert by_color["G"]["points"] == [0, 2]
    assert example["points"] == [16, 8]
    assert (
        "takes 12 (5 tiles, doubled by an Architect, plus 2 for stained glass)"
        in (by_color["Y"]["words"])
    )
    assert "wins the tie with a Strongman" in by_color["B"]["words"]
    assert "a Master Mason counts as one here" in by_color["R"]["words"]


def test_a_tie_without_a_strongman_is_said_to_score_nothing():
    area = {
        "color": "R",
        "cells": [[0, 0], [1, 0]],
        "strength": [1, 1],
        "builders": [1, 1],
        "architect": False,
        "glass": 0,
        "value": 2,
        "winner": None,
        "points": [0, 0],
    }
    assert words.area_explained(area, ["ann", "bob"]) == (
        "Red area of 2 tiles, strength 1 to 1: a tie, so nobody scores it."
    )

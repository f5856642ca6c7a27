"""A turn: three actions, no passing; Place Vault and Place Builder; the market and its refills."""

from __future__ import annotations

import pytest

from games.engine.basilica import IllegalAction, legal_actions, view
from games.engine.basilica.components import DISASTER, GLASS, MOVE, SCAFFOLD

from .helpers import act, events, game, kinds, offer_only, offer_vault, put, scaffold, seen


def test_a_turn_is_three_actions_then_the_opponent_plays():
    state = game()
    (red, blue, _yellow), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    state = act(state, "vault", red, at=(0, 0))
    assert view(state, 0)["actions_left"] == 2
    state = act(state, "vault", blue, at=(1, 0))
    blue_again = state.market_vaults[0]  # the order above the red slid down
    state = act(state, "vault", blue_again, at=(2, 0))
    shown = view(state, 1)
    assert shown["active_player"] == 1
    assert shown["actions_left"] == 3
    assert shown["turn"] == 2


def test_there_is_no_passing():
    state = game()
    assert "pass" not in kinds(legal_actions(state))
    with pytest.raises(IllegalAction, match="unknown action type"):
        act(state, "pass")


def test_place_builder_follows_place_vault_on_that_vault():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    assert "builder" not in kinds(legal_actions(state))
    state = act(state, "vault", red, at=(2, 0))
    assert "builder" in kinds(legal_actions(state))
    state = act(state, "builder")
    assert seen(state, (2, 0))["builder"] == {"player": 0, "rank": None}
    assert view(state, 0)["players"][0]["builders"] == 4


def test_place_builder_is_refused_when_not_right_after_place_vault():
    state = game()
    (red, _, _), (_, _, glass) = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, GLASS])
    put(state, (0, 0), "B", builder=0)
    state = act(state, "vault", red, at=(1, 0))
    state = act(state, "glass", glass, at=(0, 0))
    with pytest.raises(IllegalAction, match="only possible immediately after Place Vault"):
        act(state, "builder")


def test_place_builder_needs_a_builder_in_supply():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    for col in range(5):
        put(state, (col, 0), "G", builder=0)
    assert state.players[0].builders == 0
    state = act(state, "vault", red, at=(0, 1))
    assert "builder" not in kinds(legal_actions(state))
    with pytest.raises(IllegalAction, match="no builder left in your supply"):
        act(state, "builder")


def test_a_vault_goes_on_row_0_or_next_to_a_vault_or_scaffold():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    put(state, (0, 0), "G")
    scaffold(state, (4, 0))
    cells = {a.at for a in legal_actions(state) if a.kind == "vault" and a.tile == red}
    assert cells == {(1, 0), (2, 0), (3, 0), (0, 1), (4, 1)}
    with pytest.raises(IllegalAction, match="starting slot of row 0 or next to a vault"):
        act(state, "vault", red, at=(2, 1))


def test_the_cathedral_is_five_columns_wide():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    put(state, (4, 0), "G")
    with pytest.raises(IllegalAction, match="five columns wide"):
        act(state, "vault", red, at=(5, 0))
    with pytest.raises(IllegalAction, match="five columns wide"):
        act(state, "vault", red, at=(0, -1))


def test_a_vault_cannot_go_on_a_built_cell():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    put(state, (2, 0), "G")
    with pytest.raises(IllegalAction, match="already built on"):
        act(state, "vault", red, at=(2, 0))


def test_a_wild_vault_may_not_touch_another_wild_vault():
    state = game()
    (wild, _, _), _ = offer_only(state, ["RB", "B", "Y"], [MOVE, MOVE, MOVE])
    put(state, (1, 0), "GY")
    put(state, (3, 0), "G")
    cells = {a.at for a in legal_actions(state) if a.tile == wild}
    assert cells == {(4, 0), (3, 1)}
    with pytest.raises(IllegalAction, match="wild vault may not be adjacent to another wild"):
        act(state, "vault", wild, at=(2, 0))
    # A single-colour vault may go there.
    assert act(state, "vault", state.market_vaults[1], at=(2, 0)).cells[(2, 0)]


def test_a_vault_not_on_offer_is_refused():
    state = game()
    offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    elsewhere = state.stack[0]
    with pytest.raises(IllegalAction, match="not on offer"):
        act(state, "vault", elsewhere, at=(0, 0))


def test_taking_a_vault_slides_the_order_above_down_and_draws_a_new_order():
    state = game()
    (_, blue, _), (_, above, _) = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    top_of_stack = state.stack[-1]
    state = act(state, "vault", blue, at=(0, 0))
    assert state.market_vaults[1] == above
    assert state.market_orders[1] == top_of_stack
    market = view(state, 0)["market"]
    assert market["vaults"][1]["id"] == above
    assert market["orders"][1]["id"] == top_of_stack


def test_executing_an_order_discards_it_and_draws_a_new_one():
    state = game()
    _, (_, _, disaster) = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, DISASTER])
    put(state, (0, 0), "G")
    top_of_stack = state.stack[-1]
    state = act(state, "disaster", disaster, at=(0, 0))
    assert state.market_orders[2] == top_of_stack
    assert disaster in state.discard
    assert view(state, 0)["discard_count"] == 2  # the order and the disaster's vault


def test_when_no_vault_on_offer_fits_the_three_are_replaced_at_no_cost():
    state = game()
    offer_only(state, ["RB", "GY", "BY"], [MOVE, MOVE, GLASS])
    # Every free cell touches a wild vault: only wild vaults are on offer.
    for col, colors in enumerate(["RG", "R", "BG", "R", "RY"]):
        put(state, (col, 0), colors, builder=0 if col == 1 else None)
    put(state, (1, 1), "G")
    put(state, (3, 1), "G")
    put(state, (1, 2), "RG")
    put(state, (3, 2), "BY")
    stuck = list(state.market_vaults)
    # The refresh happens when the next action is due, e.g. after this Stained Glass.
    state = act(state, "glass", state.market_orders[2], at=(1, 0))
    refreshes = events(state, "refresh")
    assert refreshes
    assert refreshes[0]["discarded"] == stuck
    assert set(stuck) <= set(state.discard)
    assert view(state, 0)["actions_left"] == 2
    assert any(a.kind == "vault" for a in legal_actions(state))


def test_a_new_game_always_offers_a_vault_that_fits():
    for seed in range(30):
        assert any(a.kind == "vault" for a in legal_actions(game(seed=seed)))


def test_vault_offer_with_a_single_colour_tile_never_refreshes():
    state = game()
    offer_vault(state, "R", slot=0)
    offer_vault(state, "RB", slot=1)
    offer_vault(state, "GY", slot=2)
    put(state, (0, 0), "BY")
    state = act(state, "vault", state.market_vaults[0], at=(1, 0))
    assert events(state, "refresh") == []


def test_counting_the_legal_actions_of_an_opening_position():
    state = game()
    offer_only(state, ["R", "B", "GY"], [MOVE, GLASS, SCAFFOLD])
    actions = legal_actions(state)
    # Each vault on any of the 5 starting slots; Scaffolding on any of them too; Move Builder
    # and Stained Glass need a builder in the cathedral.
    assert len([a for a in actions if a.kind == "vault"]) == 15
    assert len([a for a in actions if a.kind == "scaffold"]) == 5
    assert len(actions) == 20


def test_an_action_with_a_field_it_does_not_take_is_refused_by_name():
    state = game()
    (red, _, _), _ = offer_only(state, ["R", "B", "Y"], [MOVE, MOVE, MOVE])
    with pytest.raises(IllegalAction, match="a vault action has no rank"):
        act(state, "vault", red, at=(0, 0), rank="architect")
    state = act(state, "vault", red, at=(0, 0))
    with pytest.raises(IllegalAction, match="a builder action has no col or row"):
        act(state, "builder", at=(0, 0))

"""The referee's decisions where the rulebooks are silent (games/engine/README.md, RULINGS)."""

from __future__ import annotations

from games.engine.basilica import Options, legal_actions, new_game, view
from games.engine.basilica.components import (
    ARCHITECT,
    CONFUSE,
    DISASTER,
    JESTER,
    MASON,
    MOVE,
    PROMOTE,
)

from .helpers import (
    act,
    all_tiles_accounted_for,
    events,
    game,
    kinds,
    offer_only,
    offer_order,
    offer_vault,
    put,
    seen,
)

WHITE, BLACK = 0, 1


def _only_wild_cells_left(state) -> None:
    """A cathedral where every free cell touches a wild vault."""
    for col, colors in enumerate(["RG", "R", "BG", "R", "RY"]):
        put(state, (col, 0), colors)
    put(state, (1, 1), "G")
    put(state, (3, 1), "G")
    put(state, (1, 2), "RG")
    put(state, (3, 2), "BY")


def test_1_the_vault_market_is_refreshed_at_the_start_of_a_turn():
    state = game()
    red, _, _ = offer_only(state, ["R", "GY", "BY"], [MOVE, MOVE, MOVE])[0]
    _only_wild_cells_left(state)
    # The order above the red vault has a wild vault on its other side.
    above = offer_order(state, None, slot=0, paid=None, colors="RB")
    stuck = [above, *state.market_vaults[1:]]
    state.actions_left = 1
    state = act(state, "vault", red, at=(0, 1))  # White's last action: Black's turn begins
    (refresh, *_) = events(state, "refresh")
    assert refresh["discarded"] == stuck
    assert view(state, 0)["active_player"] == BLACK
    assert view(state, 0)["actions_left"] == 3
    assert any(a.kind == "vault" for a in legal_actions(state))
    assert all_tiles_accounted_for(state)


def test_2_place_builder_survives_a_refresh_after_place_vault():
    state = game()
    red, _, _ = offer_only(state, ["R", "GY", "BY"], [MOVE, MOVE, MOVE])[0]
    _only_wild_cells_left(state)
    # After taking red, nothing on offer fits: the order above it has a wild vault side.
    offer_order(state, None, slot=0, paid=None, colors="RB")
    state = act(state, "vault", red, at=(0, 1))
    assert events(state, "refresh")
    assert "builder" in kinds(legal_actions(state))
    state = act(state, "builder")
    assert seen(state, (0, 1))["builder"] == {"player": WHITE, "rank": None}
    assert all_tiles_accounted_for(state)


def test_4_exhaustion_in_the_action_that_reaches_a_crown_space_means_one_final_scoring():
    state = game()
    state.king, state.exhaustions = 9, 1
    put(state, (0, 0), "R", builder=WHITE)
    crowned = offer_vault(state, "R", crown=True)
    state.discard, state.stack = state.stack + state.discard, []
    state = act(state, "vault", crowned, at=(1, 0))
    assert [e["kind"] for e in state.events] == ["exhaustion", "scoring", "end"]
    assert state.outcome.termination == "exhaustion"
    assert view(state, 0)["players"][WHITE]["score"] == 2


def test_8_a_builder_on_an_altar_may_be_sent_home_by_its_own_confuse():
    state = game(expansion=True)
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=WHITE, altar=True)
    put(state, (2, 0), "R", builder=BLACK)
    put(state, (3, 0), "R")
    state = act(state, "confuse", confuse, at=(0, 0))
    assert seen(state, (0, 0))["builder"] is None
    assert seen(state, (0, 0))["altar"] is True


def test_10_the_paid_promote_excludes_the_rank_just_chosen_and_the_builders_own():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R", builder=BLACK, rank=MASON)
    state = act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)
    assert {a.rank for a in legal_actions(state) if a.kind == "pay"} == {"strongman", JESTER}


def test_13_removing_six_takes_them_unseen_and_the_expansion_fits_2010_too():
    state = new_game(Options(edition="2010", expansion=True, remove_six=True), seed=3)
    assert len(state.removed) == 6
    shown = view(state, 0)
    assert shown["removed_count"] == 6
    assert shown["stack_count"] == 66 - 6 - 6
    assert "altar" in {t.order for t in state.tiles}


def test_15_disaster_may_split_the_cathedral():
    state = game()
    disaster = offer_order(state, DISASTER)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (0, 1), "B")
    put(state, (0, 2), "G", builder=BLACK)
    state = act(state, "disaster", disaster, at=(0, 1))
    assert seen(state, (0, 1)) is None
    assert seen(state, (0, 2))["colors"] == "G"

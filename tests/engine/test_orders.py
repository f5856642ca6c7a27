"""The orders on the backs of the tiles, each with what it may and may not do."""

from __future__ import annotations

import pytest

from games.engine.basilica import IllegalAction, legal_actions, view
from games.engine.basilica.components import (
    ALTAR,
    ARCHITECT,
    CONFUSE,
    DISASTER,
    GLASS,
    JESTER,
    MASON,
    MOVE,
    PROMOTE,
    RECRUIT,
    SCAFFOLD,
    STRONGMAN,
)

from .helpers import act, game, offer_order, put, scaffold, seen, targets

# -- Promote -----------------------------------------------------------------------------------


def test_promote_puts_a_token_from_supply_under_your_builder():
    state = game()
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=0)
    state = act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)
    assert seen(state, (0, 0))["builder"] == {"player": 0, "rank": ARCHITECT}
    assert view(state, 0)["players"][0]["promotion_tokens"] == 3


def test_promoting_again_returns_the_old_token_to_supply():
    state = game()
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=0, rank=ARCHITECT)
    assert state.players[0].tokens == 3
    state = act(state, "promote", promote, at=(0, 0), rank=MASON)
    assert seen(state, (0, 0))["builder"]["rank"] == MASON
    assert state.players[0].tokens == 3


def test_a_builder_cannot_be_promoted_to_the_rank_it_has():
    state = game()
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=0, rank=STRONGMAN)
    ranks = {a.rank for a in legal_actions(state) if a.tile == promote}
    assert ranks == {ARCHITECT, MASON, JESTER}
    with pytest.raises(IllegalAction, match="rank it does not already have"):
        act(state, "promote", promote, at=(0, 0), rank=STRONGMAN)


def test_promote_needs_a_token_in_supply():
    state = game()
    promote = offer_order(state, PROMOTE)
    for col in range(4):
        put(state, (col, 0), "R", builder=0, rank=ARCHITECT)
    put(state, (4, 0), "G", builder=0)
    assert state.players[0].tokens == 0
    assert targets(legal_actions(state), "promote") == set()
    with pytest.raises(IllegalAction, match="no promotion token left"):
        act(state, "promote", promote, at=(4, 0), rank=MASON)


def test_promote_needs_your_own_builder():
    state = game()
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=1)
    assert targets(legal_actions(state), "promote") == set()
    with pytest.raises(IllegalAction, match="one of your own builders"):
        act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)


def test_the_2010_edition_has_no_jester():
    state = game(edition="2010")
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=0)
    ranks = {a.rank for a in legal_actions(state) if a.tile == promote}
    assert ranks == {ARCHITECT, MASON, STRONGMAN}
    assert view(state, 0)["monarch"] == "king"
    with pytest.raises(IllegalAction, match="ranks of this edition are Architect, Master Mason"):
        act(state, "promote", promote, at=(0, 0), rank=JESTER)


def test_the_2022_edition_has_the_jester_and_the_queen():
    state = game(edition="2022")
    assert view(state, 0)["ranks"] == [ARCHITECT, MASON, STRONGMAN, JESTER]
    assert view(state, 0)["monarch"] == "queen"


# -- Move Builder ------------------------------------------------------------------------------


def test_move_builder_goes_to_an_adjacent_vault_with_no_builder():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (1, 0), "R", builder=0, rank=MASON)
    put(state, (0, 0), "R", builder=1)  # occupied
    put(state, (2, 0), "B")  # free
    put(state, (1, 1), "G")  # free
    put(state, (2, 1), "G")  # diagonal
    moves = {(a.at, a.to) for a in legal_actions(state) if a.tile == move}
    assert moves == {((1, 0), (2, 0)), ((1, 0), (1, 1))}
    state = act(state, "move", move, at=(1, 0), to=(2, 0))
    assert seen(state, (1, 0))["builder"] is None
    assert seen(state, (2, 0))["builder"] == {"player": 0, "rank": MASON}


def test_move_builder_refuses_occupied_diagonal_and_scaffold_cells():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (1, 0), "R", builder=0)
    put(state, (0, 0), "R", builder=1)
    put(state, (2, 1), "G")
    put(state, (1, 1), "G")
    scaffold(state, (2, 0))
    for to in [(0, 0), (2, 1), (2, 0)]:
        with pytest.raises(IllegalAction, match="adjacent vault with no builder"):
            act(state, "move", move, at=(1, 0), to=to)


def test_move_builder_is_not_offered_when_no_builder_can_move():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    assert targets(legal_actions(state), "move", move) == set()


# -- Recruit -----------------------------------------------------------------------------------


def test_recruit_puts_a_builder_on_any_vault_with_no_builder():
    state = game()
    recruit = offer_order(state, RECRUIT)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "B")
    put(state, (1, 1), "Y")
    scaffold(state, (2, 0))
    assert targets(legal_actions(state), "recruit", recruit) == {(1, 0), (1, 1)}
    state = act(state, "recruit", recruit, at=(1, 1))
    assert seen(state, (1, 1))["builder"] == {"player": 0, "rank": None}
    assert state.players[0].builders == 4


def test_recruit_is_refused_on_an_occupied_vault_or_scaffold():
    state = game()
    recruit = offer_order(state, RECRUIT)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    scaffold(state, (2, 0))
    for at in [(0, 0), (2, 0)]:
        with pytest.raises(IllegalAction, match="vault with no builder"):
            act(state, "recruit", recruit, at=at)


def test_recruit_needs_a_builder_in_supply():
    state = game()
    recruit = offer_order(state, RECRUIT)
    for col in range(5):
        put(state, (col, 0), "R", builder=0)
    put(state, (0, 1), "B")
    assert targets(legal_actions(state), "recruit") == set()
    with pytest.raises(IllegalAction, match="no builder left in your supply"):
        act(state, "recruit", recruit, at=(0, 1))


# -- Confuse -----------------------------------------------------------------------------------


def test_confuse_sends_your_builder_home_then_moves_an_opponents():
    state = game()
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0, rank=ARCHITECT)
    put(state, (1, 0), "R", builder=1, rank=MASON)
    put(state, (2, 0), "B")
    state = act(state, "confuse", confuse, at=(0, 0))
    assert state.players[0].builders == 5
    assert state.players[0].tokens == 4
    decision = view(state, 1)["decision"]
    assert decision == {"kind": "confuse_move", "player": 0}
    moves = {(a.at, a.to) for a in legal_actions(state)}
    # The cell just vacated is a legal destination too.
    assert moves == {((1, 0), (0, 0)), ((1, 0), (2, 0))}
    state = act(state, "confuse_move", at=(1, 0), to=(2, 0))
    assert seen(state, (2, 0))["builder"] == {"player": 1, "rank": MASON}
    assert view(state, 0)["actions_left"] == 2


def test_confuse_needs_an_opponents_builder_that_can_move():
    state = game()
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0)
    put(state, (3, 0), "R", builder=1)
    put(state, (4, 0), "R", builder=1)
    assert targets(legal_actions(state), "confuse", confuse) == set()
    with pytest.raises(
        IllegalAction, match="Confuse needs an opponent's builder that can move now"
    ):
        act(state, "confuse", confuse, at=(0, 0))


def _only_the_vault_you_would_leave(version: str):
    """Your builder on c0r0 next to the opponent's on c1r0, whose other neighbours are no
    vaults: its only free neighbour would be the vault your own builder leaves."""
    state = game(version=version)
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (3, 0), "R", builder=0)
    return state, confuse


def test_confuse_is_judged_where_it_is_chosen_before_your_builder_leaves():
    state, confuse = _only_the_vault_you_would_leave("2")
    assert targets(legal_actions(state), "confuse", confuse) == set()
    with pytest.raises(
        IllegalAction, match="Confuse needs an opponent's builder that can move now"
    ):
        act(state, "confuse", confuse, at=(0, 0))


def test_version_1_judged_confuse_after_your_builder_had_gone_home():
    state, confuse = _only_the_vault_you_would_leave("1")
    assert targets(legal_actions(state), "confuse", confuse) == {(0, 0)}
    state = act(state, "confuse", confuse, at=(0, 0))
    state = act(state, "confuse_move", at=(1, 0), to=(0, 0))
    assert seen(state, (0, 0))["builder"]["player"] == 1


def test_once_chosen_confuse_may_move_onto_the_vault_just_left():
    state, confuse = _only_the_vault_you_would_leave("2")
    put(state, (1, 1), "B")  # now the opponent's builder can move before yours leaves
    assert targets(legal_actions(state), "confuse", confuse) == {(0, 0), (3, 0)}
    state = act(state, "confuse", confuse, at=(0, 0))
    moves = {(a.at, a.to) for a in legal_actions(state)}
    assert moves == {((1, 0), (0, 0)), ((1, 0), (1, 1))}


def test_confuse_needs_your_own_builder_to_send_home():
    state = game()
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    assert targets(legal_actions(state), "confuse", confuse) == set()


def test_confuse_cannot_move_a_builder_off_an_altar():
    state = game(expansion=True)
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1, altar=True)
    put(state, (2, 0), "B")
    assert targets(legal_actions(state), "confuse", confuse) == set()


def test_confuse_may_move_a_builder_onto_an_altar():
    state = game(expansion=True)
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (2, 0), "B", altar=True)
    state = act(state, "confuse", confuse, at=(0, 0))
    state = act(state, "confuse_move", at=(1, 0), to=(2, 0))
    assert seen(state, (2, 0))["builder"]["player"] == 1


def test_the_confuse_move_must_move_an_opponents_builder():
    state = game()
    confuse = offer_order(state, CONFUSE)
    put(state, (0, 0), "R", builder=0)
    put(state, (3, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (2, 0), "B")
    state = act(state, "confuse", confuse, at=(0, 0))
    with pytest.raises(IllegalAction, match="Confuse moves an opponent's builder"):
        act(state, "confuse_move", at=(3, 0), to=(2, 0))
    with pytest.raises(IllegalAction, match="waiting for the Confuse move"):
        act(state, "vault", state.market_vaults[0], at=(4, 0))


# -- Stained Glass -----------------------------------------------------------------------------


def test_stained_glass_goes_on_a_vault_where_you_have_a_builder():
    state = game()
    glass = offer_order(state, GLASS)
    another = offer_order(state, GLASS, slot=1)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (2, 0), "R")
    assert targets(legal_actions(state), "glass", glass) == {(0, 0)}
    state = act(state, "glass", glass, at=(0, 0))
    assert seen(state, (0, 0))["glass"] is True
    for at in [(1, 0), (2, 0)]:
        with pytest.raises(IllegalAction, match="one of your own builders"):
            act(state, "glass", another, at=at)


def test_a_vault_holds_at_most_one_stained_glass():
    state = game()
    glass = offer_order(state, GLASS)
    put(state, (0, 0), "R", builder=0, glass=True)
    assert targets(legal_actions(state), "glass", glass) == set()
    with pytest.raises(IllegalAction, match="at most one stained glass"):
        act(state, "glass", glass, at=(0, 0))


# -- Scaffolding -------------------------------------------------------------------------------


def test_scaffolding_places_two_scaffolds_by_the_placement_rule():
    state = game()
    scaffolding = offer_order(state, SCAFFOLD)
    put(state, (0, 0), "R")
    put(state, (1, 0), "RB")
    state = act(state, "scaffold", scaffolding, at=(2, 0))
    assert view(state, 0)["decision"] == {"kind": "second_scaffold", "player": 0}
    # Colour rules are ignored: next to a wild vault is fine; and the first scaffold counts.
    cells = {a.at for a in legal_actions(state)}
    assert cells == {(3, 0), (4, 0), (0, 1), (1, 1), (2, 1)}
    with pytest.raises(IllegalAction, match="a scaffold goes where a vault could"):
        act(state, "second_scaffold", at=(3, 1))
    state = act(state, "second_scaffold", at=(2, 1))
    assert seen(state, (2, 0))["scaffold"]
    assert seen(state, (2, 1))["scaffold"]
    assert view(state, 0)["actions_left"] == 2


def test_nothing_may_go_on_a_scaffold():
    state = game(expansion=True)
    put(state, (0, 0), "R", builder=0)
    scaffold(state, (1, 0))
    for order in (RECRUIT, DISASTER, ALTAR):
        tile = offer_order(state, order)
        assert (1, 0) not in targets(legal_actions(state), order, tile)
    assert (1, 0) not in targets(legal_actions(state), "vault")
    assert (1, 0) not in {a.to for a in legal_actions(state) if a.kind == "move"}
    with pytest.raises(IllegalAction, match="already built on"):
        act(state, "vault", state.market_vaults[0], at=(1, 0))


# -- Disaster ----------------------------------------------------------------------------------


def test_disaster_discards_a_vault_with_no_builder_with_its_glass():
    state = game()
    disaster = offer_order(state, DISASTER)
    victim = put(state, (0, 0), "R", glass=True)
    put(state, (1, 0), "R", builder=1)
    assert targets(legal_actions(state), "disaster", disaster) == {(0, 0)}
    state = act(state, "disaster", disaster, at=(0, 0))
    assert seen(state, (0, 0)) is None
    assert victim in state.discard


def test_disaster_spares_a_vault_with_a_builder():
    state = game()
    disaster = offer_order(state, DISASTER)
    put(state, (1, 0), "R", builder=0)
    with pytest.raises(IllegalAction, match="Disaster discards a vault with no builder"):
        act(state, "disaster", disaster, at=(1, 0))


def test_disaster_spares_a_vault_with_an_altar():
    state = game(expansion=True)
    disaster = offer_order(state, DISASTER)
    put(state, (1, 0), "R", altar=True)
    assert targets(legal_actions(state), "disaster", disaster) == set()
    with pytest.raises(IllegalAction, match="altar is protected from Disaster"):
        act(state, "disaster", disaster, at=(1, 0))


def test_disaster_cannot_discard_a_scaffold():
    state = game()
    disaster = offer_order(state, DISASTER)
    scaffold(state, (1, 0))
    with pytest.raises(IllegalAction, match="Disaster discards a vault"):
        act(state, "disaster", disaster, at=(1, 0))


# -- Altar (Festum Fatuorum) -------------------------------------------------------------------


def test_altar_places_two_altars_on_different_vaults():
    state = game(expansion=True)
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "B")
    scaffold(state, (2, 0))
    assert targets(legal_actions(state), "altar", altar) == {(0, 0), (1, 0)}
    state = act(state, "altar", altar, at=(0, 0))
    assert view(state, 1)["decision"] == {"kind": "second_altar", "player": 0}
    assert {a.at for a in legal_actions(state) if a.kind == "second_altar"} == {(1, 0)}
    with pytest.raises(IllegalAction, match="second altar goes on another vault"):
        act(state, "second_altar", at=(0, 0))
    state = act(state, "second_altar", at=(1, 0))
    assert seen(state, (0, 0))["altar"]
    assert seen(state, (1, 0))["altar"]
    assert view(state, 0)["altars_left"] == 12


def test_the_second_altar_is_owed_while_a_vault_and_a_token_are_left():
    state = game(expansion=True)
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    put(state, (1, 0), "B")
    state = act(state, "altar", altar, at=(0, 0))
    assert [a.kind for a in legal_actions(state)] == ["second_altar"]
    with pytest.raises(IllegalAction, match="the second altar is not optional"):
        act(state, "skip_altar")
    with pytest.raises(IllegalAction, match="waiting for the second altar"):
        act(state, "vault", state.market_vaults[0], at=(2, 0))
    state = act(state, "second_altar", at=(1, 0))
    assert view(state, 0)["altars_left"] == 12
    assert view(state, 0)["actions_left"] == 2


def test_version_1_let_the_second_altar_be_skipped():
    state = game(expansion=True, version="1")
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    put(state, (1, 0), "B")
    state = act(state, "altar", altar, at=(0, 0))
    assert {a.kind for a in legal_actions(state)} == {"second_altar", "skip_altar"}
    state = act(state, "skip_altar")
    assert view(state, 0)["altars_left"] == 13
    assert view(state, 0)["actions_left"] == 2


def test_altars_are_not_placed_on_scaffolding():
    state = game(expansion=True)
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    scaffold(state, (1, 0))
    with pytest.raises(IllegalAction, match="altar goes on a vault"):
        act(state, "altar", altar, at=(1, 0))
    # With only one vault to take an altar there is no second step.
    state = act(state, "altar", altar, at=(0, 0))
    assert view(state, 0)["decision"]["kind"] == "main"


def test_the_altar_supply_is_fourteen_and_runs_out():
    state = game(expansion=True)
    assert view(state, 0)["altars_left"] == 14
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    put(state, (1, 0), "R")
    state.altars_left = 1
    state = act(state, "altar", altar, at=(0, 0))
    assert state.altars_left == 0
    assert view(state, 0)["decision"]["kind"] == "main"  # no token for a second one
    another = offer_order(state, ALTAR, slot=1)
    assert targets(legal_actions(state), "altar", another) == set()
    with pytest.raises(IllegalAction, match="no altar tokens are left"):
        act(state, "altar", another, at=(1, 0))


def test_the_base_game_has_no_altars():
    state = game(expansion=False)
    assert view(state, 0)["altars_left"] == 0
    assert all(t.order != ALTAR for t in state.tiles)


# -- any order ---------------------------------------------------------------------------------


def test_an_order_without_any_legal_effect_cannot_be_chosen():
    state = game()
    for slot, order in enumerate((PROMOTE, GLASS, CONFUSE)):
        offer_order(state, order, slot=slot)
    # No builders anywhere: none of these orders can do anything.
    assert {a.kind for a in legal_actions(state)} == {"vault"}


def test_an_order_tile_is_executed_as_its_own_order():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (0, 0), "R", builder=0)
    with pytest.raises(IllegalAction, match="that tile's order is Move Builder, not recruit"):
        act(state, "recruit", move, at=(0, 0))

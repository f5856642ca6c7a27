"""The king's (queen's) track, the scorings it triggers, the clean-up after them, stack
exhaustion and the end of the game."""

from __future__ import annotations

import pytest

from games.engine.basilica import IllegalAction, legal_actions, view
from games.engine.basilica.components import ARCHITECT, DISASTER, GLASS, MASON, MOVE

from .helpers import (
    act,
    all_tiles_accounted_for,
    events,
    game,
    offer_order,
    offer_vault,
    pieces_conserved,
    put,
    scaffold,
    seen,
)

WHITE, BLACK = 0, 1


def test_each_crowned_vault_moves_the_king_one_space():
    state = game(edition="2010")
    crowned = offer_vault(state, "R", slot=0, crown=True)
    plain = offer_vault(state, "B", slot=1, crown=False)
    state = act(state, "vault", plain, at=(0, 0))
    assert view(state, 0)["king"] == 0
    state = act(state, "vault", crowned, at=(1, 0))
    assert view(state, 0)["king"] == 1


def test_entering_a_crown_space_scores_and_ends_the_turn_at_once():
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE)
    crowned = offer_vault(state, "R", slot=1, crown=True)
    above = state.market_orders[1]
    state = act(state, "vault", crowned, at=(1, 0))  # the first action of White's turn
    (scoring,) = events(state, "scoring")
    assert scoring["number"] == 1
    assert scoring["points"] == [2, 0]
    shown = view(state, WHITE)
    assert shown["king"] == 10
    assert shown["scorings"] == 1
    assert shown["players"][WHITE]["score"] == 2
    # The turn ended although White had two actions left; Black plays next, with three.
    assert shown["active_player"] == BLACK
    assert shown["actions_left"] == 3
    assert shown["turn"] == 2
    # The action was finished first: the order above slid down and a new one was drawn.
    assert state.market_vaults[1] == above
    assert None not in state.market_orders


def test_the_opponent_plays_after_a_scoring_she_triggered():
    state = game(first_player=BLACK)
    state.king = 19
    state.scorings = 1
    crowned = offer_vault(state, "G", crown=True)
    state = act(state, "vault", crowned, at=(0, 0))
    assert view(state, 0)["scorings"] == 2
    assert view(state, 0)["active_player"] == WHITE


def test_after_a_scoring_builders_and_tokens_go_home_rows_0_and_1_go_and_the_rest_slides_down():
    state = game(expansion=True)
    state.king = 9
    lost = [
        put(state, (0, 0), "R", builder=WHITE, rank=ARCHITECT, glass=True),
        put(state, (1, 0), "R", altar=True),
        put(state, (0, 1), "B", builder=BLACK, rank=MASON),
    ]
    put(state, (0, 2), "B", builder=BLACK, glass=True, altar=True)
    put(state, (1, 2), "Y")
    put(state, (0, 3), "G")
    scaffold(state, (2, 0))
    scaffold(state, (2, 3))
    crowned = offer_vault(state, "Y", crown=True)
    state = act(state, "vault", crowned, at=(4, 0))
    lost.append(crowned)
    cathedral = {(c["col"], c["row"]): c for c in view(state, 0)["cathedral"]}
    assert set(cathedral) == {(0, 0), (1, 0), (0, 1)}
    assert cathedral[(0, 0)]["colors"] == "B"
    assert cathedral[(0, 0)]["glass"] is True
    assert cathedral[(0, 0)]["altar"] is True
    assert cathedral[(1, 0)]["colors"] == "Y"
    assert cathedral[(0, 1)]["colors"] == "G"
    assert all(c["builder"] is None for c in cathedral.values())
    assert not any(c["scaffold"] for c in cathedral.values())
    for player in view(state, 0)["players"]:
        assert (player["builders"], player["promotion_tokens"]) == (5, 4)
    assert set(lost) <= set(state.discard)
    assert view(state, 0)["altars_left"] == 12  # the altar of row 0 is spent, not returned
    assert all_tiles_accounted_for(state)
    assert pieces_conserved(state)


def test_after_a_scoring_the_nearest_remaining_row_becomes_row_0():
    state = game()
    state.king = 9
    put(state, (2, 3), "R")
    put(state, (2, 4), "B")
    crowned = offer_vault(state, "Y", crown=True)
    state = act(state, "vault", crowned, at=(0, 0))
    assert seen(state, (2, 0))["colors"] == "R"
    assert seen(state, (2, 1))["colors"] == "B"
    assert len(view(state, 0)["cathedral"]) == 2


def test_the_third_scoring_ends_the_game():
    state = game()
    state.king, state.scorings = 29, 2
    state.players[WHITE].score, state.players[BLACK].score = 40, 38
    put(state, (0, 0), "B", builder=BLACK)
    crowned = offer_vault(state, "B", crown=True)
    state = act(state, "vault", crowned, at=(1, 0))
    shown = view(state, None)
    assert shown["finished"] is True
    assert shown["termination"] == "third scoring"
    assert [p["score"] for p in shown["players"]] == [40, 40]
    assert shown["winners"] == [0, 1]  # equal totals share the victory
    assert state.outcome.termination == "third scoring"
    assert legal_actions(state) == []
    assert view(state, 0)["to_decide"] is None
    with pytest.raises(IllegalAction, match="the game is over"):
        act(state, "vault", state.market_vaults[0], at=(2, 0))


def test_the_higher_total_wins():
    state = game()
    state.king, state.scorings = 29, 2
    state.players[WHITE].score = 30
    put(state, (0, 0), "B", builder=BLACK)
    crowned = offer_vault(state, "B", crown=True)
    state = act(state, "vault", crowned, at=(1, 0))
    assert view(state, 0)["winners"] == [WHITE]
    assert state.outcome.scores == (30, 2)


# -- stack exhaustion --------------------------------------------------------------------------


def _empty_the_stack_into_the_discard(state) -> None:
    state.discard = state.stack + state.discard
    state.stack = []


def test_the_first_time_the_stack_runs_out_the_discard_pile_is_reshuffled():
    state = game(seed=11)
    move = offer_order(state, MOVE)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R")
    _empty_the_stack_into_the_discard(state)
    pile = len(state.discard)
    after = act(state, "move", move, at=(0, 0), to=(1, 0))
    assert events(after, "reshuffle") == [{"seq": 1, "kind": "reshuffle", "tiles": pile + 1}]
    shown = view(after, 0)
    assert shown["reshuffled"] is True
    assert shown["stack_count"] == pile  # the executed order joined the pile; one was drawn
    assert shown["discard_count"] == 0
    assert not after.finished
    assert all_tiles_accounted_for(after)
    # The reshuffle uses the game's seeded generator: the same game reshuffles the same way.
    assert act(state, "move", move, at=(0, 0), to=(1, 0)).stack == after.stack


def test_the_second_time_the_stack_runs_out_the_game_ends_with_a_final_scoring():
    state = game()
    state.king, state.scorings, state.exhaustions = 14, 1, 1
    disaster = offer_order(state, DISASTER)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R")
    put(state, (2, 0), "B", builder=BLACK)
    _empty_the_stack_into_the_discard(state)
    state = act(state, "disaster", disaster, at=(1, 0))
    shown = view(state, None)
    assert shown["finished"] is True
    assert shown["termination"] == "exhaustion"
    assert [e["kind"] for e in state.events] == ["exhaustion", "scoring", "end"]
    assert events(state, "scoring")[0]["number"] == 2  # wherever the king stands
    assert [p["score"] for p in shown["players"]] == [1, 1]
    assert shown["winners"] == [0, 1]
    assert all_tiles_accounted_for(state)


def test_the_game_ends_at_the_first_exhaustion_if_the_discard_pile_is_empty_too():
    state = game()
    put(state, (0, 0), "R", builder=WHITE)
    state.removed, state.stack = state.stack, []  # out of the game, for this story
    state = act(state, "vault", state.market_vaults[0], at=(1, 0))
    assert state.finished
    assert state.outcome.termination == "exhaustion"
    assert events(state, "reshuffle") == []


def test_an_order_just_executed_is_in_the_pile_that_is_reshuffled():
    state = game()
    glass = offer_order(state, GLASS)
    put(state, (0, 0), "R", builder=WHITE)
    state.removed, state.stack = state.stack, []  # out of the game, for this story
    state = act(state, "glass", glass, at=(0, 0))
    assert not state.finished
    assert state.market_orders[0] == glass  # the only tile of the new stack
    assert view(state, 0)["stack_count"] == 0


def test_exhaustion_while_taking_a_vault_ends_the_game():
    state = game()
    state.exhaustions = 1
    vault = state.market_vaults[0]
    _empty_the_stack_into_the_discard(state)
    state = act(state, "vault", vault, at=(0, 0))
    assert state.finished
    assert events(state, "exhaustion")

"""Paid orders: the opponent may pay a coin to the active player to act during their turn."""

from __future__ import annotations

import pytest

from games.engine.basilica import IllegalAction, legal_actions, view
from games.engine.basilica.components import (
    ARCHITECT,
    CONFUSE,
    JESTER,
    MASON,
    PROMOTE,
    RECRUIT,
    STRONGMAN,
)

from .helpers import act, game, kinds, offer_order, put, seen


def test_a_paid_order_is_offered_to_the_opponent_after_the_main_order():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    shown = view(state, 0)
    assert shown["to_decide"] == 1
    assert shown["decision"] == {"kind": "paid", "player": 1, "order": RECRUIT}
    assert kinds(legal_actions(state)) == {"pay", "decline"}


def test_paying_moves_the_coin_to_the_active_player():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (4, 0), "R")
    state = act(state, "recruit", recruit, at=(4, 0))
    state = act(state, "pay", at=(1, 0))
    players = view(state, 0)["players"]
    assert (players[0]["coins"], players[1]["coins"]) == (2, 0)
    assert seen(state, (1, 0))["builder"] == {"player": 1, "rank": None}
    # The paid order costs the payer no action and the turn goes on.
    assert view(state, 0)["to_decide"] == 0
    assert view(state, 0)["actions_left"] == 2


def test_declining_keeps_the_coin():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    state = act(state, "decline")
    assert [p["coins"] for p in view(state, 0)["players"]] == [1, 1]
    assert seen(state, (1, 0))["builder"] is None


def test_no_offer_without_a_coin():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    state.players[1].coins = 0
    state.players[0].coins = 2
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    assert view(state, 0)["decision"]["kind"] == "main"


def test_no_offer_when_the_paid_order_could_do_nothing():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (3, 0), "R")  # not next to her builder
    state = act(state, "recruit", recruit, at=(3, 0))
    assert view(state, 0)["decision"]["kind"] == "main"


def test_no_offer_from_a_tile_without_the_coin_box():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=False)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    assert view(state, 0)["decision"]["kind"] == "main"


def test_a_player_may_hold_several_coins_and_pay_again():
    state = game()
    state.players[1].coins = 2
    state.players[0].coins = 0
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    state = act(state, "pay", at=(1, 0))
    assert [p["coins"] for p in view(state, 0)["players"]] == [1, 1]


def test_the_market_refills_only_after_the_paid_order_is_resolved():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    assert view(state, 1)["market"]["orders"][0] is None
    top = state.stack[-1]
    state = act(state, "decline")
    assert view(state, 1)["market"]["orders"][0]["id"] == top


def test_paid_recruit_goes_next_to_one_of_her_builders():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (0, 1), "R")
    put(state, (1, 1), "R")  # diagonal to her builder
    put(state, (4, 0), "R")
    state = act(state, "recruit", recruit, at=(4, 0))
    assert {a.at for a in legal_actions(state) if a.kind == "pay"} == {(1, 0), (0, 1)}
    with pytest.raises(IllegalAction, match="empty vault next to one of your builders"):
        act(state, "pay", at=(1, 1))


def test_paid_recruit_needs_a_builder_in_her_supply():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    for col in range(5):
        put(state, (col, 0), "R", builder=1)
    put(state, (0, 1), "R")
    put(state, (1, 1), "R")
    state = act(state, "recruit", recruit, at=(0, 1))
    assert view(state, 0)["decision"]["kind"] == "main"


def test_paid_promote_must_choose_another_rank():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    state = act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)
    assert view(state, 1)["decision"] == {
        "kind": "paid",
        "player": 1,
        "order": PROMOTE,
        "rank": ARCHITECT,
    }
    ranks = {a.rank for a in legal_actions(state) if a.kind == "pay"}
    assert ranks == {MASON, STRONGMAN, JESTER}
    with pytest.raises(IllegalAction, match="rank other than Architect"):
        act(state, "pay", at=(1, 0), rank=ARCHITECT)
    state = act(state, "pay", at=(1, 0), rank=STRONGMAN)
    assert seen(state, (1, 0))["builder"] == {"player": 1, "rank": STRONGMAN}
    assert state.players[1].tokens == 3


def test_paid_promote_cannot_promote_the_active_players_builder():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=0)
    put(state, (2, 0), "R", builder=1)
    state = act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)
    with pytest.raises(IllegalAction, match="for one of your builders"):
        act(state, "pay", at=(1, 0), rank=MASON)


def test_paid_confuse_lets_the_opponent_choose_the_move():
    state = game()
    confuse = offer_order(state, CONFUSE, paid=True)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (3, 0), "R", builder=1)
    put(state, (4, 0), "R")
    state = act(state, "confuse", confuse, at=(0, 0))
    assert view(state, 1)["decision"] == {"kind": "paid", "player": 1, "order": CONFUSE}
    moves = {(a.at, a.to) for a in legal_actions(state) if a.kind == "pay"}
    assert moves == {((1, 0), (0, 0)), ((3, 0), (4, 0))}
    state = act(state, "pay", at=(3, 0), to=(4, 0))
    assert seen(state, (4, 0))["builder"]["player"] == 1
    assert seen(state, (1, 0))["builder"]["player"] == 1  # the other stays put
    assert view(state, 0)["decision"]["kind"] == "main"
    assert [p["coins"] for p in view(state, 0)["players"]] == [2, 0]


def test_declined_paid_confuse_leaves_the_move_to_the_active_player():
    state = game()
    confuse = offer_order(state, CONFUSE, paid=True)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (1, 1), "B")  # a vault the opponent's builder can move to now
    state = act(state, "confuse", confuse, at=(0, 0))
    state = act(state, "decline")
    assert view(state, 0)["decision"] == {"kind": "confuse_move", "player": 0}
    state = act(state, "confuse_move", at=(1, 0), to=(0, 0))
    assert seen(state, (0, 0))["builder"]["player"] == 1


def test_paid_confuse_cannot_refuse_the_move_by_choosing_nothing():
    state = game()
    confuse = offer_order(state, CONFUSE, paid=True)
    put(state, (0, 0), "R", builder=0)
    put(state, (1, 0), "R", builder=1)
    put(state, (1, 1), "B")  # a vault the opponent's builder can move to now
    state = act(state, "confuse", confuse, at=(0, 0))
    with pytest.raises(IllegalAction, match="moves one of your builders"):
        act(state, "pay", at=(1, 0), to=(1, 0))
    with pytest.raises(IllegalAction, match="moves one of your builders"):
        act(state, "pay")


def test_a_main_action_is_refused_while_a_paid_order_is_offered():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R", builder=1)
    put(state, (1, 0), "R")
    put(state, (2, 0), "R")
    state = act(state, "recruit", recruit, at=(2, 0))
    with pytest.raises(IllegalAction, match="waiting for an answer to the paid-order offer"):
        act(state, "vault", state.market_vaults[0], at=(3, 0))


def test_pay_is_refused_when_nothing_is_offered():
    state = game()
    with pytest.raises(IllegalAction, match="no such decision pending"):
        act(state, "decline")

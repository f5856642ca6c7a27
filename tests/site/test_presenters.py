"""What the players' panels say about whose move it is, and what the last move changed, read
from a viewer's view."""

from __future__ import annotations

from engine.helpers import act, game, offer_order, offer_vault, put

from games.engine.basilica import view
from games.engine.basilica.components import MOVE
from games.kinds.basilica.presenters import last_move, prompt, turn_note

WHITE, BLACK = 0, 1  # Alice and Bob
NAMES = ["Alice", "Bob"]


def seen(kind: str, to_decide: int, active: int = 0, left: int = 2) -> dict:
    return {
        "decision": {"kind": kind, "player": to_decide},
        "to_decide": to_decide,
        "active_player": active,
        "actions_left": left,
    }


def test_the_player_on_turn_sees_how_many_actions_are_left():
    assert turn_note(seen("main", 0), 0) == "to play: 2 actions left"
    assert turn_note(seen("main", 0, left=1), 0) == "to play: 1 action left"
    assert turn_note(seen("main", 0), 1) == ""


def test_a_paid_offer_shows_who_answers_and_who_waits():
    assert turn_note(seen("paid", 1), 1) == "to answer the paid-order offer"
    assert (
        turn_note(seen("paid", 1), 0)
        == "on turn, waiting for the opponent's answer: 2 actions left"
    )


def test_a_paid_offer_tells_the_opponent_whom_they_pay_and_for_what():
    offer = {**seen("paid", 1), "decision": {"kind": "paid", "order": "recruit", "player": 1}}
    assert prompt(offer, 1, NAMES) == (
        "Paid order: Alice took Recruit. Pay Alice 1 coin to place a builder on an empty vault "
        "next to one of yours: click a highlighted cell to pay and do it, or decline."
    )


def test_a_jester_pick_before_a_scoring_is_not_called_a_turn_to_play():
    assert turn_note(seen("jester", 0), 0) == "to choose a Jester colour for the scoring"
    assert turn_note(seen("jester", 1), 0) == "waiting for the opponent's Jester colour"


def test_a_finished_game_says_nothing_about_turns():
    assert (
        turn_note({"decision": None, "to_decide": None, "active_player": 0, "actions_left": 0}, 0)
        == ""
    )


# -- the last move -----------------------------------------------------------------------------


def test_nothing_is_told_before_the_first_move():
    start = view(game(), None)
    assert last_move(start, start, NAMES) == {}


def test_the_last_move_marks_every_cell_of_the_run_once():
    state = game()
    vault = offer_vault(state, "R", slot=0)
    move = offer_order(state, MOVE, slot=1)
    before = view(state, BLACK)
    state = act(state, "vault", vault, at=(0, 0))
    state = act(state, "builder")
    put(state, (1, 0), "B")
    state = act(state, "move", move, at=(0, 0), to=(1, 0))
    told = last_move(before, view(state, BLACK), NAMES)
    assert told["player"] == WHITE
    assert told["who"] == "Alice"
    assert told["text"] == (
        "Alice placed a red vault at c0r0, then a builder on it, "
        "then took Move Builder: their builder moved from c0r0 to c1r0."
    )
    assert told["cells"] == {"0,0", "1,0"}
    assert (told["first_seq"], told["seq"]) == (1, 3)

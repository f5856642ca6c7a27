"""What the players' panels say about whose move it is, read from a viewer's view."""

from __future__ import annotations

from games.kinds.basilica.presenters import turn_note


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


def test_a_jester_pick_before_a_scoring_is_not_called_a_turn_to_play():
    assert turn_note(seen("jester", 0), 0) == "to choose a Jester colour for the scoring"
    assert turn_note(seen("jester", 1), 0) == "waiting for the opponent's Jester colour"


def test_a_finished_game_says_nothing_about_turns():
    assert (
        turn_note({"decision": None, "to_decide": None, "active_player": 0, "actions_left": 0}, 0)
        == ""
    )

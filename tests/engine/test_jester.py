"""Jester colours (2022): picked just before each scoring, in secret, revealed by the scoring."""

from __future__ import annotations

import json

import pytest

from games.engine.basilica import IllegalAction, legal_actions, view
from games.engine.basilica.components import JESTER

from .helpers import act, events, game, offer_vault, put

WHITE, BLACK = 0, 1


def _both_jesters_at_a_scoring():
    """White places the crowned vault that reaches the first crown space; both have a Jester."""
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE, rank=JESTER)
    put(state, (1, 0), "B")
    put(state, (2, 0), "B", builder=BLACK)
    put(state, (4, 0), "Y", builder=BLACK, rank=JESTER)
    put(state, (4, 1), "G", builder=WHITE)
    crowned = offer_vault(state, "G", crown=True)
    return act(state, "vault", crowned, at=(3, 1))


def test_each_jester_owner_picks_a_colour_the_tile_lacks_before_the_scoring():
    state = _both_jesters_at_a_scoring()
    assert events(state, "scoring") == []
    assert view(state, BLACK)["decision"] == {"kind": "jester", "player": WHITE, "at": [0, 0]}
    assert view(state, BLACK)["jesters_waiting"] == [WHITE, BLACK]
    assert {a.color for a in legal_actions(state)} == {"Y", "B", "G"}
    with pytest.raises(IllegalAction, match="adds a colour the tile lacks"):
        act(state, "jester", at=(0, 0), color="R")
    with pytest.raises(IllegalAction, match="the Jester to colour now stands at c0r0"):
        act(state, "jester", at=(4, 0), color="R")


def test_neither_player_sees_the_others_pick_until_the_scoring_reveals_it():
    state = _both_jesters_at_a_scoring()
    state = act(state, "jester", at=(0, 0), color="B")
    assert view(state, WHITE)["jester_picks"] == {"0,0": "B"}
    for viewer in (BLACK, None):
        shown = view(state, viewer)
        assert shown["jester_picks"] == {}
        assert shown["log"][-1]["text"] == "choose a Jester colour (hidden until the scoring)"
        assert '"B"' not in json.dumps(shown["jester_picks"])
    assert view(state, BLACK)["decision"] == {"kind": "jester", "player": BLACK, "at": [4, 0]}
    state = act(state, "jester", at=(4, 0), color="G")
    (scoring,) = events(state, "scoring")
    assert scoring["jesters"] == {"0,0": "B", "4,0": "G"}
    for viewer in (WHITE, BLACK, None):
        texts = [entry["text"] for entry in view(state, viewer)["log"][-2:]]
        assert texts == ["Jester at c0r0 becomes blue", "Jester at c4r0 becomes green"]


def test_the_picks_count_in_the_scoring():
    state = _both_jesters_at_a_scoring()
    state = act(state, "jester", at=(0, 0), color="B")
    state = act(state, "jester", at=(4, 0), color="G")
    (scoring,) = events(state, "scoring")
    # Blue (0,0)-(2,0) is tied 1-1: nothing. The green pair (4,0)-(4,1) with the new vault at
    # (3,1) is tied too. Yellow (4,0) alone became a lone wild tile: nothing.
    assert scoring["points"] == [0, 0]


def test_picks_are_forgotten_after_the_scoring():
    state = _both_jesters_at_a_scoring()
    state = act(state, "jester", at=(0, 0), color="Y")
    state = act(state, "jester", at=(4, 0), color="R")
    assert state.jester_picks == {}
    assert view(state, WHITE)["jester_picks"] == {}


def test_a_lone_jester_owner_picks_and_the_other_player_waits():
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=BLACK, rank=JESTER)
    crowned = offer_vault(state, "G", crown=True)
    state = act(state, "vault", crowned, at=(1, 0))
    assert view(state, WHITE)["to_decide"] == BLACK
    with pytest.raises(IllegalAction, match="waiting for a Jester colour"):
        act(state, "vault", state.market_vaults[0], at=(2, 0))
    state = act(state, "jester", at=(0, 0), color="G")
    # The red vault, now red and green, joins the new green vault: 2 for Black. Alone in red
    # it is a lone wild tile now, so there is no red area any more.
    assert events(state, "scoring")[0]["points"] == [0, 2]

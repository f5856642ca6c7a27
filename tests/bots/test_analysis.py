"""The analysis judges each move from the seat that made it, with only what that seat could see:
change every secret of that seat's (the stack below its top, the tiles removed unseen, the seed,
the other player's Jester colour) and the judgement is the same, figure for figure."""

from __future__ import annotations

import random

from engine.hidden import other_secrets

from games import bots
from games.engine import basilica, cathedral
from tests.bots.test_bots import positions_with_secrets

SMALL = bots.Budget(simulations=20)


def test_a_judgement_is_the_same_whatever_the_seat_that_acted_could_not_see():
    change = random.Random(7)
    checked = reordered = 0
    for state in positions_with_secrets():
        seat = state.to_decide
        swapped = other_secrets(state, seat, change)
        assert swapped.seed != state.seed
        assert basilica.view(swapped, seat) == basilica.view(state, seat)
        played = basilica.legal_actions(state)[-1]
        mine = bots.judge("basilica", state, played, SMALL, random.Random(f"analysis:1:{checked}"))
        theirs = bots.judge(
            "basilica", swapped, played, SMALL, random.Random(f"analysis:1:{checked}")
        )
        assert mine == theirs
        checked += 1
        reordered += swapped.stack != state.stack
    assert checked > 10
    assert reordered > 5


def test_the_comparison_notices_a_change_the_seat_may_see():
    state = next(iter(positions_with_secrets()))
    seat = state.to_decide
    richer = state.copy()
    richer.players[seat].coins += 5
    played = basilica.legal_actions(state)[0]
    judged = [
        bots.judge("basilica", s, played, SMALL, random.Random("analysis:1:0"))
        for s in (state, richer)
    ]
    assert judged[0] != judged[1]


def test_a_judgement_weighs_the_move_played_even_one_the_search_would_not_look_at():
    state = cathedral.new_game(cathedral.Options(), 1)
    state = cathedral.apply_action(state, cathedral.legal_actions(state)[0])
    # Hundreds of placements: the last one is far outside the few the heuristic shortlists.
    played = cathedral.legal_actions(state)[-1]
    judgement = bots.judge("cathedral", state, played, SMALL, random.Random(3))
    assert 0 <= judgement.after <= 100
    assert judgement.before >= judgement.after
    assert judgement.drop == judgement.before - judgement.after
    assert (judgement.preferred is None) == (judgement.drop == 0)


def test_the_same_seed_gives_the_same_judgement():
    state = next(iter(positions_with_secrets()))
    played = basilica.legal_actions(state)[0]
    one = bots.judge("basilica", state, played, SMALL, random.Random("analysis:5:12"))
    two = bots.judge("basilica", state, played, SMALL, random.Random("analysis:5:12"))
    assert one == two

"""The bots: they play only legal actions, in every game the site hosts, and nothing they do
depends on what their seat may not see."""

from __future__ import annotations

import multiprocessing
import random
import time

import pytest
from engine.helpers import act
from engine.hidden import other_secrets
from engine.randomplay import CONFIGS, play
from engine.test_jester import BLACK, _both_jesters_at_a_scoring

from games import bots
from games.engine import basilica, cathedral, engine_for
from games.engine.basilica import Options

TINY = bots.Budget(simulations=3, reply_width=3, sample=30)
SMALL = bots.Budget(simulations=25)


def positions_with_secrets():
    """Basilica positions with every kind of secret: early and late, after the reshuffle, with
    remove-six, and one where the other player's Jester colour is hidden."""
    for config in ("2022", "2010+expansion", "2022+expansion-6"):
        for index, (before, _, _) in enumerate(play(CONFIGS[config], 5)):
            if index % 40 == 5 or (before.exhaustions == 1 and index % 10 == 0):
                yield before
    yield act(_both_jesters_at_a_scoring(), "jester", at=(0, 0), color="B")


@pytest.mark.parametrize("level", bots.LEVELS)
def test_a_bot_decides_alike_whatever_its_seat_cannot_see(level):
    change = random.Random(3)
    checked = 0
    for state in positions_with_secrets():
        seat = state.to_decide
        swapped = other_secrets(state, seat, change)
        assert basilica.view(swapped, seat) == basilica.view(state, seat)
        for draw in range(2):
            mine = bots.choose("basilica", state, seat, level, random.Random(draw), SMALL)
            theirs = bots.choose("basilica", swapped, seat, level, random.Random(draw), SMALL)
            assert mine == theirs
        checked += 1
    assert checked > 10


def test_the_search_bot_picks_its_jester_colour_without_knowing_the_others():
    state = act(_both_jesters_at_a_scoring(), "jester", at=(0, 0), color="B")
    action = bots.choose("basilica", state, BLACK, "search", random.Random(1), SMALL)
    assert action in basilica.legal_actions(state)
    assert action.kind == "jester"


# Every level, in both seats, on 200 seeded games of each: each decision is made by a level
# drawn at random (mostly the fast one, so that the test stays quick), and must be legal.
GAMES = 200
LEVEL_WEIGHTS = {"random": 0.9, "greedy": 0.06, "search": 0.04}
VARIANTS = {
    "basilica 2010": ("basilica", Options(edition="2010")),
    "basilica 2022": ("basilica", Options(edition="2022", first_player=1)),
    "basilica 2010 with the expansion": ("basilica", Options(edition="2010", expansion=True)),
    "basilica 2022 with the expansion, six removed": (
        "basilica",
        Options(edition="2022", expansion=True, remove_six=True),
    ),
    "cathedral": ("cathedral", cathedral.Options()),
    "cathedral, Lehman's opening": ("cathedral", cathedral.Options(lehman=True, light=1)),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_level_plays_only_legal_actions_to_the_end(variant):
    kind, options = VARIANTS[variant]
    engine = engine_for(kind)
    made = dict.fromkeys(bots.LEVELS, 0)
    levels, weights = list(LEVEL_WEIGHTS), list(LEVEL_WEIGHTS.values())
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = engine.new_game(options, seed)
        while not state.finished:
            (level,) = rng.choices(levels, weights)
            action = bots.choose(kind, state, state.to_decide, level, rng, TINY)
            assert action in engine.legal_actions(state), (variant, seed, level, action)
            state = engine.apply_action(state, action)
            made[level] += 1
        assert state.outcome is not None
    assert min(made.values()) > 50


def test_a_bot_is_asked_only_when_its_seat_decides():
    state = basilica.new_game(Options(), 1)
    with pytest.raises(ValueError, match="does not decide now"):
        bots.choose("basilica", state, 1, "random", random.Random(1))
    with pytest.raises(ValueError, match="unknown level"):
        bots.choose("basilica", state, 0, "clever", random.Random(1))


def _burn(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.mark.parametrize("kind", ["basilica", "cathedral"])
def test_the_site_bot_plays_the_same_move_on_a_busy_machine(kind):
    # Its budget is a number of simulations: two processes burning both cores beside it slow
    # it down but change nothing it decides.
    engine = engine_for(kind)
    state = engine.new_game(engine.Options(), 2)
    budget = bots.Budget(simulations=150)
    quiet = bots.choose(kind, state, state.to_decide, "search", random.Random(2), budget)
    burners = [multiprocessing.Process(target=_burn, args=(30,)) for _ in range(2)]
    for burner in burners:
        burner.start()
    try:
        busy = bots.choose(kind, state, state.to_decide, "search", random.Random(2), budget)
    finally:
        for burner in burners:
            burner.terminate()
            burner.join()
    assert busy == quiet
    assert quiet in engine.legal_actions(state)


def _with_another_top(state, rng: random.Random):
    """``state`` with the top of its stack swapped for a tile below it: a position that differs
    from it only in the face everyone sees on the stack."""
    other = state.copy()
    below = rng.randrange(len(other.stack) - 1)
    other.stack[-1], other.stack[below] = other.stack[below], other.stack[-1]
    return other


def test_the_search_bot_plans_on_the_top_of_the_stack_it_sees():
    rng = random.Random(11)
    differ = checked = 0
    for state in positions_with_secrets():
        if len(state.stack) < 2 or state.decision["kind"] != "main":
            continue
        seat = state.to_decide
        other = _with_another_top(state, rng)
        assert basilica.view(other, seat)["stack_top"] != basilica.view(state, seat)["stack_top"]
        # Every position the bot plans on has the top it sees.
        for draw in range(3):
            assert (
                basilica.determinize(other, seat, random.Random(draw)).stack[-1]
                == (other.stack[-1])
            )
        mine = bots.choose("basilica", state, seat, "search", random.Random(0), SMALL)
        theirs = bots.choose("basilica", other, seat, "search", random.Random(0), SMALL)
        differ += mine != theirs
        checked += 1
    assert checked > 5
    assert differ  # what it sees on the stack can change its move

"""Properties of random legal play over many seeds, both editions, with and without the
expansion: games end, nothing is created or lost, saved games replay, views keep secrets."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine.basilica import (
    Action,
    IllegalAction,
    MalformedAction,
    State,
    apply_action,
    legal_actions,
    replay,
    view,
)
from games.engine.basilica.actions import KINDS
from games.engine.basilica.board import builders_of
from games.engine.basilica.rules import confuse_targets, move_targets
from games.engine.basilica.simulate import play_random
from games.engine.basilica.simulate import uniform as uniform_choice

from .helpers import all_tiles_accounted_for, pieces_conserved
from .randomplay import CONFIGS, choose, final_state, play

SEEDS = range(12)
GAMES = [(name, seed) for name in CONFIGS for seed in SEEDS]


def _altars_on_board(state: State) -> int:
    return sum(1 for cell in state.cells.values() if cell.altar)


@pytest.mark.parametrize(("config", "seed"), GAMES)
def test_random_play_keeps_every_invariant_and_ends(config, seed):
    options = CONFIGS[config]
    spent_altars = 0
    state = None
    for before, action, after in play(options, seed):
        actions = legal_actions(before)
        assert actions
        assert legal_actions(before) == actions  # stable order
        assert action in actions
        assert Action.from_json(action.to_json()) == action
        assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action
        # Altars leave play only with their tiles, never back to the supply.
        gone = {p for p, c in before.cells.items() if c.altar} - {
            p for p, c in after.cells.items() if c.altar
        }
        assert after.altars_left <= before.altars_left  # an altar never returns to supply
        if after.scorings > before.scorings:
            spent_altars += (
                _altars_on_board(before)
                - _altars_on_board(after)
                + (before.altars_left - after.altars_left)
            )
        else:
            assert not gone
        assert after.altars_left + _altars_on_board(after) + spent_altars == (
            options.altars if options.expansion else 0
        )
        assert all_tiles_accounted_for(after)
        assert pieces_conserved(after)
        _check_the_flow_of_play(before, action, after)
        restored = State.from_json(json.loads(json.dumps(after.to_json())))
        assert restored == after
        assert legal_actions(restored) == legal_actions(after)
        state = after
    assert state.finished
    assert legal_actions(state) == []
    assert state.outcome.termination in ("third scoring", "exhaustion")
    scores = state.outcome.scores
    assert state.outcome.winners == tuple(p for p in (0, 1) if scores[p] == max(scores))


def _check_the_flow_of_play(before: State, action: Action, after: State) -> None:
    crowned = action.kind == "vault" and before.tiles[action.tile].crown
    assert after.king == before.king + crowned
    if after.scorings > before.scorings and not after.finished:
        # A scoring ends the turn at once, after the clean-up.
        assert after.active == 1 - before.active
        assert after.actions_left == 3
        assert all(c.builder is None and c.tile is not None for c in after.cells.values())
        assert not after.cells or min(row for _, row in after.cells) == 0
    elif before.decision["kind"] == "main" and not after.finished and not after.pending:
        if before.actions_left == 1:
            assert (after.active, after.actions_left) == (1 - before.active, 3)
            assert after.turn == before.turn + 1
        else:
            assert (after.active, after.actions_left) == (before.active, before.actions_left - 1)
    if action.kind == "builder":
        assert before.last_vault is not None
        assert after.cells[before.last_vault].builder == before.active
    if not after.finished and not after.pending:
        assert any(a.kind == "vault" for a in legal_actions(after))


@pytest.mark.parametrize(("config", "seed"), GAMES)
def test_a_saved_game_replays_to_the_same_state(config, seed):
    options = CONFIGS[config]
    state = final_state(options, seed)
    actions = [entry["action"] for entry in state.history]
    assert replay(options, seed, actions) == state
    assert replay(options, seed, actions, check=True) == state
    assert replay(options, seed, [Action.from_json(a) for a in actions]) == state


@settings(max_examples=12, deadline=None)
@given(
    config=st.sampled_from(sorted(CONFIGS)),
    seed=st.integers(0, 2**63),
    first_player=st.sampled_from([0, 1]),
)
def test_any_seed_plays_to_an_end_that_replays(config, seed, first_player):
    options = CONFIGS[config].with_first_player(first_player)
    state = final_state(options, seed)
    assert all_tiles_accounted_for(state)
    assert pieces_conserved(state)
    assert replay(options, seed, [entry["action"] for entry in state.history]) == state


def test_apply_action_leaves_the_state_it_was_given_alone():
    for before, _, after in play(CONFIGS["2022+expansion"], 3):
        snapshot = before.to_json()
        assert before.to_json() == snapshot
        assert after is not before
    for before, action, _ in play(CONFIGS["2010"], 4):
        snapshot = before.to_json()
        apply_action(before, action)
        assert before.to_json() == snapshot


def test_games_end_in_both_ways_over_many_seeds():
    # Playing orders often (by kind) runs the stack out; placing vaults mostly reaches the third
    # scoring.
    by_kind = {final_state(CONFIGS["2022"], seed).outcome.termination for seed in range(10)}
    uniform = {
        play_random(CONFIGS["2010"], seed, policy=uniform_choice).outcome.termination
        for seed in range(10)
    }
    assert by_kind | uniform == {"third scoring", "exhaustion"}


# -- views keep secrets ------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _sample_states() -> tuple[State, ...]:
    """States from random games, including every kind of pending decision and game ends."""
    found: dict[str, list[State]] = {}
    for name, seed in [(n, s) for n in CONFIGS for s in range(6)]:
        for before, _, after in play(CONFIGS[name], seed):
            kind = before.decision["kind"]
            if (
                len(found.setdefault(kind, [])) < 25
                and random.Random(len(before.history)).random() < 0.3
            ):
                found[kind].append(before)
            if after.finished:
                found.setdefault("end", []).append(after)
    assert {"main", "paid", "confuse_move", "second_scaffold", "second_altar", "jester"} <= set(
        found
    )
    return tuple(s for states in found.values() for s in states)


def _with_other_secrets(state: State, rng: random.Random) -> State:
    """The stack below its top (which lies face up) reordered, another seed, the six removed
    in another order."""
    other = state.copy()
    below = other.stack[:-1]
    rng.shuffle(below)
    other.stack[:-1] = below
    other.seed = state.seed + 1_000_003
    rng.shuffle(other.removed)
    return other


def test_no_view_shows_the_stack_below_its_top_or_the_seed():
    rng = random.Random(0)
    for state in _sample_states():
        other = _with_other_secrets(state, rng)
        for viewer in (0, 1, None):
            assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))


def test_every_view_shows_the_top_of_the_stack_and_nothing_below_it():
    shown = 0
    for state in _sample_states():
        for viewer in (0, 1, None):
            seen = view(state, viewer)
            if not state.stack:
                assert seen["stack_top"] is None
                continue
            top = state.tiles[state.stack[-1]]
            assert seen["stack_top"] == top.to_json()
            if state.exhaustions:
                continue  # the reshuffled stack is the discard pile, whose tiles were all seen
            # No other tile of the stack, never yet seen, is named anywhere in the view.
            text = json.dumps(seen)
            for below in state.stack[:-1]:
                assert json.dumps(state.tiles[below].to_json()) not in text
            shown += 1
    assert shown


def test_no_view_shows_the_other_players_unrevealed_jester_pick():
    checked = 0
    for name, seed in [(n, s) for n in ("2022", "2022+expansion") for s in range(40)]:
        for state, _, _ in play(CONFIGS[name], seed):
            if not state.jester_picks:
                continue
            for viewer in (0, 1, None):
                other = state.copy()
                for key in other.jester_picks:
                    col, row = (int(x) for x in key.split(","))
                    if other.cells[(col, row)].builder != viewer:
                        other.jester_picks[key] = "?"
                assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
            checked += 1
        if checked > 20:
            break
    assert checked


def test_views_are_json_safe():
    for state in _sample_states():
        for viewer in (0, 1, None):
            shown = view(state, viewer)
            assert json.loads(json.dumps(shown)) == shown


# -- malformed and illegal actions -------------------------------------------------------------

FIELDS = ["type", "tile", "col", "row", "to_col", "to_row", "rank", "color"]
junk = st.one_of(
    st.none(),
    st.integers(-3, 70),
    st.integers(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.text(max_size=6),
    st.sampled_from(["Y", "B", "R", "G", "architect", "mason", "strongman", "jester"]),
    st.lists(st.integers(0, 5), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=1),
)
action_dicts = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(KINDS)}, optional=dict.fromkeys(FIELDS[1:], junk)
    ),
    st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=4), st.integers()), junk),
    junk,
)


def _is_legal(state: State, payload: object) -> bool:
    try:
        return Action.from_json(payload) in legal_actions(state)
    except MalformedAction:
        return False


def _check_refused_or_legal(state: State, payload: object) -> None:
    snapshot = state.to_json()
    if _is_legal(state, payload):
        assert apply_action(state, payload) != state
    else:
        with pytest.raises((MalformedAction, IllegalAction), match=r"\w"):
            apply_action(state, payload)
    assert state.to_json() == snapshot


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, 10_000), payload=action_dicts)
@example(index=0, payload={"type": "vault", 1: 2, "a": 3})  # keys that do not sort together
def test_a_malformed_action_is_refused_and_changes_nothing(index, payload):
    states = _sample_states()
    _check_refused_or_legal(states[index % len(states)], payload)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, 10_000),
    pick=st.integers(0, 10_000),
    field=st.sampled_from(FIELDS),
    value=junk,
)
def test_a_legal_action_with_one_field_changed_is_legal_or_refused(index, pick, field, value):
    states = _sample_states()
    state = states[index % len(states)]
    actions = legal_actions(state)
    if not actions:
        _check_refused_or_legal(state, {"type": "vault", "tile": 0, "col": 0, "row": 0})
        return
    payload = actions[pick % len(actions)].to_json()
    if value is None:
        payload.pop(field, None)
    else:
        payload[field] = value
    _check_refused_or_legal(state, payload)


def test_refusals_are_value_errors_that_name_the_rule():
    assert issubclass(IllegalAction, ValueError)
    assert issubclass(MalformedAction, ValueError)
    state = _sample_states()[0]
    with pytest.raises(MalformedAction, match="an action is a JSON object"):
        apply_action(state, ["vault"])
    with pytest.raises(MalformedAction, match="col must be a whole number"):
        apply_action(state, {"type": "vault", "tile": 1, "col": "1", "row": 0})
    with pytest.raises(MalformedAction, match="unexpected fields in action: colour"):
        apply_action(state, {"type": "jester", "colour": "B"})


def test_reading_an_action_twice_gives_the_same_answer_and_true_is_no_number():
    data = {"type": "vault", "tile": 1, "col": 0, "row": 0}
    assert Action.from_json(data) == Action.from_json(dict(data)) == Action("vault", 1, 0, 0)
    for wrong in (True, 1.0):
        with pytest.raises(MalformedAction, match="tile must be a whole number"):
            Action.from_json({**data, "tile": wrong})


def test_choose_is_deterministic():
    actions = legal_actions(_sample_states()[0])
    assert choose(random.Random(5), actions) == choose(random.Random(5), actions)


def _confuse_targets_as_the_rule_reads(state: State, player: int) -> list:
    """Confuse's first step as each version reads the rule: version 2 looks for an opponent's
    move in the position where the order is chosen; version 1 sent each builder home first."""
    result = []
    for pos in builders_of(state, player):
        trial = state.copy()
        if state.version == "1":
            trial.cells[pos].builder = None
        if move_targets(trial, 1 - player, confusing=True):
            result.append(pos)
    return result


def test_confuse_targets_match_the_rule_read_literally_in_both_versions():
    differ = 0
    for state in _sample_states():
        for version in ("1", "2"):
            trial = state.copy()
            trial.version = version
            for player in (0, 1):
                found = confuse_targets(trial, player)
                assert found == _confuse_targets_as_the_rule_reads(trial, player)
        old, new = state.copy(), state.copy()
        old.version, new.version = "1", "2"
        differ += any(confuse_targets(old, p) != confuse_targets(new, p) for p in (0, 1))
    assert differ  # random play reaches positions where the two versions disagree

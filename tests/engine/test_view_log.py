"""The log in a player's view: each action with its public JSON, the tile it took, its turn and
whose turn that was; never a secret (a Jester colour not yet revealed, the stack, the seed)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import basilica as engine
from games.engine.basilica import HIDDEN_PICK, view
from games.engine.basilica.actions import ORDER_KINDS
from games.engine.basilica.components import CONFUSE, DISASTER, GLASS, JESTER, PROMOTE, STRONGMAN

from .helpers import act, events, game, offer_order, offer_vault, put
from .randomplay import CONFIGS, play

WHITE, BLACK = 0, 1


def _last(state, viewer=WHITE) -> dict:
    return view(state, viewer)["log"][-1]


def test_a_vault_entry_names_the_action_and_the_face_of_the_tile_taken():
    state = game()
    vault = offer_vault(state, "RB", crown=True)
    state = act(state, "vault", vault, at=(1, 0))
    entry = _last(state)
    assert entry["action"] == {"type": "vault", "tile": vault, "col": 1, "row": 0}
    assert entry["tile"] == state.tiles[vault].to_json()
    assert entry["tile"]["colors"] == "BR"
    assert entry["tile"]["crown"] is True
    assert entry["text"] == "place B/R vault at c1r0"


def test_an_order_entry_shows_the_order_tile_taken():
    state = game()
    glass = offer_order(state, GLASS)
    put(state, (0, 0), "Y", builder=WHITE)
    state = act(state, "glass", glass, at=(0, 0))
    entry = _last(state)
    assert entry["tile"]["order"] == GLASS
    assert entry["tile"]["id"] == glass


def test_a_builder_entry_names_the_vault_it_went_on():
    state = game()
    vault = offer_vault(state, "G")
    state = act(state, "vault", vault, at=(3, 0))
    state = act(state, "builder")
    entry = _last(state)
    assert entry["action"] == {"type": "builder"}
    assert entry["tile"] is None
    assert entry["cell"] == [3, 0]


def test_a_disaster_entry_names_the_vault_it_discarded():
    state = game()
    disaster = offer_order(state, DISASTER)
    gone = put(state, (2, 0), "YG")
    state = act(state, "disaster", disaster, at=(2, 0))
    entry = _last(state, viewer=None)
    assert entry["discarded"] == state.tiles[gone].to_json()
    assert entry["tile"]["order"] == DISASTER


def test_an_answer_to_a_paid_order_names_the_order():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B", builder=BLACK)
    state = act(state, "promote", promote, at=(0, 0), rank=STRONGMAN)
    state = act(state, "decline")
    entry = _last(state)
    assert entry["player"] == BLACK
    assert entry["action"] == {"type": "decline"}
    assert entry["order"] == PROMOTE


def test_entries_carry_their_turn_and_whose_turn_it_was():
    state = game(first_player=BLACK)
    for slot in range(3):
        vault = offer_vault(state, "R", slot=slot)
        state = act(state, "vault", vault, at=(slot, 0))
    vault = offer_vault(state, "B")
    state = act(state, "vault", vault, at=(0, 1))
    turns = [(e["turn"], e["active"], e["player"]) for e in view(state, None)["log"]]
    assert turns == [(1, BLACK, BLACK)] * 3 + [(2, WHITE, WHITE)]


def test_the_opponents_answer_belongs_to_the_active_players_turn():
    state = game()
    confuse = offer_order(state, CONFUSE, paid=True)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (1, 1), "R")
    state = act(state, "confuse", confuse, at=(0, 0))
    state = act(state, "pay", at=(1, 0), to=(1, 1))
    entry = _last(state)
    assert entry["player"] == BLACK
    assert (entry["turn"], entry["active"]) == (1, WHITE)
    assert entry["order"] == CONFUSE


def test_a_scoring_ends_the_turn_so_the_next_entry_is_the_opponents_turn():
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE)
    crowned = offer_vault(state, "R", crown=True)
    state = act(state, "vault", crowned, at=(1, 0))
    assert events(state, "scoring")
    vault = offer_vault(state, "B")
    state = act(state, "vault", vault, at=(0, 0))
    turns = [(e["turn"], e["active"]) for e in view(state, None)["log"]]
    assert turns == [(1, WHITE), (2, BLACK)]


MAIN = {"vault", "builder", *ORDER_KINDS}


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_in_random_games_each_turn_is_the_active_players_three_actions(config):
    for seed in range(4):
        *_, (_, _, final) = play(CONFIGS[config], seed)
        log = view(final, None)["log"]
        assert [e["turn"] for e in log] == sorted(e["turn"] for e in log)
        for turn in {e["turn"] for e in log}:
            main = [e for e in log if e["turn"] == turn and e["action"]["type"] in MAIN]
            active = (CONFIGS[config].first_player + turn - 1) % 2
            assert len(main) <= 3
            assert all(e["player"] == e["active"] == active for e in main)


# -- the Jester's colour stays hidden until the scoring --------------------------------------


def _one_pick_made(color: str):
    """Both players own a Jester at a scoring; White has picked ``color``, Black is picking."""
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE, rank=JESTER)
    put(state, (2, 0), "B", builder=BLACK)
    put(state, (4, 0), "Y", builder=BLACK, rank=JESTER)
    crowned = offer_vault(state, "G", crown=True)
    state = act(state, "vault", crowned, at=(3, 0))
    return act(state, "jester", at=(0, 0), color=color)


@pytest.mark.parametrize("viewer", [BLACK, None])
def test_nothing_in_the_view_tells_a_hidden_jester_colour(viewer):
    blue, green = _one_pick_made("B"), _one_pick_made("G")
    assert json.dumps(view(blue, viewer)) == json.dumps(view(green, viewer))
    entry = view(blue, viewer)["log"][-1]
    assert entry["action"] == {"type": "jester", "col": 0, "row": 0}
    assert entry["text"] == "choose a Jester colour (hidden until the scoring)"


def test_the_picker_reads_their_own_colour_in_the_log():
    entry = view(_one_pick_made("B"), WHITE)["log"][-1]
    assert entry["action"] == {"type": "jester", "col": 0, "row": 0, "color": "B"}
    assert entry["text"] == "Jester at c0r0 becomes blue"


@pytest.mark.parametrize("viewer", [WHITE, BLACK, None])
def test_the_scoring_reveals_every_pick_in_the_log(viewer):
    state = act(_one_pick_made("B"), "jester", at=(4, 0), color="G")
    picks = [e["action"] for e in view(state, viewer)["log"] if e["action"]["type"] == "jester"]
    assert [p["color"] for p in picks] == ["B", "G"]


def test_random_games_never_show_a_pick_before_its_scoring():
    """Any other colour for the opponent's unrevealed picks gives the very same view."""
    checked = 0
    for name in ("2022", "2022+expansion"):
        for seed in range(30):
            for state, _, _ in play(CONFIGS[name], seed):
                if state.decision["kind"] == "jester" and state.jester_picks:
                    for viewer in (state.to_decide, None):
                        other = _other_picks(state, viewer)
                        assert json.dumps(view(state, viewer)) == json.dumps(view(other, viewer))
                    checked += 1
    assert checked >= 5


def _other_picks(state, viewer):
    """The same state with every pick that ``viewer`` did not make turned to another colour."""
    other = state.copy()
    other.history = [dict(entry) for entry in state.history]
    for key in state.jester_picks:
        col, row = (int(x) for x in key.split(","))
        if state.cells[(col, row)].builder == viewer:
            continue
        printed = state.tiles[state.cells[(col, row)].tile].colors
        color = next(c for c in "YBRG" if c not in printed and c != state.jester_picks[key])
        other.jester_picks[key] = color
        for entry in other.history[-2:]:
            action = entry["action"]
            if action["type"] == "jester" and (action["col"], action["row"]) == (col, row):
                entry["action"] = {**action, "color": color}
    return other


# -- the scoring event explains itself ---------------------------------------------------------


def test_the_scoring_event_keeps_the_cathedral_as_scored_and_the_glass_on_altars():
    state = game(expansion=True)
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE, glass=True, altar=True)
    put(state, (1, 0), "R", glass=True)
    crowned = offer_vault(state, "R", crown=True)
    state = act(state, "vault", crowned, at=(2, 0))
    (scoring,) = events(state, "scoring")
    (area,) = scoring["areas"]
    assert area["glass"] == 6
    assert area["altar_glass"] == 1
    assert [(c["col"], c["row"]) for c in scoring["cathedral"]] == [(0, 0), (1, 0), (2, 0)]
    assert state.cells == {}  # the clean-up took rows 0 and 1; the event still shows them


def test_changing_an_entry_of_one_view_leaves_the_next_view_alone():
    state = game()
    vault = offer_vault(state, "R")
    state = act(state, "vault", vault, at=(0, 0))
    first = view(state, WHITE)["log"][-1]
    first["text"] = "changed"
    assert view(state, WHITE)["log"][-1]["text"] == "place R vault at c0r0"


def _read_afresh(state, viewer) -> list[dict]:
    """The log of ``state`` read as if never read before: the same game with entries that are
    new objects, which no earlier reading holds."""
    other = state.copy()
    other.history = [dict(entry) for entry in state.history]
    return view(other, viewer)["log"]


def test_a_log_read_move_after_move_is_the_log_read_afresh():
    """The three viewers read each state in turn, and each the state before it again (as a
    move's pages do), with takebacks on the way and another line of play beside it: every log
    is the one a first reading gives."""
    rng = random.Random(3)
    taken = 0
    for name, seeds in (("2022+expansion", range(8)), ("2010", range(2))):
        for seed in seeds:
            state = engine.new_game(CONFIGS[name], seed)
            while not state.finished:
                before = state
                state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
                if engine.takeback_refusal(before, state) is None and rng.random() < 0.5:
                    state = engine.take_back(state)
                    taken += 1
                # Another action from the same state: a line of play beside this one.
                sibling = engine.apply_action(before, rng.choice(engine.legal_actions(before)))
                for viewer in (WHITE, BLACK, None):
                    for seen in (state, before, sibling):
                        assert view(seen, viewer)["log"] == _read_afresh(seen, viewer)
    assert taken > 0


def test_the_picker_reading_the_log_first_shows_the_others_nothing_of_the_pick():
    state = _one_pick_made("B")
    assert view(state, WHITE)["log"][-1]["action"]["color"] == "B"
    for viewer in (BLACK, None):
        entry = view(state, viewer)["log"][-1]
        assert entry["text"] == HIDDEN_PICK
        assert "color" not in entry["action"]
    scored = act(state, "jester", at=(4, 0), color="G")  # the scoring reveals both picks
    for viewer in (BLACK, None, WHITE):
        picks = [
            e["action"] for e in view(scored, viewer)["log"] if e["action"]["type"] == "jester"
        ]
        assert [p["color"] for p in picks] == ["B", "G"]
        assert "color" not in view(state, viewer)["log"][-1]["action"] or viewer == WHITE

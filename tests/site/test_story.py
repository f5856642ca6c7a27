"""The story of a game as players read it: what the last player did in one sentence, the log by
turns, and each scoring explained, in both editions and with the Festum Fatuorum expansion."""

from __future__ import annotations

import copy
import json
import random

import pytest
from django.utils import translation
from engine.helpers import act, game, offer_order, offer_vault, put
from engine.randomplay import CONFIGS, play

from games.engine.basilica import apply_action, legal_actions, view
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
from games.kinds.basilica.story import (
    entry_cells,
    entry_text,
    last_run,
    log_turns,
    move_summary,
    scoring_breakdown,
    scoring_numbers,
)

WHITE, BLACK = 0, 1  # Alice and Bob
NAMES = ["Alice", "Bob"]


def told(state, viewer=None) -> str:
    """The last player's move as ``viewer`` reads it."""
    return move_summary(last_run(view(state, viewer)), NAMES)


def last_entry(state, viewer=None) -> dict:
    return view(state, viewer)["log"][-1]


# -- a move in one sentence --------------------------------------------------------------------


def test_a_vault_a_builder_on_it_and_a_promotion_make_one_sentence():
    state = game()
    vault = offer_vault(state, "R", slot=0)
    promote = offer_order(state, PROMOTE, slot=1)
    state = act(state, "vault", vault, at=(4, 0))
    state = act(state, "builder")
    state = act(state, "promote", promote, at=(4, 0), rank=ARCHITECT)
    assert told(state) == (
        "Alice placed a red vault at c4r0, then a builder on it, "
        "then took Promote: their builder at c4r0 became an Architect."
    )


def test_a_wild_crowned_vault_is_named_by_both_colours_and_its_crown():
    state = game()
    vault = offer_vault(state, "RB", crown=True)
    state = act(state, "vault", vault, at=(1, 0))
    assert told(state) == "Alice placed a blue/red vault (crowned) at c1r0."


def test_nothing_is_told_before_the_first_move():
    state = game()
    assert last_run(view(state, None)) == []
    assert move_summary([], NAMES) == ""


def test_move_builder_names_both_cells():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B")
    state = act(state, "move", move, at=(0, 0), to=(1, 0))
    assert told(state) == "Alice took Move Builder: their builder moved from c0r0 to c1r0."


def test_recruit_names_the_vault_of_the_new_builder():
    state = game()
    recruit = offer_order(state, RECRUIT)
    put(state, (0, 0), "R")
    state = act(state, "recruit", recruit, at=(0, 0))
    assert told(state) == "Alice took Recruit: a new builder on c0r0."


def _confuse_offered(paid: bool):
    state = game()
    confuse = offer_order(state, CONFUSE, paid=paid)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "R", builder=BLACK)
    put(state, (1, 1), "R")
    return act(state, "confuse", confuse, at=(0, 0))


def test_confuse_tells_the_builder_sent_home_and_the_opponents_builder_moved():
    state = act(_confuse_offered(paid=False), "confuse_move", at=(1, 0), to=(1, 1))
    assert told(state) == (
        "Alice took Confuse: their builder at c0r0 went home "
        "and Bob's builder moved from c1r0 to c1r1."
    )


def test_stained_glass_names_its_vault():
    state = game()
    glass = offer_order(state, GLASS)
    put(state, (0, 0), "Y", builder=WHITE)
    state = act(state, "glass", glass, at=(0, 0))
    assert told(state) == "Alice took Stained Glass: a window on the vault at c0r0."


def test_scaffolding_tells_both_scaffolds():
    state = game()
    scaffold = offer_order(state, SCAFFOLD)
    state = act(state, "scaffold", scaffold, at=(0, 0))
    state = act(state, "second_scaffold", at=(1, 0))
    assert (
        told(state) == "Alice took Scaffolding: a scaffold at c0r0 and a second scaffold at c1r0."
    )


def test_disaster_names_the_vault_it_discarded():
    state = game()
    disaster = offer_order(state, DISASTER)
    put(state, (2, 0), "YG")
    state = act(state, "disaster", disaster, at=(2, 0))
    assert told(state) == "Alice took Disaster: discarded the yellow/green vault (crowned) at c2r0."


def _altar_placed(version: str = "2"):
    state = game(expansion=True, version=version)
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    put(state, (1, 0), "B")
    return act(state, "altar", altar, at=(0, 0))


def test_altar_tells_both_altars():
    state = act(_altar_placed(), "second_altar", at=(1, 0))
    assert told(state) == "Alice took Altar: an altar on c0r0 and a second altar on c1r0."


def test_altar_tells_a_single_altar_where_only_one_vault_could_take_it():
    state = game(expansion=True)
    altar = offer_order(state, ALTAR)
    put(state, (0, 0), "R")
    state = act(state, "altar", altar, at=(0, 0))
    assert told(state) == "Alice took Altar: an altar on c0r0."


def test_altar_of_version_1_tells_when_the_second_one_was_skipped():
    state = act(_altar_placed("1"), "skip_altar")
    assert told(state) == "Alice took Altar: an altar on c0r0 and no second altar."


def _paid_promote():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B", builder=BLACK)
    return act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)


def test_a_paid_order_says_whom_it_is_for():
    assert told(_paid_promote()) == (
        "Alice took Promote, with a paid order for Bob: their builder at c0r0 became an Architect."
    )


def test_paying_for_a_paid_promote_tells_what_the_coin_bought():
    state = act(_paid_promote(), "pay", at=(1, 0), rank=STRONGMAN)
    assert told(state) == (
        "Bob paid Alice a coin for Promote's paid order: their builder at c1r0 became a Strongman."
    )


def test_declining_names_the_paid_order():
    state = act(_paid_promote(), "decline")
    assert told(state) == "Bob declined to pay Alice a coin for Promote's paid order."


def test_paying_for_a_paid_recruit_names_the_vault():
    state = game()
    recruit = offer_order(state, RECRUIT, paid=True)
    put(state, (0, 0), "R")
    put(state, (1, 0), "B", builder=BLACK)
    put(state, (2, 0), "Y")
    state = act(state, "recruit", recruit, at=(0, 0))
    state = act(state, "pay", at=(2, 0))
    assert told(state) == "Bob paid Alice a coin for Recruit's paid order: a new builder on c2r0."


def test_paying_for_a_paid_confuse_tells_the_move_the_payer_chose():
    state = act(_confuse_offered(paid=True), "pay", at=(1, 0), to=(1, 1))
    assert told(state) == (
        "Bob paid Alice a coin for Confuse's paid order: their builder moved from c1r0 to c1r1."
    )


def test_after_a_declined_confuse_the_active_player_completes_it():
    state = act(_confuse_offered(paid=True), "decline")
    state = act(state, "confuse_move", at=(1, 0), to=(1, 1))
    assert told(state) == "Alice completed Confuse: Bob's builder moved from c1r0 to c1r1."


def test_the_2010_edition_promotes_to_its_own_ranks():
    state = game(edition="2010")
    promote = offer_order(state, PROMOTE)
    put(state, (0, 0), "R", builder=WHITE)
    state = act(state, "promote", promote, at=(0, 0), rank=MASON)
    assert told(state) == "Alice took Promote: their builder at c0r0 became a Master Mason."


def test_a_run_can_begin_with_an_answer_in_the_opponents_turn():
    state = game()
    promote = offer_order(state, PROMOTE, paid=True, slot=0)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B", builder=BLACK)
    vaults = [offer_vault(state, "Y", slot=s) for s in (1, 2)]
    state = act(state, "vault", vaults[0], at=(2, 0))
    state = act(state, "vault", vaults[1], at=(3, 0))
    state = act(state, "promote", promote, at=(0, 0), rank=ARCHITECT)
    state = act(state, "decline")  # the end of Alice's turn: Bob's comes next
    vault = state.market_vaults[0]
    state = act(state, "vault", vault, at=(4, 0))
    assert told(state).startswith(
        "Bob declined to pay Alice a coin for Promote's paid order, then placed a "
    )


# -- the Jester's colour -----------------------------------------------------------------------


def _jester_picked():
    """Both own a Jester at a scoring; Alice has picked blue for hers, Bob is picking."""
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE, rank=JESTER)
    put(state, (2, 0), "B", builder=BLACK)
    put(state, (4, 0), "Y", builder=BLACK, rank=JESTER)
    crowned = offer_vault(state, "G", crown=True)
    state = act(state, "vault", crowned, at=(3, 0))
    return act(state, "jester", at=(0, 0), color="B")


@pytest.mark.parametrize("viewer", [BLACK, None])
def test_a_hidden_jester_pick_is_told_without_its_colour(viewer):
    assert told(_jester_picked(), viewer) == (
        "Alice placed a green vault (crowned) at c3r0, "
        "then chose a colour for their Jester at c0r0 (hidden until the scoring)."
    )


def test_the_picker_reads_their_own_jester_colour():
    assert told(_jester_picked(), WHITE).endswith("then chose blue for their Jester at c0r0.")


@pytest.mark.parametrize("viewer", [WHITE, BLACK, None])
def test_the_scoring_reveals_the_jester_colours(viewer):
    state = act(_jester_picked(), "jester", at=(4, 0), color="G")
    assert told(state, viewer) == "Bob chose green for their Jester at c4r0."
    texts = [entry_text(e, NAMES) for e in view(state, viewer)["log"]]
    assert "Chose blue for their Jester at c0r0" in texts


# -- one log entry -----------------------------------------------------------------------------


def test_a_log_entry_names_the_tile_capitalised():
    state = game()
    vault = offer_vault(state, "RB", crown=True)
    state = act(state, "vault", vault, at=(1, 0))
    assert entry_text(last_entry(state), NAMES) == "Placed a blue/red vault (crowned) at c1r0"


def test_an_order_entry_begins_with_the_order():
    state = game()
    disaster = offer_order(state, DISASTER)
    put(state, (2, 0), "R")
    state = act(state, "disaster", disaster, at=(2, 0))
    assert (
        entry_text(last_entry(state), NAMES)
        == "Disaster: discarded the red vault (crowned) at c2r0"
    )


def test_a_paid_order_entry_says_whom_it_is_for():
    assert entry_text(last_entry(_paid_promote()), NAMES) == (
        "Promote, with a paid order for Bob: their builder at c0r0 became an Architect"
    )


def test_a_paying_entry_says_who_was_paid_for_what():
    state = act(_paid_promote(), "pay", at=(1, 0), rank=STRONGMAN)
    assert entry_text(last_entry(state), NAMES) == (
        "Paid Alice a coin for Promote's paid order: their builder at c1r0 became a Strongman"
    )


def test_a_builder_entry_names_its_vault():
    state = game()
    vault = offer_vault(state, "G")
    state = act(state, "vault", vault, at=(3, 0))
    state = act(state, "builder")
    assert entry_text(last_entry(state), NAMES) == "Placed a builder on c3r0"


def test_a_follow_up_entry_begins_with_its_order():
    state = act(_altar_placed("1"), "skip_altar")
    assert entry_text(last_entry(state), NAMES) == "Altar: no second altar"
    state = act(_confuse_offered(paid=False), "confuse_move", at=(1, 0), to=(1, 1))
    assert entry_text(last_entry(state), NAMES) == "Confuse: Bob's builder moved from c1r0 to c1r1"


def test_a_hidden_pick_entry_hides_the_colour():
    assert entry_text(last_entry(_jester_picked(), BLACK), NAMES) == (
        "Chose a colour for their Jester at c0r0 (hidden until the scoring)"
    )


# -- the cells an entry touched ----------------------------------------------------------------


def test_a_move_touches_both_its_cells():
    state = game()
    move = offer_order(state, MOVE)
    put(state, (0, 0), "R", builder=WHITE)
    put(state, (1, 0), "B")
    state = act(state, "move", move, at=(0, 0), to=(1, 0))
    assert entry_cells(last_entry(state)) == ["0,0", "1,0"]


def test_a_builder_touches_the_vault_it_went_on():
    state = game()
    vault = offer_vault(state, "G")
    state = act(state, "vault", vault, at=(3, 0))
    state = act(state, "builder")
    assert entry_cells(last_entry(state)) == ["3,0"]


def test_a_decline_touches_no_cell():
    assert entry_cells(last_entry(act(_paid_promote(), "decline"))) == []


# -- the log by turns --------------------------------------------------------------------------


def test_the_log_is_grouped_by_turn_newest_first():
    state = game()
    for slot in range(3):
        state = act(state, "vault", offer_vault(state, "R", slot=slot), at=(slot, 0))
    state = act(state, "vault", offer_vault(state, "B"), at=(0, 1))
    turns = log_turns(view(state, None), NAMES)
    assert [(t["turn"], t["who"]) for t in turns] == [(2, "Bob"), (1, "Alice")]
    assert [e["seq"] for e in turns[1]["entries"]] == [3, 2, 1]
    assert turns[0]["entries"] == [
        {
            "seq": 4,
            "who": "Bob",
            "text": "Placed a blue vault at c0r1",
            "cells": ["0,1"],
            "event": False,
            "scoring": None,
        }
    ]


def _scored_then_played():
    """Alice's crowned vault triggers the first scoring; Bob then places a vault."""
    state = game()
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE)
    state = act(state, "vault", offer_vault(state, "R", crown=True), at=(1, 0))
    return act(state, "vault", offer_vault(state, "B"), at=(0, 0))


def test_a_scoring_stands_in_the_log_after_the_action_that_caused_it():
    alice = log_turns(view(_scored_then_played(), None), NAMES)[1]
    assert alice["who"] == "Alice"
    assert [(e["text"], e["event"], e["scoring"]) for e in alice["entries"]] == [
        ("Scoring 1 (the queen reached 10): Alice +2, Bob +0.", True, 1),
        ("Placed a red vault (crowned) at c1r0", False, None),
    ]


def test_cells_from_before_the_clean_up_are_not_highlighted():
    bob, alice = log_turns(view(_scored_then_played(), None), NAMES)
    assert bob["entries"][0]["cells"] == ["0,0"]
    assert alice["entries"][1]["cells"] == []


def test_the_2010_edition_scores_when_the_king_arrives():
    state = game(edition="2010")
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE)
    state = act(state, "vault", offer_vault(state, "R", crown=True), at=(1, 0))
    (scoring,) = [
        e for t in log_turns(view(state, None), NAMES) for e in t["entries"] if e["event"]
    ]
    assert scoring["text"] == "Scoring 1 (the king reached 10): Alice +2, Bob +0."


# -- a scoring explained -----------------------------------------------------------------------


@pytest.fixture
def scored():
    """Four areas in one scoring: an Architect with glass (one on an altar), a Strongman's
    tie-break, a Master Mason's majority and a plain tie."""
    state = game(expansion=True)
    state.king = 9
    put(state, (0, 0), "R", builder=WHITE, rank=ARCHITECT)
    put(state, (1, 0), "R", builder=BLACK, glass=True, altar=True)
    put(state, (2, 0), "R", builder=WHITE, glass=True)
    put(state, (3, 0), "Y", builder=BLACK, rank=MASON)
    put(state, (4, 0), "Y", builder=WHITE)
    put(state, (0, 1), "B", builder=WHITE)
    put(state, (1, 1), "B", builder=BLACK, rank=STRONGMAN)
    put(state, (3, 1), "G", builder=WHITE)
    put(state, (4, 1), "G", builder=BLACK)
    state = act(state, "vault", offer_vault(state, "G", crown=True), at=(2, 1))
    return scoring_breakdown(view(state, None), 1, NAMES)


def test_each_area_says_what_it_is_worth(scored):
    assert [(a["color_name"], a["tiles"], a["why"]) for a in scored["areas"]] == [
        ("yellow", 2, "2 tiles = 2"),
        ("blue", 2, "2 tiles = 2"),
        (
            "red",
            3,
            "3 tiles, doubled by an Architect, +2 stained glass, +4 stained glass on an altar = 12",
        ),
        ("green", 3, "3 tiles = 3"),
    ]


def test_each_area_says_who_took_it_and_why(scored):
    assert [a["verdict"] for a in scored["areas"]] == [
        "Bob has the majority, 2 to 1 (a Master Mason counts 2), and scores 2; "
        "Alice scores 1 for 1 builder.",
        "Tied 1 to 1; Bob's Strongman breaks the tie and scores 2; Alice scores 1 for 1 builder.",
        "Alice has the majority, 2 to 1, and scores 12; Bob scores 1 for 1 builder.",
        "Tied 1 to 1: nobody scores.",
    ]
    assert [(a["owner_name"], a["tie"], a["points"]) for a in scored["areas"]] == [
        ("Bob", False, [1, 2]),
        ("Bob", False, [1, 2]),
        ("Alice", False, [12, 1]),
        ("", True, [0, 0]),
    ]


def test_an_area_names_its_cells_as_scored(scored):
    assert scored["areas"][2]["cells"] == ["0,0", "1,0", "2,0"]
    assert len(scored["cathedral"]) == 10


def test_each_player_sees_where_their_points_came_from(scored):
    alice, bob = scored["players"]
    assert [(p["part"], p["points"]) for p in alice["parts"]] == [
        ("areas", 3),
        ("architects", 3),
        ("glass", 4),
        ("altars", 2),
        ("minority", 2),
    ]
    assert [(p["part"], p["points"]) for p in bob["parts"]] == [("areas", 4), ("minority", 1)]
    assert (alice["earned"], alice["before"], alice["after"]) == (14, 0, 14)
    assert (bob["earned"], bob["before"], bob["after"]) == (5, 0, 5)


def test_a_scoring_that_does_not_end_the_game_has_no_ranking(scored):
    assert scored["final"] is False
    assert scored["title"] == "Scoring 1 (the queen reached 10)"
    assert "ranking" not in scored


def test_the_revealed_jester_colours_are_told_with_the_scoring():
    state = act(_jester_picked(), "jester", at=(4, 0), color="G")
    assert scoring_breakdown(view(state, None), 1, NAMES)["jesters"] == [
        "Alice's Jester at c0r0 added blue to its red vault",
        "Bob's Jester at c4r0 added green to its yellow vault",
    ]


def _third_scoring(bob_builder: bool):
    state = game()
    state.king = 29
    state.scorings = 2
    put(state, (0, 0), "R", builder=WHITE)
    if bob_builder:
        put(state, (1, 0), "B", builder=BLACK)
    return act(state, "vault", offer_vault(state, "G", crown=True), at=(4, 0))


def test_the_final_scoring_ranks_the_players():
    final = scoring_breakdown(view(_third_scoring(bob_builder=False), None), 3, NAMES)
    assert final["final"] is True
    assert final["title"] == "Scoring 3, the last (the queen reached 30)"
    assert final["ranking"] == [
        {"seat": WHITE, "name": "Alice", "score": 1, "winner": True},
        {"seat": BLACK, "name": "Bob", "score": 0, "winner": False},
    ]
    assert final["ending"] == "after the third scoring"
    assert final["tie_break"] == ""


def test_equal_totals_share_the_victory_as_there_is_no_tie_break():
    final = scoring_breakdown(view(_third_scoring(bob_builder=True), None), 3, NAMES)
    assert [(r["name"], r["score"], r["winner"]) for r in final["ranking"]] == [
        ("Alice", 1, True),
        ("Bob", 1, True),
    ]
    assert final["tie_break"] == (
        "Equal totals: the players share the victory (Basilica has no tie-break)."
    )


def test_the_end_of_the_game_is_told_in_the_log():
    turns = log_turns(view(_third_scoring(bob_builder=False), None), NAMES)
    assert turns[0]["entries"][0]["text"] == "The game is over: Alice won, 1 to 0."


# -- over random games ---------------------------------------------------------------------------

RANDOM_GAMES = [(config, seed) for config in CONFIGS for seed in range(8)]


@pytest.mark.parametrize(("config", "seed"), RANDOM_GAMES)
def test_every_scoring_adds_up_to_what_the_engine_awarded(config, seed):
    for before, _, after in play(CONFIGS[config], seed):
        if after.scorings == before.scorings:
            continue
        seen = view(after, None)
        (event,) = [e for e in seen["events"] if e.get("number") == after.scorings]
        breakdown = scoring_breakdown(seen, after.scorings, NAMES)
        for p, player in enumerate(breakdown["players"]):
            assert sum(part["points"] for part in player["parts"]) == player["earned"]
            assert player["earned"] == event["points"][p]
            assert sum(area["points"][p] for area in breakdown["areas"]) == player["earned"]
            assert player["before"] == before.players[p].score
            assert player["after"] == after.players[p].score
        assert breakdown["final"] == after.finished
        if after.finished:
            ranking = breakdown["ranking"]
            assert ranking[0]["score"] == max(after.returns())
            assert [r["seat"] for r in ranking if r["winner"]] == list(after.outcome.winners)
            exhausted = after.outcome.termination == "exhaustion"
            assert (breakdown["ending"] == "when the stack ran out a second time") == exhausted


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_entry_of_random_games_is_told_to_every_viewer(config):
    for seed in range(3):
        *_, (_, _, final) = play(CONFIGS[config], seed)
        for viewer in (WHITE, BLACK, None):
            seen = view(final, viewer)
            turns = log_turns(seen, NAMES)
            lines = [line for turn in turns for line in turn["entries"]]
            assert len(lines) == len(seen["log"]) + len(seen["events"])
            assert all(line["text"] for line in lines)
            assert [line["seq"] for line in lines] == sorted(
                (line["seq"] for line in lines), reverse=True
            )
            assert scoring_numbers(seen) == list(range(1, final.scorings + 1))


@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_every_move_of_a_random_game_is_one_sentence(config):
    for _, _, after in play(CONFIGS[config], 1):
        seen = view(after, after.to_decide)
        text = move_summary(last_run(seen), NAMES)
        assert text.startswith(NAMES[seen["log"][-1]["player"]] + " ")
        assert text.endswith(".")
        assert ".." not in text


def test_what_the_story_returns_is_plain_json():
    *_, (_, _, final) = play(CONFIGS["2022+expansion"], 2)
    seen = view(final, None)
    for told_data in (
        log_turns(seen, NAMES),
        *(scoring_breakdown(seen, n, NAMES) for n in scoring_numbers(seen)),
    ):
        assert json.loads(json.dumps(told_data)) == told_data


def _told_afresh(state, viewer, what, *args):
    """``what`` of the view of ``state``, as if nothing had been told of the game before: the
    same game made of new objects, which nothing kept holds."""
    return what(view(copy.deepcopy(state), viewer), *args)


def test_the_log_told_after_every_action_is_the_log_told_afresh():
    """Each page tells the log again after every action (its newest turn anew, the older ones
    kept), and now and then a line of play beside it (an analysis, a bot's search): every turn
    and every scoring reads as a first telling gives it, for each viewer."""
    rng, scorings = random.Random(5), 0
    for seed in range(4):
        for before, _, after in play(CONFIGS["2022+expansion"], seed):
            sibling = apply_action(before, rng.choice(legal_actions(before)))
            for viewer in (WHITE, BLACK, None):
                for state in (sibling, after) if rng.random() < 0.2 else (after,):
                    seen = view(state, viewer)
                    told = log_turns(seen, NAMES)
                    assert told == _told_afresh(state, viewer, log_turns, NAMES)
                for number in scoring_numbers(seen):
                    told = scoring_breakdown(seen, number, NAMES)
                    assert told == _told_afresh(after, viewer, scoring_breakdown, number, NAMES)
                    scorings += 1
    assert scorings > 0


def test_the_log_told_in_one_language_or_with_some_names_is_not_told_in_another():
    state = None
    for _, _, after in play(CONFIGS["2022+expansion"], 1):
        state = after
    seen = view(state, WHITE)
    last = scoring_numbers(seen)[-1]
    english, scored = log_turns(seen, NAMES), scoring_breakdown(seen, last, NAMES)
    with translation.override("fr"):
        french = log_turns(seen, NAMES)
        assert french == _told_afresh(state, WHITE, log_turns, NAMES)
        assert scoring_breakdown(seen, last, NAMES)["title"].startswith("Décompte")
    assert scored["title"].startswith("Scoring")
    assert french[-1]["entries"][-1]["text"] != english[-1]["entries"][-1]["text"]
    others = ["Carol", "Dan"]
    assert log_turns(seen, others)[-1]["who"] in others
    assert [p["name"] for p in scoring_breakdown(seen, last, others)["players"]] == others

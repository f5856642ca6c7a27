"""A record from outside is read strictly: anything that is not a record of this site, for a
game and engine version it has, within its bounds, is refused with a sentence saying why."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from games.archive import records
from games.engine import basilica

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


@pytest.fixture
def record() -> dict:
    return json.loads((GOLDEN / "basilica-2022-expansion.json").read_text())


def refused(data: dict, why: str) -> None:
    with pytest.raises(records.RecordError, match=why):
        records.read(data)


def changed(data: dict, **fields) -> dict:
    return {**copy.deepcopy(data), **fields}


def test_a_golden_record_reads_as_the_game_it_is(record):
    read = records.read(record)
    assert read.kind == "basilica"
    assert read.options == basilica.Options(edition="2022", expansion=True)
    assert read.players == ("ann", "bob")
    assert read.seed == record["seed"]
    assert len(read.actions) == len(read.seats) == len(read.times) == len(record["actions"])
    assert read.result == record["result"]


def test_what_is_not_a_record_of_this_site_is_refused(record):
    refused([], "a JSON object")
    refused(changed(record, format="pgn"), "not a game record of this site")
    refused(changed(record, format_version=2), "version 1 of the record format")
    refused(changed(record, format_version=True), "version 1 of the record format")
    refused(changed(record, comment="hello"), "no field comment")


def test_a_game_or_engine_version_the_site_does_not_have_is_refused(record):
    refused(changed(record, kind="chess"), "no game called 'chess'")
    refused(
        changed(record, engine_version="0"),
        "version '0' of the basilica rules, which this site does not have "
        r"\(it plays versions 1, 2\)",
    )


def test_options_are_read_by_the_games_engine(record):
    refused(changed(record, options={"edition": "1999"}), "not options of Basilica")
    refused(changed(record, options={"players": 3}), "not options of Basilica")
    refused(changed(record, options=[]), "options are a JSON object")


def test_a_record_of_a_game_with_chance_needs_its_seed(record):
    running = changed(record, status="active")
    del running["seed"], running["result"]
    refused(running, "this record has no seed")
    refused(changed(record, seed=-1), "a seed is a whole number")
    refused(changed(record, seed="12"), "a seed is a whole number")


def test_the_bounds_of_a_record(record):
    refused(changed(record, players=["ann", "b" * 151]), "1 to 150 characters")
    refused(changed(record, players=["ann"]), "two players")
    too_many = [dict(record["actions"][0], seq=n) for n in range(1, 2002)]
    refused(changed(record, actions=too_many), "at most 2000 actions")


def test_each_action_is_checked(record):
    def with_action(index: int, **fields) -> dict:
        data = copy.deepcopy(record)
        data["actions"][index].update(fields)
        return data

    refused(with_action(2, seq=7), "action 3 is numbered 7")
    refused(with_action(2, player=2), "action 3: the player is the seat 0 or 1")
    refused(with_action(2, action={"type": "teleport"}), "action 3 is not a Basilica action")
    refused(with_action(2, at="yesterday"), "action 3: its time is a time in ISO 8601")
    refused(with_action(2, user=""), "action 3: the user")
    data = copy.deepcopy(record)
    data["actions"][2]["extra"] = 1
    refused(data, "action 3 is not")


def test_a_result_is_that_of_a_game_over(record):
    refused(changed(record, result=None), "a finished game's result")
    refused(changed(record, result={**record["result"], "winners": [0, 0]}), "list of seats")
    refused(changed(record, result={**record["result"], "scores": [1]}), "two whole numbers")
    refused(changed(record, status="open"), "active, finished or aborted")


def test_a_golden_record_whose_score_was_changed_no_longer_replays(record):
    record["result"]["scores"][1] += 1
    with pytest.raises(records.RecordError, match="but its actions give"):
        records.replay(records.read(record))


# -- no control characters ----------------------------------------------------------------------


def test_no_string_of_a_record_holds_a_control_character(record):
    def with_string(place: str, value: str) -> dict:
        data = copy.deepcopy(record)
        *path, last = place.split(".")
        holder = data
        for key in path:
            holder = holder[int(key)] if isinstance(holder, list) else holder[key]
        holder[int(last) if isinstance(holder, list) else last] = value
        return data

    refused(with_string("players.0", "ann\x00"), r"players\[0\] holds a control character")
    refused(with_string("players.1", "b\tb"), r"players\[1\] holds a control character")
    refused(with_string("players.1", "bob\ud800"), r"players\[1\] holds a control character")
    refused(with_string("actions.2.user", "bob\x1b"), r"actions\[2\]\.user holds")
    refused(with_string("created_at", record["created_at"] + "\x00"), "created_at holds")
    refused(with_string("result.termination", "third scoring\x00"), r"result\.termination holds")
    refused(with_string("options.edition", "2022\x7f"), r"options\.edition holds")
    refused(changed(record, options={"edition\x00": "2022"}), "a field name in options holds")
    refused(changed(record, **{"\x07": 1}), "a field name holds a control character")


# -- a result off the board is one the log can have ---------------------------------------------


def ended_off_the_board(record: dict, moves: int, termination: str, winners: list) -> dict:
    """The record cut after ``moves`` actions and ended there by ``termination``."""
    data = copy.deepcopy(record)
    data["actions"] = data["actions"][:moves]
    data["status"] = "aborted" if termination in ("aborted", "abandoned") else "finished"
    data["result"] = {"winners": winners, "scores": [], "termination": termination}
    return data


def replay_refused(data: dict, why: str) -> None:
    with pytest.raises(records.RecordError, match=why):
        records.replay(records.read(data))


def deciding_after(record: dict, moves: int) -> int:
    state = records.replay(records.read(ended_off_the_board(record, moves, "resignation", [0])))
    return state.to_decide


def test_a_game_lost_on_time_was_won_by_the_player_not_to_decide(record):
    seat = deciding_after(record, 9)
    records.replay(records.read(ended_off_the_board(record, 9, "timeout", [1 - seat])))
    replay_refused(ended_off_the_board(record, 9, "timeout", [seat]), r"^result\.winners: ")


def test_a_clock_that_ran_out_before_a_first_move_abandoned_the_game(record):
    records.replay(records.read(ended_off_the_board(record, 0, "abandoned", [])))
    replay_refused(ended_off_the_board(record, 0, "timeout", [1]), r"^result\.termination: ")
    assert deciding_after(record, 9) in {action["player"] for action in record["actions"][:9]}
    replay_refused(ended_off_the_board(record, 9, "abandoned", []), r"^result\.termination: ")


def test_an_aborted_game_has_no_result_and_both_players_had_not_moved(record):
    records.replay(records.read(ended_off_the_board(record, 1, "aborted", [])))
    refused(ended_off_the_board(record, 1, "aborted", [0]), r"^result\.winners: ")
    replay_refused(ended_off_the_board(record, 9, "aborted", []), r"^result\.termination: ")
    finished = changed(ended_off_the_board(record, 1, "aborted", []), status="finished")
    refused(finished, "^status: ")
    aborted = changed(ended_off_the_board(record, 9, "resignation", [0]), status="aborted")
    refused(aborted, "^status: ")


def test_a_resignation_has_one_winner_and_the_scores_of_its_log(record):
    records.replay(records.read(ended_off_the_board(record, 9, "resignation", [1])))
    refused(ended_off_the_board(record, 9, "resignation", []), r"^result\.winners: ")
    refused(ended_off_the_board(record, 9, "resignation", [0, 1]), r"^result\.winners: ")
    bad_scores = ended_off_the_board(record, 9, "resignation", [1])
    bad_scores["result"]["scores"] = [5, 5]
    replay_refused(bad_scores, r"^result\.scores: .* but its actions give")


def test_a_result_by_the_rules_needs_a_log_that_ends_so(record):
    unfinished = ended_off_the_board(record, 9, "third scoring", [1])
    replay_refused(unfinished, r"^result\.termination: .*its actions do not end it")
    replay_refused(
        changed(record, result={**record["result"], "termination": "exhaustion"}),
        r"^result\.termination: ",
    )
    replay_refused(
        changed(record, result={**record["result"], "winners": [0]}), r"^result\.winners: "
    )


def test_the_winners_and_the_options_of_any_json_are_refused_in_a_sentence(record):
    refused(changed(record, result={**record["result"], "winners": [[0]]}), "list of seats")
    refused(changed(record, options={**record["options"], "altars": {}}), "not options of")
    refused(changed(record, options={**record["options"], "coins": 1e999}), "not options of")

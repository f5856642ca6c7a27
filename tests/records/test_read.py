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

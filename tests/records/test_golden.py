"""The golden records: whole games of both editions, with and without the expansion, and of
Cathedral, replayed through today's engines to the results they were stored with. A change of
the rules that would replay a stored game differently fails here; see the README before
writing them again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import records

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
RECORDS = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_golden_game_replays_to_its_stored_result(path):
    data = load(path)
    state = records.replay(records.read(data))  # checks the result, too
    outcome = state.outcome
    assert state.finished
    assert list(outcome.scores) == data["result"]["scores"]
    assert list(outcome.winners) == data["result"]["winners"]
    assert outcome.termination == data["result"]["termination"]


@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_a_golden_game_replayed_gives_back_its_own_actions(path):
    data = load(path)
    state = records.replay(records.read(data))
    replayed = [
        {"seq": seq, "player": entry["player"], "action": entry["action"]}
        for seq, entry in enumerate(state.history, start=1)
    ]
    stored = [{key: a[key] for key in ("seq", "player", "action")} for a in data["actions"]]
    assert replayed == stored


def test_the_golden_games_cover_both_games_editions_and_the_expansion():
    covered = {
        (d["kind"], d["options"].get("edition"), d["options"].get("expansion", False))
        for d in map(load, RECORDS)
    }
    assert covered >= {
        ("basilica", "2010", False),
        ("basilica", "2010", True),
        ("basilica", "2022", False),
        ("basilica", "2022", True),
        ("cathedral", None, False),
    }
    options = [d["options"] for d in map(load, RECORDS)]
    assert any(o.get("remove_six") for o in options)
    assert any(o.get("lehman") for o in options)
    assert max(len(d["actions"]) for d in map(load, RECORDS)) >= 120

"""The golden records: whole finished games replayed through the engine of their rules version
to the results they were stored with. Version 1's (``engine_version`` "1"): both editions of
Basilica, with and without the expansion, one without six tiles, Cathedral and Lehman's
Cathedral. Version 2's (``*-v2.json``), each for what version 2 changed: Altar orders placing two
altars, one placing a single altar where only one vault could take one
(basilica-2022-expansion-v2), one where only one token was left (basilica-2010-expansion-v2); a
Cathedral move capturing in two regions and both sides' mirrored Abbey and Academy placed
(cathedral-v2). A change of the rules that would replay a stored game differently fails here;
see the README before writing them again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.archive import records
from games.engine import engine_for
from games.engine.cathedral.buildings import parse_label

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


def test_the_records_of_each_rules_version_replay_on_it():
    versions = {path.stem: load(path)["engine_version"] for path in RECORDS}
    v2 = {name for name, version in versions.items() if name.endswith("-v2")}
    assert v2 == {"basilica-2022-expansion-v2", "basilica-2010-expansion-v2", "cathedral-v2"}
    assert all(versions[name] == "2" for name in v2)
    assert all(version == "1" for name, version in versions.items() if name not in v2)
    for path in RECORDS:
        assert records.replay(records.read(load(path))).version == versions[path.stem]


def test_the_cathedral_version_2_record_is_no_legal_game_on_version_1():
    # Read by version 1's rules (no capture in two regions at once, the other Abbeys) the
    # record goes otherwise and soon places on a square that is still built on. (A version-2
    # Basilica game is most often a legal version-1 game too: version 2 only took away a
    # choice, and Confuse in rare positions.)
    data = load(GOLDEN / "cathedral-v2.json")
    with pytest.raises(records.RecordError, match="not a legal game: action"):
        records.replay(records.read({**data, "engine_version": "1"}))


@pytest.mark.parametrize(
    "name",
    ["basilica-2010-expansion", "basilica-2022-expansion", "basilica-2022-expansion-remove-six"],
)
def test_a_version_1_game_that_skipped_a_second_altar_is_no_legal_game_on_version_2(name):
    # Version 1 let a player stop after the first altar; read by version 2, the record stops there.
    data = load(GOLDEN / f"{name}.json")
    skipped = next(a["seq"] for a in data["actions"] if a["action"]["type"] == "skip_altar")
    with pytest.raises(records.RecordError, match=f"action {skipped}: the second altar is not"):
        records.replay(records.read({**data, "engine_version": "2"}))


# -- what each version-2 record is for ----------------------------------------------------------


def replayed(name: str):
    return records.replay(records.read(load(GOLDEN / f"{name}.json")))


def altar_orders(name: str) -> list[tuple[dict, dict, dict | None]]:
    """Each Altar order of a Basilica record: the position as everyone saw it when the order was
    chosen, the order's entry in the history, and the entry after it (None at the end)."""
    state = replayed(name)
    engine = engine_for("basilica", state.version)
    position = engine.new_game(state.options, state.seed)
    history = state.history
    orders = []
    for index, entry in enumerate(history):
        if entry["action"]["type"] == "altar":
            following = history[index + 1] if index + 1 < len(history) else None
            orders.append((engine.view(position, None), entry, following))
        position = engine.apply_action(position, entry["action"])
    return orders


def free_vaults(seen: dict) -> list[tuple[int, int]]:
    """The vaults that could take an altar: not scaffolding, no altar yet."""
    return [(c["col"], c["row"]) for c in seen["cathedral"] if not (c["scaffold"] or c["altar"])]


def is_second_altar(entry: dict | None) -> bool:
    return entry is not None and entry["action"]["type"] == "second_altar"


@pytest.mark.parametrize("name", ["basilica-2010-expansion-v2", "basilica-2022-expansion-v2"])
def test_in_version_2_an_altar_order_places_the_second_altar_whenever_it_can(name):
    orders = altar_orders(name)
    for seen, order, following in orders:
        can = seen["altars_left"] >= 2 and len(free_vaults(seen)) >= 2
        assert is_second_altar(following) == can
        if can:
            assert following["player"] == order["player"]
    assert any(is_second_altar(following) for _, _, following in orders)
    assert all(h["action"]["type"] != "skip_altar" for h in replayed(name).history)


def test_an_altar_order_places_one_altar_where_only_one_vault_can_take_one():
    single = [
        (seen, order)
        for seen, order, following in altar_orders("basilica-2022-expansion-v2")
        if not is_second_altar(following) and seen["altars_left"] > 1
    ]
    assert single
    for seen, order in single:
        assert free_vaults(seen) == [(order["action"]["col"], order["action"]["row"])]


def test_an_altar_order_places_one_altar_when_one_token_is_left():
    name = "basilica-2010-expansion-v2"
    [(seen, _, following)] = [o for o in altar_orders(name) if o[0]["altars_left"] == 1]
    assert len(free_vaults(seen)) > 1  # room for two: the supply is what is short
    assert not is_second_altar(following)
    state = replayed(name)
    assert engine_for("basilica", state.version).view(state, None)["altars_left"] == 0


def test_a_version_2_cathedral_move_captures_in_two_regions_at_once():
    state = replayed("cathedral-v2")
    log = engine_for("cathedral", state.version).view(state, None)["log"]
    [entry] = [e for e in log if len(e["captures"]) > 1]
    # A region holding two foreign pieces captures neither: two captures are two regions.
    captures = entry["captures"]
    assert len(captures) == 2
    assert all(c["owner"] in (1 - entry["player"], "cathedral") for c in captures)
    first, second = ({parse_label(label) for label in c["cells"]} for c in captures)
    assert not first & second
    assert first | second <= {tuple(square) for square in entry["claimed"]}


# Dark's Abbey is the Z and its Academy the F; light's are their mirror images (row 0 on top).
DRAWN = {
    "dark": {"abbey": ("##.", ".##"), "academy": (".##", "##.", ".#.")},
    "light": {"abbey": (".##", "##."), "academy": ("##.", ".##", ".#.")},
}


def at_corner(squares: set[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    low_col = min(col for col, _ in squares)
    low_row = min(row for _, row in squares)
    return frozenset((col - low_col, row - low_row) for col, row in squares)


def squares_of(labels: list[str]) -> frozenset[tuple[int, int]]:
    """The shape a building covers on the board, by the labels of its squares ("D4")."""
    return at_corner({parse_label(label) for label in labels})


def turns(drawing: tuple[str, ...]) -> set[frozenset[tuple[int, int]]]:
    """The squares of a building drawn as ``drawing`` in each of its four turns, never flipped."""
    squares = {
        (c, r) for r, line in enumerate(drawing) for c, mark in enumerate(line) if mark == "#"
    }
    found = set()
    for _ in range(4):
        found.add(at_corner(squares))
        squares = {(-row, col) for col, row in squares}
    return found


def test_in_the_cathedral_version_2_record_each_side_places_its_own_abbey_and_academy():
    state = replayed("cathedral-v2")
    seen = engine_for("cathedral", state.version).view(state, None)
    placed = {
        (seen["colours"][e["player"]], e["action"]["building"]): squares_of(e["cells"])
        for e in seen["log"]
        if e["kind"] == "place" and e["action"]["building"] in ("abbey", "academy")
    }
    assert set(placed) == {(colour, key) for colour in DRAWN for key in ("abbey", "academy")}
    for (colour, key), squares in placed.items():
        other = "light" if colour == "dark" else "dark"
        assert squares in turns(DRAWN[colour][key])
        assert squares not in turns(DRAWN[other][key])

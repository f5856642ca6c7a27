"""The arena runs (as CI runs it: few games, a tiny budget) and reports what it promises."""

from __future__ import annotations

import re

import pytest

from games.bots import arena

LINE = re.compile(
    r"^(?P<variant>[\w-]+): (?P<a>[\w()]+) vs (?P<b>[\w()]+): (?P<won>[\d.]+) of 4 won "
    r"\((?P<rate>[\d.]+)%, 95% CI (?P<low>[\d.]+)%-(?P<high>[\d.]+)%\); moves per second: "
    r"(?P=a) [\d,]+, (?P=b) [\d,]+; \d+ actions a game; \d+ s$"
)


def test_the_arena_plays_each_match_in_each_variant_and_prints_win_rates(capsys):
    argv = ["--games", "4", "--match", "greedy,random", "--match", "search:3,random"]
    argv += ["--variant", "basilica-2022", "--variant", "cathedral", "--processes", "2"]
    assert arena.main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    found = [LINE.match(line) for line in lines]
    assert all(found), lines
    assert [(m["variant"], m["a"], m["b"]) for m in found] == [
        ("basilica-2022", "greedy", "random"),
        ("cathedral", "greedy", "random"),
        ("basilica-2022", "search(3)", "random"),
        ("cathedral", "search(3)", "random"),
    ]
    for m in found:
        assert float(m["low"]) <= float(m["rate"]) <= float(m["high"])


def test_the_same_arena_plays_the_same_games():
    bots = (arena.parse_bot("search:3", None), arena.parse_bot("greedy", None))
    tasks = [("basilica-2010-expansion", 7, seat, bots) for seat in (0, 1)]
    first = [arena.play(task) for task in tasks]
    again = [arena.play(task) for task in tasks]
    assert [(p.score, p.actions) for p in first] == [(p.score, p.actions) for p in again]


def test_wilson_intervals():
    low, high = arena.wilson(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    low, high = arena.wilson(4, 4)
    assert high == 1.0
    assert round(low, 3) == 0.510


def test_a_match_names_two_known_bots():
    with pytest.raises(SystemExit):
        arena.main(["--match", "greedy"])
    with pytest.raises(SystemExit):
        arena.main(["--match", "clever,random"])
    with pytest.raises(SystemExit):
        arena.main(["--match", "search:many,random"])
    assert arena.parse_bot("search:large", None).name == "search(800)"

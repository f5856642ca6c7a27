"""`make load` runs: its command, with tiny arguments, prints every figure beside its target.
(No figure is checked here: timings on a shared machine are for the README, not for a test.)"""

from __future__ import annotations

import io
from functools import partial

import pytest
from django.core.management import call_command
from test_concurrency import in_threads, threads_on_a_file_copy

from games.play import states


@pytest.mark.django_db(transaction=True)
def test_the_load_command_prints_each_figure_beside_its_target(settings, tmp_path):
    settings.DEBUG = False  # as the command sets it; restored after the test
    out = io.StringIO()
    # In a thread of its own, on a file copy of the test database, as `make load` runs on a
    # file: the flood's posts go through the ASGI application, whose requests each write from a
    # thread and connection of their own, beside the moves.
    run = partial(
        call_command,
        "load_site",
        "--growth-games=1",
        "--live-games=2",
        "--think=0.03",
        "--spectators=3",
        "--memory-games=2",
        "--memory-moves=20",
        "--chat-games=2",
        "--chat-every=0.01",
        "--chat-flooders=1",
        stdout=out,
    )
    with threads_on_a_file_copy(tmp_path):
        (outcome,) = in_threads(run)
    assert outcome is None, outcome
    states.forget_cached_states()  # the command's games are gone with the test's database
    lines = out.getvalue().splitlines()
    for figure, target in [
        ("move POST late ÷ early", "target ≤ 1.2"),
        ("move → push, 2 games at once", "target < 50 ms"),
        ("move → last of 3 spectators", "target < 150 ms"),
        ("memory over 20 moves", "target 0.9-1.1"),
        ("move → push, 2 games, no chat", "p99"),
        ("move → push, 2 games, 1 flooded", "target: at most 1.5 times the quiet p99"),
    ]:
        assert any(line.startswith(figure) and target in line for line in lines), figure

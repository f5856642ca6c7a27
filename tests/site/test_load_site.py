"""`make load` runs: its command, with tiny arguments, prints every figure beside its target.
(No figure is checked here: timings on a shared machine are for the README, not for a test.)"""

from __future__ import annotations

import io
import re
import threading
from functools import partial

import pytest
from django.core.management import call_command
from django.db import connections
from test_concurrency import threads_on_a_file_copy

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
        "--chat-rounds=2",
        stdout=out,
    )
    failures = []

    def in_a_thread():
        try:
            run()
        except Exception as error:
            failures.append(error)
        finally:
            connections.close_all()

    with threads_on_a_file_copy(tmp_path):
        thread = threading.Thread(target=in_a_thread)
        thread.start()
        thread.join()  # however long it takes: its database is this block's
    assert failures == []
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
    # The flood went through the chat: some lines stored, and then posts answered at the gate.
    (flood,) = [line for line in lines if line.startswith("move → push, 2 games, 1 flooded")]
    posts, refused, gated = map(
        int,
        re.search(
            r"(\d+) chat posts, (\d+) of them refused .*\((\d+) at the gate\)", flood
        ).groups(),
    )
    assert posts > refused >= gated > 0, flood
    # Quiet and flooded phases in turns, two rounds (2 games of 10 moves a phase), every
    # round's own ratio shown beside the pooled one.
    assert "40 moves in 2 rounds" in lines[lines.index(flood) - 1], lines
    assert len(re.search(r"each round's ratio ([\d., ]+);", flood).group(1).split(", ")) == 2

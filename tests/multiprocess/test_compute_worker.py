"""A compute worker killed in the middle of a bot's move, with the task runner's real consumers
(`manage.py run_compute`) on the embedded default's SQLite files: the game stays playable, the
minute sweep asks for the move once more, another worker plays it, and only once."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from huey import SqliteHuey

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.multiprocess

SETUP = """
from django.contrib.auth.models import User
from games.play import computer
from games.terms import GameSettings
alice = User.objects.create_user("alice", password="a long enough password 1")
terms = GameSettings(first="opponent", time_control="3d")
print(computer.play_the_computer(alice, terms, "search").pk)
"""


@pytest.fixture
def site(tmp_path):
    env = {
        key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        HUEY_SQLITE=str(tmp_path / "huey.sqlite3"),
        DJANGO_SETTINGS_MODULE="basilica_site.settings",
        DJANGO_DEBUG="1",
        HUEY_LOG_LEVEL="INFO",
        COMPUTER_WATCH_SECONDS="0",
    )
    env.pop("HUEY_IMMEDIATE", None)
    manage(env, "migrate", "--noinput", "-v0")
    game = int(manage(env, "shell", "-c", SETUP).split()[-1])
    return env, tmp_path, game


def manage(env: dict, *command: str) -> str:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *command],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def consumer(env: dict, log: Path, simulations: int) -> subprocess.Popen:
    with open(log, "w") as output:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), "run_compute", "--workers", "1"],
            env={**env, "COMPUTER_SIMULATIONS": str(simulations)},
            cwd=ROOT,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def until(look, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = look()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("it never happened")


def game_row(path: Path, game: int) -> tuple[int, int, str]:
    with sqlite3.connect(path / "site.sqlite3") as db:
        return db.execute(
            "SELECT seq, to_decide, status FROM games_game WHERE id = ?", [game]
        ).fetchone()


def test_a_worker_killed_in_the_middle_of_a_move_leaves_it_to_be_asked_for_again(site):
    env, path, game = site
    compute = SqliteHuey("basilica-compute", filename=str(path / "huey.sqlite3"))
    key = f"computer-move:{game}:0"
    # A worker takes the move and thinks for a very long time, then is killed.
    first = consumer(env, path / "first.log", simulations=10**7)
    try:
        until(lambda: (compute.get(key, peek=True) or {}).get("state") == "thinking")
        workers = until(lambda: children(first.pid))
        for worker in workers:
            os.kill(worker, signal.SIGKILL)
    finally:
        stop(first)
    assert game_row(path, game)[:2] == (0, 1)  # still the bot's decision, nothing half-written
    assert compute.pending_count() == 0  # the task died with its worker

    # Not asked again while the search could still be going on somewhere.
    patient = manage({**env, "COMPUTER_STALLED_SECONDS": "3600"}, "sweep_games")
    assert "0 bot move(s) asked for again" in patient
    second = consumer(env, path / "second.log", simulations=20)
    try:
        swept = manage({**env, "COMPUTER_STALLED_SECONDS": "0"}, "sweep_games")
        assert "1 bot move(s) asked for again" in swept
        until(lambda: game_row(path, game)[1] == 0)  # the bot moved: the player's turn
    finally:
        stop(second)
    with sqlite3.connect(path / "site.sqlite3") as db:
        seqs = [
            seq for (seq,) in db.execute("SELECT seq FROM games_action WHERE game_id = ?", [game])
        ]
    assert seqs  # the bot played ...
    assert seqs == list(range(1, len(seqs) + 1))  # ... each point once, none twice
    assert compute.get(key, peek=True) is None  # done with: nothing left to ask again

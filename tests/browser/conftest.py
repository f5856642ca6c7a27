"""A real site for the browser tests: daphne on a fresh SQLite file, and Debian's Chromium.

These tests talk to the server over HTTP and websockets like any visitor, so they use neither
pytest-django's test database nor its ``live_server`` (which cannot serve websockets).
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from .site import Visitor

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_until_up(url: str, server: subprocess.Popen, log: Path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"daphne exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"daphne did not answer {url} within {timeout}s:\n{log.read_text()[-3000:]}")


class Site:
    """The running site: its address, and its database for fixing a game's deal."""

    def __init__(self, url: str, database: Path) -> None:
        self.url = url
        self.database = database

    def fix_deal(self, game_id: int, seed: int) -> None:
        """Give a game that nobody has seen yet a known shuffle, so that a run is repeatable.

        The server draws each game's seed at random; a test that steers its clicks with a seeded
        random.Random only replays exactly when the tiles come out in the same order too.
        """
        with sqlite3.connect(self.database) as db:
            changed = db.execute(
                "UPDATE games_game SET seed = ? WHERE id = ? AND status = 'open' AND seq = 0",
                (seed, game_id),
            ).rowcount
        assert changed == 1, f"game {game_id} is no longer waiting for its opponent"

    def replayed(self, game_id: int):
        """The game rebuilt by the rules engine from the site's database: the truth a page is
        checked against (seed, options and the action log, as the site stores them)."""
        from games.engine import engine_for

        with sqlite3.connect(self.database) as db:
            kind, options, seed = db.execute(
                "SELECT kind, options, seed FROM games_game WHERE id = ?", (game_id,)
            ).fetchone()
            actions = [
                json.loads(data)
                for (data,) in db.execute(
                    "SELECT data FROM games_action WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            ]
        engine = engine_for(kind)
        return engine.replay(engine.Options.from_json(json.loads(options)), seed, actions)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Site:
    """The site, served by daphne on its own SQLite file for the whole session."""
    workdir = tmp_path_factory.mktemp("site")
    database = workdir / "db.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "DJANGO_DEBUG": "1",  # WhiteNoise then serves static files straight from the finders
        "DJANGO_SETTINGS_MODULE": "basilica_site.settings",
        "PYTHONUNBUFFERED": "1",
        "HUEY_SQLITE": str(workdir / "huey.sqlite3"),
        "NOTIFY_DELAY_SECONDS": "1",
        # Every visitor of every browser test signs up from 127.0.0.1 within the hour.
        "SIGNUPS_PER_HOUR": "1000",
        "GAMES_PER_HOUR": "1000",
    }
    env.pop("HUEY_IMMEDIATE", None)
    env.pop("REDIS_URL", None)  # one daphne process: the in-memory channel layer is enough
    bindir = Path(sys.executable).parent
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )
    port = _free_port()
    log = workdir / "daphne.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                str(bindir / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "basilica_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        # The task runner's consumers, as `make run` starts them beside the web server: the
        # light queue's, and the compute queue's (one worker: the browser needs the other core).
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "run_huey"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        compute = subprocess.Popen(
            [sys.executable, "manage.py", "run_compute", "--workers", "1"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(f"{url}/", server, log)
        yield Site(url, database)
    finally:
        for process in (server, worker, compute):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="session")
def browser() -> Browser:
    if not CHROMIUM.exists():
        pytest.fail("Debian's Chromium is missing: `make test-browser` installs it with apt-get")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def visitors(site, browser, request):
    """Signs up visitors, each in a browser context of their own; closes them after the test.

    Every visitor's console errors and page errors fail the test, unless the test expected them.
    """
    made: list[Visitor] = []

    def visit(role: str) -> Visitor:
        visitor = Visitor.sign_up(browser, site.url, role, request.node.name)
        made.append(visitor)
        return visitor

    yield visit
    try:
        for visitor in made:
            visitor.assert_no_console_errors()
    finally:
        for visitor in made:
            visitor.close()

"""Two daphne processes on one PostgreSQL and one Redis: a move made through one process is
pushed to a player whose socket is on the other."""

from __future__ import annotations

import asyncio
import http.cookies
import json
import os
import re
import secrets
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from games.management.commands.load_scaling import running_daphnes

from .services_up import ensure_postgres, ensure_redis

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.multiprocess

SETUP = """
import json
from django.test import Client
from django.contrib.auth.models import User
from games.play import services, states
from games.engine import basilica as engine
ann = User.objects.create_user("ann", "ann@example.com", "a long enough password 1")
bob = User.objects.create_user("bob", "bob@example.com", "a long enough password 2")
game = services.create_game(ann, services.GameSettings(options={"edition": "2010"}, first="me"))
game = services.accept_game(game, bob)
move = engine.legal_actions(states.load_state(game))[0].to_json()
sessions = {}
for user in (ann, bob):
    client = Client()
    client.force_login(user)
    sessions[user.username] = client.cookies["sessionid"].value
print(json.dumps({"game": game.pk, "move": move, "sessions": sessions}))
"""


@pytest.fixture(scope="module")
def database_url():
    problem = ensure_postgres()
    if problem:
        pytest.skip(problem)
    import psycopg

    name = f"basilica_mp_{secrets.token_hex(4)}"
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def redis_url():
    problem = ensure_redis()
    if problem:
        pytest.skip(problem)
    return "redis://127.0.0.1:6379/7"


@pytest.fixture(scope="module")
def site_env(database_url, redis_url):
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DJANGO_SETTINGS_MODULE": "basilica_site.settings",
        "DJANGO_DEBUG": "1",
    }
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    setup = subprocess.run(
        [*manage, "shell", "-c", SETUP],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    facts = json.loads(setup.stdout.strip().splitlines()[-1])
    return env, facts


NEW_GAME = """
import json
from django.contrib.auth.models import User
from games.play import services, states
from games.engine import basilica as engine
ann, bob = User.objects.get(username="ann"), User.objects.get(username="bob")
game = services.create_game(ann, services.GameSettings(options={"edition": "2010"}, first="me"))
game = services.accept_game(game, bob)
print(json.dumps({"game": game.pk, "move": engine.legal_actions(states.load_state(game))[0].to_json()}))
"""


def new_game(env: dict) -> dict:
    """A fresh game between ann and bob, at its first move (ann's)."""
    made = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", NEW_GAME],
        env=env,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(made.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def two_daphnes(site_env):
    env, facts = site_env
    with running_daphnes(env, 2) as (ports, _pids):
        yield ports, facts


def post_move(port: int, game: int, session: str, move: dict, seq: int) -> int:
    """Play a move as a browser would: GET the page for a CSRF token, then POST the form."""
    base = f"http://127.0.0.1:{port}"
    page = urllib.request.Request(
        f"{base}/games/{game}/", headers={"Cookie": f"sessionid={session}"}
    )
    with urllib.request.urlopen(page, timeout=10) as response:
        cookies = http.cookies.SimpleCookie()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookies.load(header)
        html = response.read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    csrf_cookie = cookies["csrftoken"].value
    body = urllib.parse.urlencode(
        {"action": json.dumps(move), "seq": seq, "csrfmiddlewaretoken": token}
    ).encode()
    post = urllib.request.Request(
        f"{base}/games/{game}/act/",
        data=body,
        headers={"Cookie": f"sessionid={session}; csrftoken={csrf_cookie}", "HX-Request": "true"},
    )
    with urllib.request.urlopen(post, timeout=10) as response:
        return response.status


async def watch_then_move(ports, facts, quiet: float = 0) -> str:
    """Bob's socket opened on one process; ``quiet`` seconds later, Ann's move posted through the
    other; the first push Bob's socket then receives."""
    import websockets

    watch_port, move_port = ports
    game = facts["game"]
    async with websockets.connect(
        f"ws://127.0.0.1:{watch_port}/ws/games/{game}/",
        additional_headers={
            "Cookie": f"sessionid={facts['sessions']['bob']}",
            "Origin": f"http://127.0.0.1:{watch_port}",
        },
        open_timeout=10,
    ) as bobs_socket:
        hello = json.loads(await asyncio.wait_for(bobs_socket.recv(), 10))
        assert hello == {"type": "seq", "seq": 0, "status": "active"}
        await asyncio.sleep(quiet)
        status = await asyncio.to_thread(
            post_move, move_port, game, facts["sessions"]["ann"], facts["move"], 0
        )
        assert status == 200
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            message = await asyncio.wait_for(bobs_socket.recv(), 10)
            if not message.startswith("{"):
                return message
    raise AssertionError("no push arrived on the other process")


def test_a_move_through_one_daphne_is_pushed_by_the_other(two_daphnes):
    ports, facts = two_daphnes
    push = asyncio.run(watch_then_move(ports, facts))
    assert 'data-seq="1"' in push
    assert 'id="board"' in push


def test_a_socket_quiet_for_longer_than_redis_waits_still_hears_the_next_move(
    two_daphnes, site_env
):
    """A correspondence player's page sits quiet for minutes. Its socket's wait on Redis (a
    blocking pop that Redis ends after 5 s, then begins again) must not be cut short by the client's own read
    timeout, which would close the socket and make the page reconnect every few seconds."""
    ports, _facts = two_daphnes
    env, facts = site_env
    game = new_game(env)
    push = asyncio.run(watch_then_move(ports, {**facts, **game}, quiet=11))  # two pops' waits
    assert 'data-seq="1"' in push


def profile_page(port: int, name: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/players/{name}/", timeout=10) as page:
        return page.read().decode()


async def online_elsewhere(ports, facts) -> str:
    """Bob's lobby socket lives on one process; his page is read through the other."""
    import websockets

    socket_port, page_port = ports
    async with websockets.connect(
        f"ws://127.0.0.1:{socket_port}/ws/lobby/?since={time.time()}",
        additional_headers={
            "Cookie": f"sessionid={facts['sessions']['bob']}",
            "Origin": f"http://127.0.0.1:{socket_port}",
        },
        open_timeout=10,
    ):
        await asyncio.sleep(0.5)
        return await asyncio.to_thread(profile_page, page_port, "bob")


def test_a_socket_on_one_daphne_shows_its_player_online_on_the_other(two_daphnes):
    ports, facts = two_daphnes
    assert "Online now" in asyncio.run(online_elsewhere(ports, facts))

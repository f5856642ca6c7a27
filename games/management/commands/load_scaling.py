"""`manage.py load_scaling`: do two daphne processes on PostgreSQL and Redis carry more moves a
second than one? The figure of issue 10 (target: at least 1.7 times; issue 27 asks 1.8),
measured in one run:

1. a fresh PostgreSQL database (dropped at the end) and a Redis database of its own (emptied
   before and after), migrated; games set up in a child process, with a session per player;
2. one daphne on a loopback port, then two, each started as the README's deployment does;
3. a lean load generator (this process: asyncio, raw HTTP/1.1 kept alive, websockets, the pure
   engine for legal moves; no Django in its loop): every game in flight plays in a closed loop,
   the player deciding posts a move as htmx does (to the daphnes in turn, as a proxy would),
   and the move counts once the opponent's socket (on the other daphne) has its push.

Nothing leaves 127.0.0.1; every loop is bounded in moves and in time. Exits 0 with a message
when PostgreSQL or Redis cannot be had.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from games.engine import basilica as engine

ROOT = Path(settings.BASE_DIR)
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DB = 11  # the load's own: emptied before and after
CSRF = secrets.token_hex(16)  # a CSRF secret of 32 characters, sent as cookie and form field

SETUP = """
import json, os
from django.contrib.auth.models import User
from django.test import Client
from games.play import services
from games.models import Game
games = []
for i in range(int(os.environ["LOAD_GAMES"])):
    ann = User.objects.create_user(f"load{i}a", password="a long enough password 1")
    bob = User.objects.create_user(f"load{i}b", password="a long enough password 1")
    game = services.create_game(ann, services.GameSettings(first="me"))
    Game.objects.filter(pk=game.pk).update(seed=i + 1)
    game = services.accept_game(Game.objects.get(pk=game.pk), bob)
    sessions = []
    for user in (ann, bob):
        client = Client()
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    games.append({"pk": game.pk, "seed": game.seed, "options": game.options, "sessions": sessions})
print(json.dumps(games))
"""


class Command(BaseCommand):
    help = "Moves a second carried by one daphne and by two, on PostgreSQL and Redis (issue 10)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=40, help="games in flight at once")
        parser.add_argument("--seconds", type=float, default=20, help="measured, per setting")
        parser.add_argument("--warmup", type=float, default=4, help="not measured, per setting")

    def handle(self, *args, **options):
        sys.path.insert(0, str(ROOT / "tests" / "multiprocess"))
        from services_up import ensure_postgres, ensure_redis

        problem = ensure_postgres() or ensure_redis()
        if problem:
            self.stdout.write(f"two daphnes: not measured: {problem}")
            return
        count, seconds, warmup = options["games"], options["seconds"], options["warmup"]
        with fresh_database() as database_url:
            redis_url = f"redis://127.0.0.1:6379/{REDIS_DB}"
            flush_redis()
            env = {
                **os.environ,
                "DATABASE_URL": database_url,
                "REDIS_URL": redis_url,
                "DJANGO_SETTINGS_MODULE": "basilica_site.settings",
                "DJANGO_DEBUG": "1",
                "DB_CONN_MAX_AGE": "60",
            }
            try:
                games = prepare(env, 2 * count)
                rates = {}
                for daphnes, share in ((1, games[:count]), (2, games[count:])):
                    with running_daphnes(env, daphnes) as (ports, pids):
                        before = cpu_seconds(pids)
                        rates[daphnes] = asyncio.run(drive(ports, share, seconds, warmup))
                        rates[daphnes]["cpu"] = {
                            name: (cpu_seconds(pids)[name] - spent) / (seconds + warmup)
                            for name, spent in before.items()
                        }
                        self.say(f"{daphnes} daphne{'s' if daphnes > 1 else ''}", rates[daphnes])
            finally:
                flush_redis()
        ratio = rates[2]["rate"] / rates[1]["rate"]
        self.stdout.write(
            f"{'two daphnes ÷ one, moves a second':34} {ratio:.2f} (target ≥ 1.8; "
            f"{rates[1]['rate']:.0f} → {rates[2]['rate']:.0f} moves/s, {count} games in flight, "
            f"{os.cpu_count()} cores shared by the daphnes, PostgreSQL, Redis and the generator)"
        )

    def say(self, name: str, figures: dict) -> None:
        self.stdout.write(
            f"{name:34} {figures['rate']:.0f} moves/s ({figures['moves']} moves in "
            f"{figures['seconds']:.0f} s; move → opponent's push median "
            f"{figures['median'] * 1000:.0f} ms, p99 {figures['p99'] * 1000:.0f} ms; "
            f"{figures['errors']} errors{_reasons(figures['reasons'])})"
        )
        cpu = figures["cpu"]
        daphnes = ", ".join(f"{cpu[f'daphne {n}']:.0%}" for n in range(len(cpu) - 2))
        self.stdout.write(
            f"{'':34} cores busy: daphne {daphnes}; the generator {cpu['generator']:.0%}; "
            f"the whole machine {cpu['machine']:.0%} busy (other work included)"
        )
        self.stdout.flush()


# -- the services ------------------------------------------------------------------------------


@contextlib.contextmanager
def fresh_database():
    import psycopg

    name = f"basilica_load_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def flush_redis() -> None:
    import redis

    redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB).flushdb()


def prepare(env: dict, count: int) -> list[dict]:
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    setup = subprocess.run(
        [*manage, "shell", "-c", SETUP],
        env={**env, "LOAD_GAMES": str(count)},
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(setup.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def running_daphnes(env: dict, count: int):
    sys.path.insert(0, str(ROOT / "tests" / "multiprocess"))
    from services_up import wait_for

    daphne = str(Path(sys.executable).parent / "daphne")
    ports = [free_port() for _ in range(count)]
    processes = [
        subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "basilica_site.asgi:application"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for port in ports:
            if not wait_for(port, 30):
                raise RuntimeError(f"daphne did not start on port {port}")
        yield ports, [p.pid for p in processes]
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def _reasons(reasons: dict) -> str:
    return ": " + ", ".join(f"{n} {why}" for why, n in sorted(reasons.items())) if reasons else ""


def cpu_seconds(pids: list[int]) -> dict[str, float]:
    """CPU time spent so far by each daphne, by this process (the generator), and by the whole
    machine (in cores: all the processes of everyone, the database and Redis too)."""
    tick = os.sysconf("SC_CLK_TCK")
    spent = {}
    for number, pid in enumerate(pids):
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        spent[f"daphne {number}"] = (int(fields[11]) + int(fields[12])) / tick
    spent["generator"] = time.process_time()
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, *rest = map(int, stat.readline().split()[1:])
    spent["machine"] = (user + nice + system + sum(rest[:3])) / tick / (os.cpu_count() or 1)
    return spent


# -- the load generator ------------------------------------------------------------------------


class Http:
    """One kept-alive HTTP/1.1 connection to a daphne: just enough to post a move."""

    def __init__(self, port: int):
        self.port = port
        self.reader = self.writer = None

    async def post(self, path: str, form: dict, cookie: str) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        body = urllib.parse.urlencode(form).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Cookie: {cookie}\r\nHX-Request: true\r\nHX-Target: live\r\n"
            f"Referer: http://127.0.0.1:{self.port}/\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        status = int((await self.reader.readline()).split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            await self.reader.readexactly(int(headers["content-length"]))
        else:  # chunked
            while size := int((await self.reader.readline()).strip(), 16):
                await self.reader.readexactly(size + 2)
            await self.reader.readline()
        return status

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def drive(ports: list[int], games: list[dict], seconds: float, warmup: float) -> dict:
    """Every game in a closed loop until the time is up; the moves finished in the measured
    window, per second, and their latencies."""
    import websockets

    started = time.monotonic()
    window = (started + warmup, started + warmup + seconds)
    done: list[float] = []
    errors = [0]
    reasons: collections.Counter = collections.Counter()

    async def connect(port: int, pk: int, cookie: str):
        # As the game page does (htmx's ws extension): a socket closed before it opened is
        # opened again after a pause (daphne closes one its application has not accepted within
        # 5 s: 80 at once on a process just started, on a slow machine). Counted: it costs the
        # player a moment.
        for attempt in range(4):
            try:
                return await open_socket(port, pk, cookie)
            except (websockets.InvalidHandshake, OSError):
                reasons["socket opened again"] += 1
                await asyncio.sleep(1 + attempt)
        return await open_socket(port, pk, cookie)  # a fifth time, or the run stops saying why

    async def play(number: int, game: dict) -> None:
        # Each player's socket and posts on a daphne of their own (the other one's if two).
        homes = [ports[(number + seat) % len(ports)] for seat in (0, 1)]
        cookies = [f"sessionid={s}; csrftoken={CSRF}" for s in game["sessions"]]
        sockets = [await connect(homes[seat], game["pk"], cookies[seat]) for seat in (0, 1)]
        posts = [Http(homes[0]), Http(homes[1])]
        state = engine.new_game(engine.Options.from_json(game["options"]), game["seed"])
        rng = random.Random(game["pk"])
        try:
            while time.monotonic() < window[1] and not state.finished:
                seat = state.to_decide
                action = random_action(state, rng)
                form = {
                    "action": json.dumps(action.to_json()),
                    "seq": len(state.history),
                    "csrfmiddlewaretoken": CSRF,
                }
                start = time.monotonic()
                status = await asyncio.wait_for(
                    posts[seat].post(f"/games/{game['pk']}/act/", form, cookies[seat]), 30
                )
                state = engine.apply_action(state, action)
                if status != 200:
                    errors[0] += 1
                    reasons[f"HTTP {status}"] += 1
                    return
                await asyncio.wait_for(push_of(sockets[1 - seat], len(state.history)), 30)
                end = time.monotonic()
                if window[0] <= start and end <= window[1]:
                    done.append(end - start)
        except (TimeoutError, OSError, websockets.ConnectionClosed) as error:
            errors[0] += 1
            reasons[type(error).__name__] += 1
        finally:
            for post in posts:
                post.close()
            for ws in sockets:
                await ws.close()

    await asyncio.gather(*(play(n, g) for n, g in enumerate(games)))
    ordered = sorted(done) or [0.0]
    return {
        "rate": len(done) / seconds,
        "moves": len(done),
        "seconds": seconds,
        "median": statistics.median(ordered),
        "p99": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "errors": errors[0],
        "reasons": dict(reasons),
    }


async def open_socket(port: int, pk: int, cookie: str):
    import websockets

    return await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/games/{pk}/",
        additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
        open_timeout=20,
        max_size=2**22,
        compression=None,  # a browser would inflate; the lean generator need not
        max_queue=None,  # read on: a socket left unread would stop answering pings
    )


async def push_of(ws, seq: int) -> None:
    """Wait for the push that carries ``seq`` (notices and older pushes are skipped)."""
    mark = f'data-seq="{seq}"'
    while True:
        message = await ws.recv()
        if not message.startswith("{") and mark in message:
            return


def random_action(state, rng: random.Random):
    actions = engine.legal_actions(state)
    kind = rng.choice(sorted({a.kind for a in actions}))
    return rng.choice([a for a in actions if a.kind == kind])

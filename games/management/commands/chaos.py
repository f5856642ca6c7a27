"""`manage.py chaos` (`make chaos`): faults survived, measured.

Games are played on PostgreSQL and Redis of the run's own (a PostgreSQL cluster made for it in a
temporary folder, a Redis server on a free port: the machine's own are never stopped), behind
two daphnes and the task runner's worker, as the README's deployment runs them. While they are
played, one fault at a time:

1. one daphne is killed: its players' posts and sockets move to the other one (as a proxy does)
   and their pages catch up by seq; the daphne is started again afterwards;
2. Redis is restarted (it keeps nothing): the channel layer's groups are gone with it, and every
   socket must still hear the next moves;
3. PostgreSQL is restarted, three times in a row: a move in flight gets an answer that says so,
   nothing is half written, and the connections recover;
4. the clock sweep is killed in its middle (the worker's minute task, run on its own): the next
   sweep ends every game still out of time, and no email goes out twice.

For each fault it prints the moves attempted, landed, refused with a message, lost (a move
answered as made that the database does not hold: must be 0), doubled (an action in the database
that no answered move explains: must be 0), and the pushes missed and recovered by catching up.
The truth is read from the database at the end. Nothing leaves 127.0.0.1; it says so and exits 0
where PostgreSQL or Redis cannot be had.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import glob
import itertools
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from games.engine import basilica as engine
from games.management.commands.load_scaling import CSRF, free_port, prepare, random_action

ROOT = Path(settings.BASE_DIR)
FAULTS = ("kill a daphne", "restart Redis", "restart PostgreSQL")
# A restart catches a request at one point of its work: each of three, at another. A session read
# before the view met a closed connection in about one run of ten with a single restart.
PG_RESTARTS = 3
PUSH_WAIT = 4.0  # seconds a page waits for a push before it looks for itself, as the page does

LATE = """
import json, os
from django.contrib.auth.models import User
from games.play import services
# Live games whose first player will not move: made late just before the sweep is killed.
late = []
for i in range(int(os.environ["CHAOS_LATE"])):
    ann = User.objects.create_user(f"late{i}a", f"late{i}a@example.com", "a long enough password 1")
    bob = User.objects.create_user(f"late{i}b", f"late{i}b@example.com", "a long enough password 1")
    game = services.create_game(ann, services.GameSettings(first="me", time_control="5+3"))
    late.append(services.accept_game(game, bob).pk)
print(json.dumps(late))
"""


class Command(BaseCommand):
    help = "Play games through killed daphnes, Redis and PostgreSQL restarts and a killed sweep."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=12, help="games in play at once")
        parser.add_argument("--seconds", type=float, default=8, help="of play around each fault")
        parser.add_argument("--late", type=int, default=150, help="games the sweep must end")

    def handle(self, *args, **options):
        problem = Services.missing()
        if problem:
            self.stdout.write(f"chaos: not run: {problem}")
            return
        with Services() as services:
            env = services.env()
            # Enough games that every player always has one to play: a game lasts some 90 moves.
            made = setup(env, options["games"] * 4, options["late"])
            made["in_flight"] = options["games"]
            try:
                with Site(env, services.folder) as site:
                    report = asyncio.run(
                        play_through_faults(site, services, made, options["seconds"])
                    )
                    report["the sweep killed midway"] = sweep_killed_midway(site, services, made)
            finally:
                # What the servers logged of each 500, read before their folder goes (even when
                # the run itself broke): a fault met once in a while in CI must say where it
                # came from the first time.
                logged = server_errors(services.folder)
                for told in logged:
                    self.stdout.write(f"a server error, as logged:\n{told}")
        self.say(report)

    def say(self, report: dict) -> None:
        columns = (
            "attempted",
            "landed",
            "refused",
            "errors",
            "unanswered",
            "lost",
            "doubled",
            "missed",
            "recovered",
            "pages",
            "page errors",
        )
        self.stdout.write(f"{'fault':20}" + "".join(f"{c:>12}" for c in columns))
        for fault, figures in report.items():
            if fault == "the sweep killed midway":
                continue
            row = "".join(f"{figures.get(c, 0):>12}" for c in columns)
            errors = ", ".join(
                f"{n} {k}" for k, n in sorted(figures.items()) if k.startswith("HTTP")
            )
            self.stdout.write(f"{fault:20}{row}" + (f"  ({errors})" if errors else ""))
        sweep = report["the sweep killed midway"]
        self.stdout.write(
            f"the sweep killed midway: {sweep['ended_before_kill']} of {sweep['late']} games "
            f"ended before the kill, {sweep['ended']} after the next sweep (missed: "
            f"{sweep['late'] - sweep['ended']}); emails {sweep['emails']} for "
            f"{sweep['keys']} notifications (sent twice: {sweep['twice']})"
        )
        self.stdout.write(
            "refused: answered with a message (a stale page; 503, the database away); errors: "
            "answered without one (a 500); unanswered: the connection died with the move in "
            "doubt (the page then reads the game as it is); missed: pushes not heard within "
            f"{PUSH_WAIT:.0f} s; recovered: those the page found by looking for itself; pages: "
            "the front page and the lobby opened meanwhile, page errors: those answered 500"
        )
        failed = [
            fault
            for fault, figures in report.items()
            if fault != "the sweep killed midway"
            and (
                figures.get("lost")
                or figures.get("doubled")
                or figures.get("errors")
                or figures.get("page errors")
            )
        ]
        sweep = report["the sweep killed midway"]
        if failed or sweep["twice"] or sweep["ended"] < sweep["late"]:
            raise CommandError(f"faults not survived: {', '.join(failed) or 'the sweep'}")


# -- the run's own PostgreSQL and Redis ----------------------------------------------------------


class Services:
    """A PostgreSQL cluster and a Redis server of the run's own, on free ports."""

    @staticmethod
    def missing() -> str:
        if not glob.glob("/usr/lib/postgresql/*/bin/initdb"):
            return "PostgreSQL's server programs are not installed (no initdb)"
        if not shutil.which("redis-server"):
            return "Redis is not installed (no redis-server)"
        return ""

    def __enter__(self) -> Services:
        self.bin = Path(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1])
        self.folder = Path(tempfile.mkdtemp(prefix="basilica-chaos-"))
        self.data = self.folder / "pg"
        self.pg_port, self.redis_port = free_port(), free_port()
        self.redis = None
        os.chmod(self.folder, 0o777)
        self._as_postgres(
            [str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres"]
        )
        self.start_postgres()
        self._as_postgres(
            [
                str(self.bin / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.pg_port),
                "-U",
                "postgres",
                "basilica",
            ]
        )
        self.start_redis()
        return self

    def __exit__(self, *exc) -> None:
        self.stop_redis()
        self._pg_ctl("stop", "-m", "immediate")
        if os.environ.get("CHAOS_KEEP"):
            print(f"logs kept in {self.folder}")
        else:
            shutil.rmtree(self.folder, ignore_errors=True)

    def env(self) -> dict:
        return {
            **os.environ,
            "DATABASE_URL": f"postgresql://postgres@127.0.0.1:{self.pg_port}/basilica",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DJANGO_SETTINGS_MODULE": "basilica_site.settings",
            "DJANGO_DEBUG": "1",
            "NOTIFY_DELAY_SECONDS": "0",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_USE_TLS": "0",
            "HUEY_LOG_LEVEL": "ERROR",
        }

    def _as_postgres(self, command: list[str]) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def _pg_ctl(self, *args: str) -> None:
        options = f"-p {self.pg_port} -c listen_addresses=127.0.0.1 -k {self.folder}"
        self._as_postgres(
            [str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", *args]
        )

    def start_postgres(self) -> None:
        self._pg_ctl("-l", str(self.folder / "pg.log"), "start")

    def restart_postgres(self) -> None:
        self._pg_ctl("-l", str(self.folder / "pg.log"), "-m", "immediate", "restart")

    def start_redis(self) -> None:
        self.redis = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.redis_port)

    def stop_redis(self) -> None:
        if self.redis is not None:
            self.redis.kill()
            self.redis.wait(timeout=10)
            self.redis = None

    def restart_redis(self) -> None:
        self.stop_redis()
        time.sleep(0.5)
        self.start_redis()

    def actions(self, game_id: int) -> list[dict]:
        """The game's log as the database holds it (the truth), in order."""
        import psycopg

        url = f"postgresql://postgres@127.0.0.1:{self.pg_port}/basilica"
        for _ in range(50):
            try:
                with psycopg.connect(url, connect_timeout=3) as conn:
                    rows = conn.execute(
                        "SELECT data FROM games_action WHERE game_id = %s ORDER BY seq", [game_id]
                    ).fetchall()
                return [row[0] for row in rows]
            except psycopg.OperationalError:
                time.sleep(0.2)  # restarting
        raise RuntimeError("the run's PostgreSQL did not come back")

    def query(self, sql: str, params: list) -> list[tuple]:
        import psycopg

        url = f"postgresql://postgres@127.0.0.1:{self.pg_port}/basilica"
        with psycopg.connect(url) as conn:
            return conn.execute(sql, params).fetchall()


def wait_for_port(port: int, seconds: float = 30) -> None:
    import socket

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing answered on port {port}")


def setup(env: dict, games: int, late: int) -> dict:
    """The games to play (made as `make load-scaling` makes its own: migrated, a session per
    player) and the games the sweep must end."""
    played = prepare(env, games)
    made = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", LATE],
        env={**env, "CHAOS_LATE": str(late)},
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return {"games": played, "late": json.loads(made.stdout.strip().splitlines()[-1])}


def server_errors(folder: Path) -> list[str]:
    """Each 500 the daphnes logged, Django's ("Internal Server Error") and daphne's own (an
    exception out of the application while it served a request, not a socket), shortened to
    the site's own lines it went through and what it was; once each."""
    found: list[str] = []
    for log in sorted(folder.glob("daphne-*.log")):
        lines = log.read_text(errors="replace").splitlines()
        starts = [n for n, line in enumerate(lines) if SERVER_ERROR.match(line)] + [len(lines)]
        for start, end in itertools.pairwise(starts):
            block = lines[start : min(end, start + 300)]
            if block[0].startswith("Exception") and not any("handlers/asgi" in b for b in block):
                continue  # a socket's consumer: the page reconnects and catches up
            block = _first_traceback(block)
            places = [line.strip() for line in block if line.startswith("  File ")]
            ours = [place for place in places if "site-packages" not in place]
            raised = [line for line in block[1:] if EXCEPTION_LINE.match(line)]
            told = "\n".join([block[0], *(ours or places)[-3:], *raised[-1:]])
            if told not in found:  # Django logs a request's 500 twice under daphne
                found.append(told)
    return found


def _first_traceback(block: list[str]) -> list[str]:
    """``block`` up to the end of its first traceback (chained ones included)."""
    ended = False
    for number, line in enumerate(block[1:], start=1):
        if not line.strip() or line[0].isspace():
            continue  # a traceback's own lines, and the message's continuation
        if ended and not line.startswith(("The above", "During handling", "Traceback")):
            return block[:number]
        ended = bool(EXCEPTION_LINE.match(line))
    return block


SERVER_ERROR = re.compile(r"(Internal Server Error|Exception inside application):")
EXCEPTION_LINE = re.compile(r"[\w.]+(: |$)")  # "KeyError: 'seat'", or a bare "Http404"


# -- the site: two daphnes and the worker -------------------------------------------------------


class Site:
    def __init__(self, env: dict, logs: Path):
        self.env = env
        self.logs = logs
        self.ports = [free_port(), free_port()]
        self.daphnes: dict[int, subprocess.Popen] = {}
        self.worker = None
        self.mail = None

    def __enter__(self) -> Site:
        import logging

        from aiosmtpd.controller import Controller

        logging.getLogger("mail.log").setLevel(logging.WARNING)  # the SMTP server's every word
        self.mail = Mailbox()
        self.smtp = Controller(self.mail, hostname="127.0.0.1", port=free_port())
        self.smtp.start()
        self.env["EMAIL_PORT"] = str(self.smtp.port)
        for port in self.ports:
            self.start_daphne(port)
        self.worker = self._spawn(
            [sys.executable, str(ROOT / "manage.py"), "run_huey", "--workers", "2"], "worker"
        )
        return self

    def __exit__(self, *exc) -> None:
        for process in [*self.daphnes.values(), self.worker]:
            if process is not None and process.poll() is None:
                process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=10)
                if process.poll() is None:
                    process.kill()
        self.smtp.stop()

    def _spawn(self, command: list[str], name: str) -> subprocess.Popen:
        with open(self.logs / f"{name}.log", "ab") as log:  # the child keeps its own copy
            return subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=log, stderr=log)

    def start_daphne(self, port: int) -> None:
        daphne = str(Path(sys.executable).parent / "daphne")
        self.daphnes[port] = self._spawn(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "basilica_site.asgi:application"],
            f"daphne-{port}",
        )
        wait_for_port(port)

    def kill_daphne(self, port: int) -> None:
        self.daphnes[port].send_signal(signal.SIGKILL)
        self.daphnes[port].wait(timeout=10)

    def up(self, port: int) -> bool:
        return self.daphnes[port].poll() is None


class Mailbox:
    """The SMTP server the worker sends to: every message, by recipient and subject."""

    def __init__(self):
        self.received: collections.Counter = collections.Counter()

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's name
        from email import message_from_bytes

        subject = message_from_bytes(envelope.content).get("Subject", "")
        for to in envelope.rcpt_tos:
            self.received[(to, subject)] += 1
        return "250 OK"


# -- playing through the faults -----------------------------------------------------------------


class Page:
    """A player's open game page: a socket (reopened on the other daphne when its own dies) and
    the highest seq it has seen pushed."""

    def __init__(self, game: dict, seat: int, site: Site):
        self.game, self.seat, self.site = game, seat, site
        self.cookie = f"sessionid={game['sessions'][seat]}; csrftoken={CSRF}"
        self.port = site.ports[(game["pk"] + seat) % 2]
        self.seen = 0
        self.heard = asyncio.Event()
        self.task = None

    def home(self) -> int:
        if not self.site.up(self.port):
            self.port = next(p for p in self.site.ports if self.site.up(p))
        return self.port

    async def listen(self) -> None:
        import websockets

        while True:
            try:
                port = self.home()
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/games/{self.game['pk']}/",
                    additional_headers={
                        "Cookie": self.cookie,
                        "Origin": f"http://127.0.0.1:{port}",
                    },
                    open_timeout=10,
                    max_size=2**22,
                    compression=None,
                    max_queue=None,
                ) as ws:
                    async for message in ws:
                        self.note(message)
            except (OSError, TimeoutError, websockets.WebSocketException, StopIteration):
                pass
            await asyncio.sleep(0.3)  # as the page reconnects

    def note(self, message: str) -> None:
        if message.startswith("{"):
            seq = json.loads(message).get("seq")
        else:
            mark = message.find('data-seq="')
            seq = int(message[mark + 10 : message.index('"', mark + 10)]) if mark >= 0 else None
        if isinstance(seq, int) and seq > self.seen:
            self.seen = seq
            self.heard.set()

    async def wait_for(self, seq: int) -> bool:
        deadline = time.monotonic() + PUSH_WAIT
        while self.seen < seq:
            self.heard.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.heard.wait(), left)
        return True

    async def look(self, seq: int) -> bool:
        """The page looks for itself (its seq check): the game page as the server has it now."""
        path = f"/games/{self.game['pk']}/"
        status, body = await request(self.home(), "GET", path, None, self.cookie)
        shown = [int(n) for n in re.findall(r'data-seq="(\d+)"', body)] if status == 200 else []
        if shown and max(shown) >= seq:
            self.seen = max(self.seen, max(shown))
            return True
        return False


async def request(
    port: int, method: str, path: str, form: dict | None, cookie: str, htmx: bool = True
) -> tuple[int, str]:
    """One HTTP/1.1 request on a fresh connection, as htmx makes it unless ``htmx`` is false
    (a page opened whole): (status, body); status 0 when nothing came."""
    import urllib.parse

    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
    except (OSError, TimeoutError):
        return 0, ""
    body = urllib.parse.urlencode(form).encode() if form else b""
    asked_by = "HX-Request: true\r\nHX-Target: live\r\n" if htmx else ""
    head = (
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {cookie}\r\n"
        f"{asked_by}Referer: http://127.0.0.1:{port}/\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    try:
        writer.write(head.encode() + body)
        raw = await asyncio.wait_for(reader.read(), 30)
    except (OSError, TimeoutError):
        return 0, ""
    finally:
        writer.close()
    if not raw.startswith(b"HTTP/"):
        return 0, ""
    status = int(raw.split(b" ", 2)[1])
    return status, raw.partition(b"\r\n\r\n")[2].decode(errors="replace")


async def play_through_faults(site: Site, services: Services, made: dict, seconds: float) -> dict:
    waiting = collections.deque(made["games"])
    in_flight = made["in_flight"]
    answered: dict[tuple[int, int], dict] = {}  # (game, seq) -> the action answered as made
    tried: dict[tuple[int, int], list] = collections.defaultdict(list)  # every action sent there
    phase_of: dict[tuple[int, int], str] = {}
    figures: dict[str, collections.Counter] = {f: collections.Counter() for f in ("calm", *FAULTS)}
    phase = ["calm"]
    stop = asyncio.Event()
    played: list[int] = []

    async def player(number: int) -> None:
        rng = random.Random(number)
        while waiting and not stop.is_set():
            game = waiting.popleft()
            played.append(game["pk"])
            await play(game, rng)

    async def play(game: dict, rng: random.Random) -> None:
        pages = [Page(game, seat, site) for seat in (0, 1)]
        for page in pages:
            page.task = asyncio.create_task(page.listen())
        options = engine.Options.from_json(game["options"])
        truth = await asyncio.to_thread(services.actions, game["pk"])
        state = engine.replay(options, game["seed"], truth)
        await asyncio.sleep(0.5)  # the pages open before the first move
        try:
            while not stop.is_set() and not state.finished:
                await asyncio.sleep(rng.uniform(0.05, 0.25))  # a player looks, then clicks
                seat = state.to_decide
                action = random_action(state, rng)
                key = (game["pk"], len(state.history) + 1)
                tried[key].append(action.to_json())
                form = {
                    "action": json.dumps(action.to_json()),
                    "seq": key[1] - 1,
                    "csrfmiddlewaretoken": CSRF,
                }
                mover = pages[seat]
                path = f"/games/{game['pk']}/act/"
                status, body = await request(mover.home(), "POST", path, form, mover.cookie)
                counts = figures[phase[0]]  # the fault of the moment the answer came
                counts["attempted"] += 1
                phase_of[key] = phase[0]
                if status == 200:
                    counts["landed"] += 1
                    answered[key] = action.to_json()
                    state = engine.apply_action(state, action)
                    other = pages[1 - seat]
                    if not await other.wait_for(key[1]):
                        counts["missed"] += 1
                        counts["recovered"] += await other.look(key[1])
                    continue
                # A refusal says why (a stale page, a database away: 503); an error does not.
                told = (400 <= status < 500 or status == 503) and bool(body.strip())
                counts["refused" if told else "unanswered" if not status else "errors"] += 1
                if status >= 500:
                    counts[f"HTTP {status}"] += 1
                await asyncio.sleep(0.3)
                # The page learns the game as it is now: a move in doubt may have landed.
                truth = await asyncio.to_thread(services.actions, game["pk"])
                state = engine.replay(options, game["seed"], truth)
        finally:
            for page in pages:
                page.task.cancel()

    async def visitor(page: Page) -> None:
        """A player who opens the front page and the lobby, again and again, through the
        faults: drawn from the cache (thumbnails, the lists' stamps) as much as the database."""
        while not stop.is_set():
            for path in ("/", "/games/"):
                status, body = await request(
                    page.home(), "GET", path, None, page.cookie, htmx=False
                )
                counts = figures[phase[0]]
                counts["pages"] += 1
                if status >= 500 and not (status == 503 and body.strip()):
                    counts["page errors"] += 1
                    counts[f"HTTP {status}"] += 1
            await asyncio.sleep(0.1)

    async def faults() -> None:
        await asyncio.sleep(seconds)
        phase[0] = "kill a daphne"
        victim = site.ports[1]
        site.kill_daphne(victim)
        await asyncio.sleep(seconds)
        await asyncio.to_thread(site.start_daphne, victim)
        phase[0] = "restart Redis"
        await asyncio.to_thread(services.restart_redis)
        await asyncio.sleep(seconds)
        phase[0] = "restart PostgreSQL"
        for _ in range(PG_RESTARTS):
            await asyncio.to_thread(services.restart_postgres)
            await asyncio.sleep(seconds / PG_RESTARTS)
        await asyncio.sleep(seconds)
        stop.set()

    browsing = Page(made["games"][-1], 0, site)  # a game left to the end: its player browses
    await asyncio.gather(faults(), visitor(browsing), *(player(n) for n in range(in_flight)))
    # The truth, read at the end: every move answered as made is in its game's log at its place
    # (else lost), and every action in a log is one a player sent there (else doubled).
    for pk in played:
        log = await asyncio.to_thread(services.actions, pk)
        for seq, data in enumerate(log, start=1):
            if data not in tried.get((pk, seq), []):
                figures[phase_of.get((pk, seq), "calm")]["doubled"] += 1
        for (game, seq), data in answered.items():
            if game == pk and (seq > len(log) or log[seq - 1] != data):
                figures[phase_of[(game, seq)]]["lost"] += 1
    return {name: dict(counts) for name, counts in figures.items()}


def sweep_killed_midway(site: Site, services: Services, made: dict) -> dict:
    import psycopg

    late = made["late"]
    manage = [sys.executable, str(ROOT / "manage.py"), "sweep_games"]
    url = services.env()["DATABASE_URL"]
    watcher = psycopg.connect(url, autocommit=True)

    def ended() -> int:
        sql = "SELECT count(*) FROM games_game WHERE id = ANY(%s) AND status <> 'active'"
        return watcher.execute(sql, [late]).fetchone()[0]

    # An hour ago, and nobody moved: every one of them is out of time from now on.
    watcher.execute(
        "UPDATE games_game SET started_at = now() - interval '1 hour', "
        "deadline = now() - interval '55 minutes' WHERE id = ANY(%s)",
        [late],
    )
    sweep = subprocess.Popen(
        manage, env=site.env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    while sweep.poll() is None and ended() == 0:
        time.sleep(0.002)
    sweep.send_signal(signal.SIGKILL)
    sweep.wait(timeout=10)
    before = ended()
    subprocess.run(manage, env=site.env, cwd=ROOT, check=True, capture_output=True)
    after = ended()
    sql = "SELECT count(*), count(*) FILTER (WHERE outcome = 'sent') FROM games_notification WHERE game_id = ANY(%s)"
    deadline = time.monotonic() + 60  # the worker sends the emails the endings called for
    while time.monotonic() < deadline:
        keys, sent = services.query(sql, [late])[0]
        if keys >= 2 * after and sent == keys:
            break
        time.sleep(0.5)
    watcher.close()
    emails = sum(site.mail.received.values())
    return {
        "late": len(late),
        "ended_before_kill": before,
        "ended": after,
        "keys": keys,
        "emails": emails,
        "twice": sum(n - 1 for n in site.mail.received.values() if n > 1),
    }

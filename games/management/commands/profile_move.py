"""`manage.py profile_move` (`make profile`): where the server's time goes in one move.

On a throwaway database it plays a game of each kind to its middle (an expansion game of Basilica,
a game of Cathedral: the same deal and moves every run), then plays ``--moves`` more moves as the
site serves them: the mover's HTMX POST through the real middleware and view, then the
opponent's push and the spectators' push rendered as their sockets render them, all in asgiref's
thread beside a running event loop, as daphne runs them. Each moment of
that path is timed and its queries counted apart:

- request: everything the POST does besides the stages below (middleware, session and user,
  CSRF, parsing the form, the view's checks);
- transaction: ``submit_action``, its lock, replay, engine call, append, clock and commit;
- notifications: what hears of the committed move (``games.events.game_changed``: the push's
  announcement, the checks and bot moves scheduled, the watchers told);
- mover's answer: the live region drawn for the mover, with the offer of the next game;
- header counts: the count of games waiting for the player, drawn in the header;
- opponent's push: the partials drawn for the opponent's socket (their choices, their token);
- spectators' push: the partials drawn once for every watcher of the game in one language.

It prints each stage's median time and queries per move, their sum, and then the ten functions
that cost most of
their own time over the same moves, profiled in a second pass (the profiler's overhead is kept
out of the timings). Timing is by ``time.process_time`` of this process: CPU, not waiting.
Last, the reads every request and move makes (a session and its user, a game and its players,
the move's lock, a player's settings, the header's count), by Django's ORM and by the queries
compiled once (``games.compiled``), in turns.
`make profile-before` runs this same command on the code before issue 27, for the comparison:
this machine's speed drifts from day to day, so a figure is compared only with one taken beside
it.
"""

from __future__ import annotations

import asyncio
import cProfile
import functools
import json
import pstats
import random
import statistics
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.db.models import Exists
from django.middleware.csrf import get_token
from django.template import engines
from django.template.base import Template
from django.test import Client, RequestFactory
from django.test.utils import setup_test_environment
from django.utils import timezone

import games
from games.live import pushes
from games.live.announce import version
from games.models import Game, PlayerSettings
from games.play import services, states
from games.web import context_processors, next_game, views

STAGES = (
    "request",
    "transaction",
    "notifications",
    "mover's answer",
    "header counts",
    "opponent's push",
    "spectators' push",
)

BROWSER_ENCODINGS = "gzip, deflate, br, zstd"  # what a browser offers: the answer is compressed

POSITIONS = {
    # kind: (options, actions played before the measured moves, seed)
    "basilica": ({"expansion": True}, 40, 7),
    "cathedral": ({}, 6, 7),
}


class Stages:
    """Time and queries per stage, each stage's own: a stage inside another (the header's count
    inside the mover's answer) is subtracted from the one around it."""

    def __init__(self) -> None:
        self.stack: list[list] = []  # [name, started, time of the stages inside]
        self.seconds: dict[str, float] = defaultdict(float)
        self.queries: dict[str, int] = defaultdict(int)

    @contextmanager
    def stage(self, name: str):
        frame = [name, time.process_time(), 0.0]
        self.stack.append(frame)
        try:
            yield
        finally:
            self.stack.pop()
            spent = time.process_time() - frame[1]
            self.seconds[name] += spent - frame[2]
            if self.stack:
                self.stack[-1][2] += spent

    def count_query(self, execute, sql, params, many, context):
        self.queries[self.stack[-1][0] if self.stack else "request"] += 1
        return execute(sql, params, many, context)

    def wrap(self, owner, attribute: str, name: str) -> None:
        original = getattr(owner, attribute)

        def timed(*args, **kwargs):
            with self.stage(name):
                return original(*args, **kwargs)

        setattr(owner, attribute, timed)
        self._undo.append((owner, attribute, original))

    @contextmanager
    def watching(self):
        """Route the move's path through the stage timers while in this block."""
        self._undo: list[tuple] = []
        self.wrap(services, "submit_action", "transaction")
        self.wrap(services, "_changed", "notifications")
        self.wrap(views, "_render_game", "mover's answer")
        self.wrap(next_game, "with_offer", "mover's answer")
        # The template engine keeps the context processors it imported: it is told too.
        engine = engines["django"].engine
        processors = engine.template_context_processors
        self.wrap(context_processors, "turns", "header counts")
        engine.template_context_processors = tuple(
            context_processors.turns if p is self._undo[-1][2] else p for p in processors
        )
        self._undo.append((engine, "template_context_processors", processors))
        try:
            with connection.execute_wrapper(self.count_query):
                yield
        finally:
            for owner, attribute, original in reversed(self._undo):
                setattr(owner, attribute, original)


class Command(BaseCommand):
    help = "Time each stage of a move (CPU and queries) and name the costliest functions."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=20, help="moves measured per kind")
        parser.add_argument("--top", type=int, default=10, help="functions listed per kind")

    def handle(self, *args, moves: int, top: int, **options):
        from basilica_site.runtime import freeze_startup_objects

        real_render = Template._render
        setup_test_environment(debug=False)
        # The test environment's rendering sends a signal that the test client answers by
        # copying every template's context: a cost no server pays, taken back out.
        Template._render = real_render
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        import basilica_site.asgi  # noqa: F401 - set up as a server process is

        freeze_startup_objects()
        try:
            for kind in POSITIONS:
                as_served(functools.partial(self.profile, kind, moves, top))
            if not (Path(games.__file__).parent / "compiled.py").exists():
                # `make profile-before`: the code before issue 27 compiled no reads. (Not
                # find_spec: the project's editable install would find this checkout's.)
                self.stdout.write("reads compiled once: none in this code")
            else:
                self.compiled_reads(calls=max(50, moves * 10))
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def profile(self, kind: str, moves: int, top: int) -> None:
        players = [
            User.objects.create_user(f"{kind}-{name}", password="a long enough password 1")
            for name in ("ann", "bob")
        ]
        timed = self.play(kind, players, moves)
        self.report(kind, timed, moves)
        # The second pass, under the profiler: the same moves again, on a fresh game.
        profiler = cProfile.Profile()
        self.play(kind, players, moves, profiler=profiler)
        self.stdout.write(f"  the {top} functions that cost most of their own time ({kind}):")
        listing = pstats.Stats(profiler)
        listing.sort_stats(pstats.SortKey.TIME)
        total = sum(entry[2] for entry in listing.stats.values()) or 1.0
        width = 0
        rows = []
        for (filename, line, function), entry in sorted(
            listing.stats.items(), key=lambda item: item[1][2], reverse=True
        )[:top]:
            where = f"{short(filename)}:{line} {function}"
            width = max(width, len(where))
            rows.append((where, entry[1], entry[2]))
        for where, calls, own in rows:
            self.stdout.write(
                f"    {where:{width}}  {calls:7} calls  {own * 1000 / moves:6.2f} ms a move  "
                f"{own / total:5.1%}"
            )
        # The site's own functions, with what they call; leaving out those that wrap most of a
        # move (the middleware, the view, a push as a whole), which would say only "everything".
        self.stdout.write(f"  the {top} functions of the site that cost most, with their calls:")
        ours = [
            (f"{short(filename)}:{line} {function}", entry[0], entry[3])
            for (filename, line, function), entry in listing.stats.items()
            if "/site-packages/" not in filename
            and short(filename) != filename
            and entry[3] < 0.3 * total
            and "profile_move" not in filename
        ]
        ours.sort(key=lambda row: row[2], reverse=True)
        width = max((len(row[0]) for row in ours[:top]), default=0)
        for where, calls, cumulative in ours[:top]:
            self.stdout.write(
                f"    {where:{width}}  {calls:7} calls  {cumulative * 1000 / moves:6.2f} ms a move"
            )

    def compiled_reads(self, calls: int) -> None:
        """The reads every request and move makes, by Django's ORM as it compiles each query
        anew and by the queries compiled once (``games.compiled``), in turns: CPU a call."""
        # Imported here: the code `make profile-before` runs this command on has none of them.
        from basilica_site.backends import PasswordBackend
        from basilica_site.sessions import SessionStore
        from games.models import Sanction, count_waiting_for, game_with_players
        from games.play import vacation

        ann, bob = User.objects.filter(username__in=("basilica-ann", "basilica-bob"))
        game = Game.objects.filter(seat0=ann).first()
        session = SessionStore()
        session["who"] = ann.pk
        session.create()
        key, now = session.session_key, timezone.now()
        visible = Game.objects.visible_to(bob).with_players()
        locked = Game.objects.select_for_update(of=("self",)).with_players()

        def lock_by_orm():
            with transaction.atomic():
                locked.annotate(
                    mover_suspended=Exists(Sanction.objects.suspending(ann)),
                    mover_away=Exists(vacation.in_progress(ann, now)),
                ).get(pk=game.pk)

        def lock_compiled():
            with transaction.atomic():
                services.lock(game, mover=ann)

        reads = {
            "a game and its players": (
                lambda: visible.get(pk=game.pk),
                lambda: game_with_players(game.pk, bob),
            ),
            "the move's lock": (lock_by_orm, lock_compiled),
            "a session": (
                lambda: Session.objects.get(session_key=key, expire_date__gt=timezone.now()),
                lambda: SessionStore(key).load(),
            ),
            "a session's user": (
                lambda: User.objects.get(pk=ann.pk),
                lambda: PasswordBackend().get_user(ann.pk),
            ),
            "a player's settings": (
                lambda: PlayerSettings.objects.filter(user=ann).first(),
                lambda: PlayerSettings.of(ann),
            ),
            "games waiting (the header)": (
                lambda: Game.objects.waiting_for(ann).count(),
                lambda: count_waiting_for(ann),
            ),
        }
        self.stdout.write(f"reads compiled once: CPU a call, median of 5 rounds of {calls} calls")
        for name, (by_orm, compiled) in reads.items():
            figures: dict[str, list[float]] = {"orm": [], "compiled": []}
            for _ in range(5):
                for side, read in (("orm", by_orm), ("compiled", compiled)):
                    read()
                    started = time.process_time()
                    for _ in range(calls):
                        read()
                    figures[side].append((time.process_time() - started) / calls * 1000)
            orm, once = (statistics.median(figures[side]) for side in ("orm", "compiled"))
            self.stdout.write(
                f"  {name:28} ORM {orm:5.2f} ms, compiled {once:5.2f} ms ({once / orm:.2f})"
            )

    def play(self, kind: str, players: list, moves: int, profiler=None) -> dict:
        """A fresh game of ``kind`` played to its middle, then ``moves`` moves measured."""
        options, before, seed = POSITIONS[kind]
        settings = services.GameSettings(options=options, first="me", kind=kind)
        game = services.create_game(players[0], settings)
        game.seed = seed
        game.save(update_fields=["seed"])
        game = services.accept_game(game, players[1])
        rng = random.Random(seed)
        for _ in range(before):
            state = states.load_state(game)
            action = rng.choice(game.engine.legal_actions(state)).to_json()
            game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        clients, tokens = [], []
        for user in game.seat0, game.seat1:
            client = Client()
            client.force_login(user)
            clients.append(client)
            tokens.append(socket_token(client))
        url = game.get_absolute_url()
        for client in clients:  # the templates compiled and the state cached, as in a server
            client.get(url)
        seated = [game.seat0, game.seat1]
        stages = Stages()
        samples: dict[str, list[float]] = defaultdict(list)
        queries: dict[str, list[int]] = defaultdict(list)
        played = 0
        while played < moves and game.status == "active":
            state = states.load_state(game)
            mover = state.to_decide
            action = rng.choice(game.engine.legal_actions(state)).to_json()
            form = {"action": json.dumps(action), "seq": game.seq}
            stages.seconds.clear()
            stages.queries.clear()
            if profiler is not None:
                profiler.enable()
            with stages.watching(), stages.stage("request"):
                response = clients[mover].post(
                    f"{url}act/",
                    form,
                    HTTP_HX_REQUEST="true",
                    HTTP_HX_TARGET="live",
                    HTTP_ACCEPT_ENCODING=BROWSER_ENCODINGS,
                )
            if profiler is not None:
                profiler.disable()
            # The version the move's announcement carries to the sockets: the harness's own
            # query, outside what is measured.
            game.refresh_from_db()
            announced = version(game)
            if profiler is not None:
                profiler.enable()
            with stages.watching():
                opponent = 1 - mover
                with stages.stage("opponent's push"):
                    # The socket's user, loaded when it connected (a consumer's scope holds it).
                    pushes.render_push(
                        game.pk, seated[opponent], opponent, tokens[opponent], announced
                    )
                with stages.stage("spectators' push"):
                    pushes.render_push(game.pk, AnonymousUser(), None, "", announced)
            if profiler is not None:
                profiler.disable()
            assert response.status_code == 200, (response.status_code, response.content[:300])
            for name in STAGES:
                samples[name].append(stages.seconds.get(name, 0.0))
                queries[name].append(stages.queries.get(name, 0))
            played += 1
        return {"seconds": samples, "queries": queries}

    def report(self, kind: str, timed: dict, moves: int) -> None:
        self.stdout.write(
            f"{kind}: CPU and queries a move, median of {len(timed['seconds']['request'])} moves"
        )
        total_ms = total_queries = 0.0
        for name in STAGES:
            ms = statistics.median(timed["seconds"][name]) * 1000
            count = statistics.median(timed["queries"][name])
            total_ms += ms
            total_queries += count
            self.stdout.write(f"  {name:18} {ms:6.2f} ms  {count:4g} q")
        per_move = [
            sum(timed["seconds"][name][i] for name in STAGES)
            for i in range(len(timed["seconds"]["request"]))
        ]
        self.stdout.write(f"  {'a move, in all':18} {total_ms:6.2f} ms  {total_queries:4g} q")
        self.stdout.write(
            f"  {'whole moves':18} median {statistics.median(per_move) * 1000:.2f} ms, "
            f"p95 {percentile(per_move, 0.95) * 1000:.2f} ms"
        )


def as_served(work) -> None:
    """Run ``work`` as daphne runs a request's synchronous code: in asgiref's thread beside a
    running event loop, so that what the code sends from there (the move's announcement, through
    ``async_to_sync``) goes to that loop, as in a server, instead of to a loop made for each
    call. Its thread and the loop's are one process, whose CPU the stages count."""

    async def serve():
        await sync_to_async(work, thread_sensitive=True)()

    asyncio.run(serve())


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def socket_token(client: Client) -> str:
    """The CSRF token a player's page (and so their socket's pushes) carries."""
    request = RequestFactory().get("/")
    request.COOKIES.update({name: morsel.value for name, morsel in client.cookies.items()})
    return get_token(request)


def short(filename: str) -> str:
    for marker in ("site-packages/", "/games/", "/basilica_site/"):
        if marker in filename:
            return (
                filename.split(marker, 1)[1]
                if marker == "site-packages/"
                else (marker.strip("/") + "/" + filename.split(marker, 1)[1])
            )
    return filename

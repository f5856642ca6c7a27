"""`manage.py load_compute`: the computer's work on workers of its own (issue 32), each figure
beside its target, from one run. It starts the task runner's real consumers as processes of
their own (`run_huey` for the light queue, `run_compute` for the computer's), on the configured
database and queues (`make load-compute` points them at throwaway SQLite files), and plays the
people's side of games against the search bot itself, at once whenever their turn comes.

- bot actions a minute, with games opened at once against the search bot, with one compute
  worker and then two: the same deals and the same game numbers, so the same searches;
- the wait of a live game's bot turn asked for just after many correspondence ones;
- the delay of the minute's clock sweep while the compute workers are saturated, after the
  moment its schedule gave it;
- the search's arena result with 8 games at once, beside the same games played one at a time;
- the analysis of a whole game of Basilica and of Cathedral (``--only analysis``): the seconds
  the compute worker took for each, and the CPU seconds of that worker.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from multiprocessing import Pool
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count, Max, Min, Q
from django.utils import timezone

from basilica_site.logs import without_move_lines
from games import events
from games.bots import BUDGETS, Budget
from games.bots.arena import Bot, play, wilson
from games.models import Action, Analysis, Computer, Game
from games.play import analysis, computer, services, states
from games.tasks import COMPUTE, request_analysis
from games.terms import GameSettings

PASSWORD = "a long enough password 1"
LIVE = "5+3"
DAYS = "3d"


class Command(BaseCommand):
    help = "The compute queue's figures: bot actions a minute, a live bot's wait, the sweep."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=24, help="games opened at once")
        parser.add_argument("--actions", type=int, default=2, help="bot actions in each")
        parser.add_argument("--queued", type=int, default=20, help="correspondence bot moves")
        parser.add_argument(
            "--simulations",
            type=int,
            help="the search's simulations a move (default: the site's, for each kind)",
        )
        parser.add_argument(
            "--only",
            choices=("throughput", "live", "arena", "analysis"),
            action="append",
            help="measure only these (default: every figure)",
        )
        parser.add_argument("--arena-games", type=int, default=8)
        parser.add_argument("--arena-simulations", type=int, default=BUDGETS["middle"].simulations)
        parser.add_argument(
            "--analysis-simulations",
            type=int,
            help="the analysis's simulations a position (default: the site's, for each kind)",
        )

    @without_move_lines
    def handle(self, *args, **options) -> None:
        people = User.objects.exclude(username__startswith=Computer.USERNAME_PREFIX)
        if Game.objects.exists() or people.exclude(username__startswith="compute-").exists():
            raise CommandError(
                "load_compute deletes the games it plays and empties the compute queue: run it "
                "on a throwaway database and queue, as `make load-compute` does"
            )
        self.options = options
        # The web process's watcher of bot moves has no browser to tell here.
        events.game_changed.disconnect(dispatch_uid="games.live.watch.on_game_changed")
        self.logs = Path(tempfile.mkdtemp(prefix="basilica-compute-"))
        self.env = {**os.environ, "HUEY_LOG_LEVEL": "INFO"}
        if options["simulations"]:
            self.env["COMPUTER_SIMULATIONS"] = str(options["simulations"])
        budget = options["simulations"] or "the site's (basilica {}, cathedral {})".format(
            *(b.simulations for b in _site_budgets())
        )
        self.stdout.write(
            f"search bot: {budget} simulations a move; {os.cpu_count()} cores; "
            f"consumers' logs in {self.logs}"
        )
        COMPUTE.flush()
        self.people = [_person(f"compute-{index}") for index in range(options["games"] + 2)]
        parts = options["only"] or ("throughput", "live", "arena", "analysis")
        overdue = overdue_game(self.people[-2], self.people[-1])
        light = self.start("light", "run_huey")
        try:
            quiet_sweep = self.first_sweep(overdue)
            if "throughput" in parts:
                self.throughput()
            if "live" in parts:
                self.live_wait_and_sweep(quiet_sweep)
            if "analysis" in parts:
                self.analyses()
        finally:
            stop(light)
        if "arena" in parts:
            self.arena()

    # -- the consumers ------------------------------------------------------------------------

    def start(self, name: str, *command: str) -> subprocess.Popen:
        """A consumer, once it says it has started."""
        log = self.logs / f"{name}.log"
        with open(log, "w") as output:
            process = subprocess.Popen(
                [sys.executable, str(settings.BASE_DIR / "manage.py"), *command],
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its workers are stopped with it
            )
        deadline = time.monotonic() + 60
        while "consumer started" not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                stop(process)
                raise RuntimeError(f"the {name} consumer did not start: see {log}")
            time.sleep(0.05)
        return process

    # -- the figures --------------------------------------------------------------------------

    def first_sweep(self, game: Game) -> float:
        """The moment the light consumer's first sweep ended the overdue ``game``: its
        scheduler queues the periodic tasks at its start, then every 60 s."""
        finished = wait_for(lambda: finished_at(game), 30)
        if finished is None:
            raise RuntimeError("the light consumer's first sweep ended no overdue game")
        return finished

    def throughput(self) -> None:
        games, actions = self.options["games"], self.options["actions"]
        rates = {}
        for workers in (1, 2):
            compute = self.start(f"compute-{workers}", "run_compute", "--workers", str(workers))
            try:
                first = Game.objects.aggregate(Max("pk"))["pk__max"] or 0
                cpu = time.process_time()
                done, seconds = self.play_against_the_bot(games, actions)
                cpu = time.process_time() - cpu
            finally:
                stop(compute)
            rates[workers] = done / seconds * 60
            self.say(
                f"bot actions a minute, {games} games opened at once, {workers} compute "
                f"worker{'s' * (workers > 1)}",
                f"{rates[workers]:.1f} ({done} actions in {seconds:.1f} s; the people's side "
                f"took {cpu:.1f} s of CPU here)",
            )
            forget_games_since(first)  # the next run deals the same games, numbered alike
            COMPUTE.flush()
        self.say(
            "bot actions a minute, two compute workers ÷ one",
            f"{rates[2] / rates[1]:.2f}",
            "≥ 1.8 on two cores",
        )

    def play_against_the_bot(self, count: int, actions: int) -> tuple[int, float]:
        """Open ``count`` games against the search bot at once, the bot first, and answer each
        of its moves at once until it has made ``actions`` in each: how many it made, and the
        seconds from the opening to its last."""
        started = timezone.now()
        opened = [open_game(self.people[i], DAYS, seed=i) for i in range(count)]
        pks = [game.pk for game in opened]
        games = Game.objects.filter(pk__in=pks)
        # One light query a look: this process must leave the cores to the workers.
        looks = games.annotate(made=Count("actions", filter=Q(actions__player=1))).values_list(
            "pk", "status", "to_decide", "made"
        )
        deadline = time.monotonic() + 600 + 60 * count * actions
        while time.monotonic() < deadline:
            unfinished = False
            for pk, status, to_decide, made in looks.all():  # a new look each time
                if status != Game.Status.ACTIVE:
                    continue
                if to_decide == 1:
                    unfinished = True  # the bot's
                elif made < actions:
                    unfinished = True
                    answer(Game.objects.with_players().get(pk=pk))
            if not unfinished:
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("the bot's moves did not all come in time")
        made = Action.objects.filter(game__in=pks, player=1)
        last = made.aggregate(Max("created_at"))["created_at__max"]
        return made.count(), (last - started).total_seconds()

    def live_wait_and_sweep(self, quiet_sweep: float) -> None:
        """Correspondence bot moves queued at once, just before the light consumer's next
        sweep, then a live game whose bot moves first; an overdue game for that sweep."""
        queued = self.options["queued"]
        compute = self.start("compute", "run_compute")
        try:
            # The next sweep is due a whole number of minutes after the first one.
            due = quiet_sweep + 60 * (int((time.time() - quiet_sweep) / 60) + 1)
            if due - time.time() < 3:
                due += 60
            time.sleep(max(0.0, due - time.time() - 2))
            overdue = overdue_game(self.people[-2], self.people[-1])
            waiting = [open_game(self.people[i], DAYS, seed=100 + i) for i in range(queued)]
            live = open_game(self.people[queued % len(self.people)], LIVE, seed=7)
            asked = time.time()
            answered = wait_for(lambda: first_bot_action(live), 120)
            sleep_until(due + 0.5)
            in_queue = COMPUTE.pending_count()
            swept = wait_for(lambda: finished_at(overdue), 90)
            all_done = wait_for(lambda: last_of_first_bot_actions(waiting), 600)
        finally:
            stop(compute)
        self.say(
            f"a live game's bot turn asked for after {queued} correspondence bot moves: wait",
            _seconds(answered and answered - asked),
            "≤ 5 s",
        )
        self.say(
            "   (in the order asked, one queue for all, it would have waited for them all)",
            _seconds(all_done and all_done - asked),
        )
        self.say(
            f"the minute's clock sweep while the compute workers are saturated ({in_queue} "
            "bot moves queued at its moment): delay after its schedule",
            _seconds(swept and swept - due),
            "≤ 2 s",
        )

    def analyses(self) -> None:
        """A whole game of each kind, played out here by the greedy bot in both seats, then its
        analysis asked for as a player asks, and made by one compute worker."""
        compute = self.start("compute-analysis", "run_compute", "--workers", "1")
        try:
            for kind, seed in (("basilica", 5), ("cathedral", 5)):
                game = played_out(kind, self.people[-2], self.people[-1], seed)
                made = analysed(game, self.options["analysis_simulations"])
                if made is None:
                    self.say(f"the analysis of a game of {kind}", "never came")
                    continue
                self.say(
                    f"the analysis of a game of {kind} ({game.seq} actions, {made.simulations} "
                    "simulations a position) by one compute worker",
                    f"{made.seconds:.1f} s",
                    "≤ 120 s" if kind == "basilica" else "",
                )
        finally:
            stop(compute)

    def arena(self) -> None:
        """The search against the greedy bot, the same seeded games one at a time and then 8 at
        once on this machine's cores: a budget of simulations plays them alike."""
        count = self.options["arena_games"]
        bots = (Bot("search", Budget(simulations=self.options["arena_simulations"])), Bot("greedy"))
        games = [("basilica-2022", i // 2, i % 2, bots) for i in range(count)]
        started = time.monotonic()
        quiet = list(map(play, games))
        quiet_seconds = time.monotonic() - started
        started = time.monotonic()
        with Pool(8) as pool:
            busy = pool.map(play, games)
        busy_seconds = time.monotonic() - started
        alike = sum(
            (a.score, a.actions) == (b.score, b.actions) for a, b in zip(quiet, busy, strict=True)
        )
        for name, results, seconds in (
            ("one at a time", quiet, quiet_seconds),
            ("8 at once", busy, busy_seconds),
        ):
            won = sum(result.score for result in results)
            low, high = wilson(won, count)
            self.say(
                f"the search ({bots[0].budget.simulations} simulations) against greedy, {name}",
                f"{won:g} of {count} won ({won / count:.0%}, 95% CI {low:.0%}-{high:.0%}; "
                f"{seconds:.0f} s)",
                "equal within the interval" if name == "8 at once" else "",
            )
        self.say("   games alike, move for move, in both runs", f"{alike} of {count}")

    def say(self, name: str, figure: str, target: str = "") -> None:
        self.stdout.write(f"{name}: {figure}" + (f"   (target {target})" if target else ""))


def _site_budgets() -> tuple[Budget, Budget]:
    from games.bots import SITE_BUDGETS

    return SITE_BUDGETS["basilica"], SITE_BUDGETS["cathedral"]


def _seconds(value: float | None) -> str:
    return "never came" if value is None else f"{value:.2f} s"


def stop(process: subprocess.Popen) -> None:
    """Stop a consumer and its workers at once (huey's consumer stops on SIGTERM)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_for(look, seconds: float) -> float | None:
    """The first value ``look()`` gives that is not None, within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = look()
        if value is not None:
            return value
        time.sleep(0.05)
    return None


def sleep_until(moment: float) -> None:
    time.sleep(max(0.0, moment - time.time()))


def _person(name: str) -> User:
    user = User.objects.filter(username=name).first()
    return user or User.objects.create_user(name, password=PASSWORD)


def open_game(person: User, clock: str, seed: int) -> Game:
    """A game of Basilica between ``person`` and the search bot, which moves first: its move is
    asked for as the game begins, as in the lobby."""
    game = services.create_game(
        person, GameSettings(first="opponent", private=True, time_control=clock)
    )
    Game.objects.filter(pk=game.pk).update(seed=seed)
    return services.accept_game(game, computer.account("search").user)


def overdue_game(one: User, other: User) -> Game:
    """A correspondence game between two people whose first player's time ran out a day ago."""
    game = services.accept_game(
        services.create_game(one, GameSettings(first="me", time_control=DAYS)), other
    )
    past = timezone.now() - timedelta(days=4)
    Game.objects.filter(pk=game.pk).update(started_at=past, deadline=past + timedelta(days=3))
    return game


def played_out(kind: str, one: User, other: User, seed: int) -> Game:
    """A game of ``kind`` between two people, played to its end by the greedy bot in both
    seats through the service, as if they had moved."""
    from games.bots import choose

    game = services.create_game(one, GameSettings(kind=kind, first="me", time_control="none"))
    Game.objects.filter(pk=game.pk).update(seed=seed)  # the deal fixed before the game begins
    game = services.accept_game(game, other)
    rng = random.Random(seed)
    while game.status == Game.Status.ACTIVE:
        state = states.load_state(game)
        action = choose(kind, state, state.to_decide, "greedy", rng)
        game = services.submit_action(
            game, game.player(state.to_decide), action.to_json(), game.seq
        )
    return game


def analysed(game: Game, simulations: int | None) -> Analysis | None:
    """The analysis of ``game``, asked for by one of its players and made by the compute
    worker, once it is done (None if it does not come within ten minutes)."""
    made, _ = analysis.request(game, game.seat0)
    if simulations:
        Analysis.objects.filter(pk=made.pk).update(simulations=simulations)
    request_analysis(made.pk)
    done = Analysis.objects.filter(pk=made.pk, status=Analysis.Status.DONE)
    return wait_for(lambda: done.first(), 600)


def finished_at(game: Game) -> float | None:
    stamp = Game.objects.filter(pk=game.pk).values_list("finished_at", flat=True).first()
    return stamp.timestamp() if stamp else None


def bot_actions(game: Game) -> int:
    return Action.objects.filter(game=game, player=1).count()


def first_bot_action(game: Game) -> float | None:
    made = Action.objects.filter(game=game, player=1).order_by("seq").first()
    return made.created_at.timestamp() if made else None


def last_of_first_bot_actions(games: list[Game]) -> float | None:
    """When the last of ``games`` had the bot's first action; None while one has none."""
    firsts = (
        Action.objects.filter(game__in=games, player=1)
        .values("game")
        .annotate(first=Min("created_at"))
        .values_list("first", flat=True)
    )
    moments = list(firsts)
    return max(moments).timestamp() if len(moments) == len(games) else None


def answer(game: Game) -> None:
    """The person's decision, at random (a kind of action, then one of it), seeded by the game's
    deal and the point reached, so that the same games are played in every run."""
    state = states.load_state(game)
    rng = random.Random(f"person:{game.seed}:{game.seq}")
    legal = list(game.engine.legal_actions(state))
    kind = rng.choice(sorted({action.kind for action in legal}))
    action = rng.choice([action for action in legal if action.kind == kind])
    services.submit_action(game, game.player(game.to_decide), action.to_json(), game.seq)


def forget_games_since(pk: int) -> None:
    """Delete the games numbered above ``pk`` and number the next ones from there again."""
    Game.objects.filter(pk__gt=pk).delete()
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = 'games_game'", [pk])
        elif connection.vendor == "postgresql":
            cursor.execute(
                "SELECT setval(pg_get_serial_sequence('games_game', 'id'), %s, %s)",
                [max(pk, 1), pk > 0],
            )

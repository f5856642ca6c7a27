"""`manage.py bench_site`: times what a player waits for, on a throwaway database.

Plays one game through the real views (Django's test client, the configured database) and
prints the median and 95th percentile of: rendering the game page, an HTMX move (lock, replay
or cache, apply, append, commit, render), and a fresh replay of the stored log.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import setup_test_environment

from basilica_site.logs import without_move_lines
from games.engine import basilica as engine
from games.play import services, states


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def long_game(options, actions: int = 100) -> tuple[int, int]:
    """A seed and a seed of move choices whose game lasts at least ``actions`` actions (random
    play ends an expansion game in about 87 actions, one in ten past 100)."""
    for attempt in range(200):
        state, rng = engine.new_game(options, attempt), random.Random(attempt)
        while not state.finished:
            state = engine.apply_action(state, rng.choice(engine.legal_actions(state)))
        if len(state.history) >= actions:
            return attempt, attempt
    raise RuntimeError(f"no game of {actions} actions in 200 tries")


class Command(BaseCommand):
    help = "Time the game page, a move and a replay on a real game (a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=400)

    @without_move_lines
    def handle(self, *args, moves: int, **options):
        from django.db import connection

        from basilica_site.runtime import freeze_startup_objects

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        import basilica_site.asgi  # noqa: F401 - set up as a server process is

        freeze_startup_objects()
        try:
            self.bench(moves)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def long_game(self, ann, bob, play: bool = True):
        settings = services.GameSettings(options={"expansion": True}, first="me")
        game = services.create_game(ann, settings)
        seed, rng_seed = long_game(game.engine_options)
        game.seed = seed
        game.save(update_fields=["seed"])
        game = services.accept_game(game, bob)
        rng = random.Random(rng_seed)
        while play and game.status == "active":
            state = states.load_state(game)
            action = rng.choice(engine.legal_actions(state)).to_json()
            game = services.submit_action(game, game.player(state.to_decide), action, game.seq)
        return game

    def replay_steps(self, game, user) -> list[float]:
        """The replay view, stepped as a player does: from a cold cache, jumps to random steps,
        then forward and back through the game one step at a time. The view is called as the
        server calls it (Django's test client keeps every rendered context of its requests,
        which would weigh on this process's garbage collector)."""
        from django.test import RequestFactory
        from django_htmx.middleware import HtmxDetails

        from games.archive import replays

        factory = RequestFactory()

        def get(step: int):
            request = factory.get(
                f"/games/{game.pk}/replay/", {"step": step}, HTTP_HX_REQUEST="true"
            )
            request.user = user
            request.htmx = HtmxDetails(request)
            return replays.replay(request, game.pk)

        get(0)  # the templates compiled once, as in a running server
        states.forget_cached_states()
        rng = random.Random(11)
        steps = [rng.randrange(game.seq + 1) for _ in range(20)]
        steps += list(range(game.seq + 1)) + list(range(game.seq, -1, -1))
        samples = []
        for step in steps:
            start = time.perf_counter()
            response = get(step)
            samples.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
        slowest = sorted(zip(samples, range(len(steps)), steps, strict=True), reverse=True)[:3]
        self.stdout.write(
            "slowest steps (ms, request number, step): "
            + ", ".join(f"{t * 1000:.0f} #{i} step {s}" for t, i, s in slowest)
        )
        self.stdout.write(
            f"replay steps: {len(samples)} over {game.seq} actions, worst "
            f"{max(samples) * 1000:.1f} ms (target: every step <= 50 ms)"
        )
        return samples

    def bench(self, moves: int) -> None:
        ann = User.objects.create_user("bench-ann", password="a long enough password 1")
        bob = User.objects.create_user("bench-bob", password="a long enough password 2")
        # An expansion game long enough for the replay's figure (120+ actions): a deal and a
        # choice of moves that make one, found by playing them through the engine first. The
        # replay is timed first, on a game played through the service, while this process holds
        # no more than a server would (the test client below keeps what it rendered).
        steps = self.replay_steps(self.long_game(ann, bob), ann)
        game = self.long_game(ann, bob, play=False)
        _, rng_seed = long_game(game.engine_options)
        clients = [Client(), Client()]
        clients[0].force_login(ann)
        clients[1].force_login(bob)
        rng = random.Random(rng_seed)
        page, move, replay = [], [], []
        url = game.get_absolute_url()
        for _ in range(moves):
            game.refresh_from_db()
            if game.status != "active":
                break
            state = states.load_state(game)
            client = clients[state.to_decide]
            start = time.perf_counter()
            client.get(url)
            page.append(time.perf_counter() - start)
            action = rng.choice(engine.legal_actions(state)).to_json()
            start = time.perf_counter()
            response = client.post(
                f"{url}act/",
                {"action": json.dumps(action), "seq": game.seq},
                HTTP_HX_REQUEST="true",
            )
            move.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            start = time.perf_counter()
            states.replay_game(game)
            replay.append(time.perf_counter() - start)
        game.refresh_from_db()
        self.stdout.write(f"moves played: {len(move)} (game {game.status}, seq {game.seq})")
        for name, samples in (
            ("game page (GET)", page),
            ("move (HTMX POST)", move),
            ("replay from the database", replay),
            ("replay: one step (GET)", steps),
        ):
            self.stdout.write(
                f"{name:26} median {statistics.median(samples) * 1000:6.1f} ms   "
                f"p95 {percentile(samples, 0.95) * 1000:6.1f} ms"
            )

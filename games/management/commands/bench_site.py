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

from games import services
from games.engine import basilica as engine


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = "Time the game page, a move and a replay on a real game (a throwaway database)."

    def add_arguments(self, parser):
        parser.add_argument("--moves", type=int, default=120)

    def handle(self, *args, moves: int, **options):
        from django.db import connection

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            self.bench(moves)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def bench(self, moves: int) -> None:
        ann = User.objects.create_user("bench-ann", password="a long enough password 1")
        bob = User.objects.create_user("bench-bob", password="a long enough password 2")
        game = services.create_game(ann, services.GameSettings(first="me"))
        game = services.accept_game(game, bob)
        clients = [Client(), Client()]
        clients[0].force_login(ann)
        clients[1].force_login(bob)
        rng = random.Random(7)
        page, move, replay = [], [], []
        url = game.get_absolute_url()
        for _ in range(moves):
            game.refresh_from_db()
            if game.status != "active":
                break
            state = services.load_state(game)
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
            services.replay_game(game)
            replay.append(time.perf_counter() - start)
        game.refresh_from_db()
        self.stdout.write(f"moves played: {len(move)} (game {game.status}, seq {game.seq})")
        for name, samples in (
            ("game page (GET)", page),
            ("move (HTMX POST)", move),
            ("replay from the database", replay),
        ):
            self.stdout.write(
                f"{name:26} median {statistics.median(samples) * 1000:6.1f} ms   "
                f"p95 {percentile(samples, 0.95) * 1000:6.1f} ms"
            )

"""`manage.py bench_ratings`: what ratings cost, on a throwaway database.

Prints the median and 95th percentile of: rating a game at its end (``ratings.game_over``,
inside the ending transaction), a whole resignation of a rated game through the service (lock,
end, rating, commit) beside one of a casual game, and the profile page of a player with
hundreds of rated games (its chart included); then the recompute of every rated game.
"""

from __future__ import annotations

import statistics
import time
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client
from django.test.utils import setup_test_environment
from django.utils import timezone

from games.models import Game
from games.play import services
from games.ratings import service as ratings


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Command(BaseCommand):
    help = "Time a rated game's end, the profile page of a player of hundreds of games, and the recompute."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=500, help="rated games on the profile")

    def handle(self, *args, games: int, **options):
        from django.db import connection

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            self.bench(games)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def line(self, name: str, samples: list[float]) -> None:
        self.stdout.write(
            f"{name:40} median {statistics.median(samples) * 1000:7.2f} ms   "
            f"p95 {percentile(samples, 0.95) * 1000:7.2f} ms   ({len(samples)} runs)"
        )

    def bench(self, count: int) -> None:
        ann = User.objects.create_user("bench-ann", password="a long enough password 1")
        rivals = [
            User.objects.create_user(f"bench-rival-{n}", password="a long enough password 2")
            for n in range(20)
        ]
        start = timezone.now() - timedelta(days=count)
        rate_only = []
        for n in range(count):
            game = Game.objects.create(
                created_by=ann,
                seat0=ann,
                seat1=rivals[n % len(rivals)],
                options={"edition": "2022"},
                time_control="3d",
                rated=True,
                status=Game.Status.FINISHED,
                winners=[n % 2],
                scores=[10, 20],
                started_at=start + timedelta(days=n),
                finished_at=start + timedelta(days=n, hours=1),
            )
            with transaction.atomic():
                began = time.perf_counter()
                ratings.game_over(game)
                rate_only.append(time.perf_counter() - began)
        self.line("rating a game's end (game_over)", rate_only)

        ends = {True: [], False: []}
        for n in range(60):
            rated = n % 2 == 0
            settings = services.GameSettings(time_control="3d", rated=rated, first="me")
            game = services.create_game(rivals[0], settings)
            game = services.accept_game(game, rivals[1 + n % 19])
            began = time.perf_counter()
            services.resign(game, rivals[0])
            ends[rated].append(time.perf_counter() - began)
        self.line("resignation of a rated game", ends[True])
        self.line("resignation of a casual game", ends[False])

        client = Client()
        client.force_login(rivals[0])
        url = f"/players/{ann.username}/"
        client.get(url)  # the templates compiled once, as in a running server
        pages = []
        for _ in range(15):
            began = time.perf_counter()
            response = client.get(url)
            pages.append(time.perf_counter() - began)
            assert response.status_code == 200, response.status_code
        self.line(f"profile page, {count} rated games", pages)
        self.stdout.write(f"profile page size: {len(response.content) // 1024} KB")

        began = time.perf_counter()
        done = ratings.recompute()
        self.stdout.write(
            f"recompute: {done['games']} rated games in {(time.perf_counter() - began) * 1000:.0f} ms"
        )

"""`manage.py bench_clocks`: what clocks cost, on a throwaway database.

Prints the time to read a live game's clocks after a long game (every decision's time is
read), the game page of that game, and the worker's minute sweep over many running
correspondence games: when none is out of time (the common minute) and when some are.
"""

from __future__ import annotations

import random
import statistics
import time
from datetime import timedelta

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand
from django.test import Client
from django.test.utils import setup_test_environment
from django.utils import timezone

from games import tasks
from games.engine import basilica as engine
from games.models import Action, Game, PlayerSettings
from games.play import services, states, timing


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


class Command(BaseCommand):
    help = "Time reading clocks, the game page of a live game, and the minute sweep."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=500)

    def handle(self, *args, games: int, **options):
        from django.db import connection

        setup_test_environment()
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
        try:
            from huey.contrib.djhuey import HUEY

            HUEY.immediate = True  # nothing is left queued for a real worker
            self.bench(games)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)

    def players(self) -> tuple[User, User]:
        ann = User.objects.create_user("clock-ann", password="a long enough password 1")
        bob = User.objects.create_user("clock-bob", password="a long enough password 2")
        for user in (ann, bob):  # no vacation to save a game: the sweep ends them
            PlayerSettings.objects.create(
                user=user, vacation_days=0, vacation_earned_at=timezone.now()
            )
        return ann, bob

    def bench(self, count: int) -> None:
        ann, bob = self.players()
        live = self.long_live_game(ann, bob)
        reads = []
        for _ in range(200):
            start = time.perf_counter()
            timing.read(live)
            reads.append(time.perf_counter() - start)
        client = Client()
        client.force_login(ann)
        pages = []
        for _ in range(30):
            start = time.perf_counter()
            client.get(live.get_absolute_url())
            pages.append(time.perf_counter() - start)
        self.stdout.write(
            f"live game of {live.seq} actions: clock read median {median_ms(reads):.2f} ms, "
            f"game page median {median_ms(pages):.1f} ms"
        )
        self.many_correspondence_games(ann, bob, count)
        for label, later in (("none out of time", 0), ("a tenth and the live game out of time", 1)):
            now = timezone.now() + timedelta(days=later * 2, minutes=1)
            if later:
                ended = list(Game.objects.running().filter(time_control="3d")[: count // 10])
                Game.objects.filter(pk__in=[g.pk for g in ended]).update(
                    time_control="1d", deadline=timezone.now()
                )
            start = time.perf_counter()
            result = tasks.sweep(now)
            elapsed = time.perf_counter() - start
            self.stdout.write(
                f"sweep of {count} correspondence games, {label}: {elapsed * 1000:.0f} ms "
                f"({result['ended']} ended, {result['warned']} warned)"
            )

    def long_live_game(self, ann, bob) -> Game:
        settings = services.GameSettings(first="me", time_control="30+20")
        game = services.accept_game(services.create_game(ann, settings), bob)
        rng = random.Random(3)
        state, actions = states.load_state(game), []
        while not state.finished and len(actions) < 80:
            actions.append(rng.choice(engine.legal_actions(state)))
            state = engine.apply_action(state, actions[-1])
        Action.objects.bulk_create(
            Action(
                game=game,
                seq=i,
                player=e["player"],
                user=game.player(e["player"]),
                data=e["action"],
            )
            for i, e in enumerate(state.history, start=1)
        )
        Game.objects.filter(pk=game.pk).update(seq=len(actions), to_decide=state.to_decide)
        game.refresh_from_db()
        return game

    def many_correspondence_games(self, ann, bob, count: int) -> None:
        settings = services.GameSettings(first="me", time_control="3d")
        for _ in range(count):
            services.accept_game(services.create_game(ann, settings), bob)

"""`manage.py recompute_ratings`: every rating again from the stored games, in the order they
ended, so that a referee's correction of a result reaches every later rated game."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from games.ratings import service


class Command(BaseCommand):
    help = "Recompute every rating from the stored rated games, in the order they ended."

    def handle(self, *args, **options):
        started = time.perf_counter()
        done = service.recompute()
        took = time.perf_counter() - started
        self.stdout.write(
            f"{done['games']} rated games replayed into {done['ratings']} ratings in {took:.2f} s"
        )

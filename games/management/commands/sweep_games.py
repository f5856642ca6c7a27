"""Run the clock sweep once: end every game out of time, warn those almost out, ask again for
the bot moves a compute worker dropped (for cron, or for an admin who wants it now; the task
runner runs it every minute)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.tasks import sweep


class Command(BaseCommand):
    help = (
        "End every game whose clock has run out, send the 'time almost up' emails, and ask "
        "again for the bot moves a compute worker dropped."
    )

    def handle(self, *args, **options) -> None:
        result = sweep()
        self.stdout.write(
            f"{result['ended']} game(s) ended on time, {result['warned']} player(s) warned, "
            f"{result['asked_again']} bot move(s) asked for again."
        )

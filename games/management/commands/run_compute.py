"""Run a consumer of the compute queue: the computer's moves and hints, in process workers (one
search a core), highest priority first. Any number may run, on this machine or on others that
reach the same database and Redis; the light queue's consumer (`manage.py run_huey`) runs the
clocks, notifications and emails."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import connections
from django.utils.module_loading import autodiscover_modules
from huey.consumer_options import ConsumerConfig


class Command(BaseCommand):
    help = "Run the compute queue's consumer: bot moves and hints, one process a core."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--workers",
            type=int,
            default=settings.COMPUTE_WORKERS,
            help="worker processes (default: COMPUTE_WORKERS, else one a core)",
        )

    def handle(self, *args, workers: int, **options) -> None:
        autodiscover_modules("tasks")
        from games.tasks import COMPUTE

        config = ConsumerConfig(**{**settings.HUEY_COMPUTE["consumer"], "workers": workers})
        config.validate()
        logger = logging.getLogger("huey")
        if not logger.handlers:
            config.setup_logger(logger)
        # What every move needs, imported once here rather than in each worker's first move.
        from games import bots, kinds  # noqa: F401

        # The workers are forked: none may inherit this process's connections, to the database
        # or to the light queue's storage.
        connections.close_all()
        from huey.contrib.djhuey import HUEY

        HUEY.storage.close()
        COMPUTE.create_consumer(**config.values).run()

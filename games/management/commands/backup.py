"""Dump the site's PostgreSQL database into BACKUP_DIR, under a name that says when.

    manage.py backup [--dir DIR] [--keep-daily N] [--keep-weekly N] [--keep-monthly N]

``pg_dump -Fc`` of ``DATABASE_URL``: one transaction's snapshot, so the dump is consistent
while the site keeps running, and compressed. Given a retention, the dumps it does not keep are
removed afterwards (only dumps of this command's naming, never another file). ``manage.py
restore_check`` proves the latest one restores; ``make backup`` runs this one.
"""

from __future__ import annotations

import os
import subprocess
import time
from argparse import ArgumentTypeError
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from games.management import backups


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ArgumentTypeError(f"{text!r} is not a count of 1 or more")
    return int(text)


class Command(BaseCommand):
    help = "Dump the site's PostgreSQL database (pg_dump -Fc) into BACKUP_DIR, timestamped."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--dir", help="where dumps are kept (default: $BACKUP_DIR, else backups/ here)"
        )
        for period, example in (("daily", 7), ("weekly", 4), ("monthly", 12)):
            parser.add_argument(
                f"--keep-{period}",
                type=_at_least_one,
                default=0,
                metavar="N",
                help=f"keep the newest dump of each of the last N {period} periods "
                f"(e.g. {example}); the other dumps are removed",
            )

    def handle(self, *args, dir=None, keep_daily=0, keep_weekly=0, keep_monthly=0, **options):
        params = backups.connection_params(connection.settings_dict)
        where = backups.folder(dir)
        where.mkdir(mode=0o700, parents=True, exist_ok=True)  # dumps hold password hashes
        path = where / backups.dump_name(params["dbname"], datetime.now(UTC))
        if path.exists():
            raise CommandError(f"{path} exists already: one dump a second")
        began = time.perf_counter()
        dump(params, path)
        self.stdout.write(
            f"{path}: {backups.size(path)}, dumped in {time.perf_counter() - began:.1f} s"
        )
        if keep_daily or keep_weekly or keep_monthly:
            self.prune(where, keep_daily, keep_weekly, keep_monthly)

    def prune(self, where, daily: int, weekly: int, monthly: int) -> None:
        found = backups.dumps(where)
        keep = backups.kept([backups.taken_at(path) for path in found], daily, weekly, monthly)
        removed = [path for path in found if backups.taken_at(path) not in keep]
        for path in removed:
            path.unlink()
        self.stdout.write(
            f"dumps kept: {len(found) - len(removed)}, removed: {len(removed)} "
            f"(the newest of each of the last {daily} days, {weekly} weeks and {monthly} months)"
        )


def dump(params: dict[str, str], path) -> None:
    """pg_dump into ``path``, by way of a ``.partial`` file readable by this user only, renamed
    once pg_dump has finished and the file is on disk."""
    partial = path.with_name(path.name + ".partial")
    command = ["pg_dump", "--format=custom", f"--dbname={backups.conninfo(params)}"]
    try:
        with open(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as out:
            done = subprocess.run(command, stdout=out, env=backups.client_env(params), check=False)
            out.flush()
            os.fsync(out.fileno())
    except FileNotFoundError:
        partial.unlink(missing_ok=True)
        raise CommandError(
            "pg_dump is not installed (Debian: apt-get install postgresql-client)"
        ) from None
    if done.returncode:
        partial.unlink(missing_ok=True)
        raise CommandError(f"pg_dump failed (exit {done.returncode}): no dump was written")
    partial.rename(path)

"""Prove that the latest dump restores: into a scratch database, migrated, every game replayed.

    manage.py restore_check [DUMP] [--dir DIR] [--max-age HOURS]

The latest dump in BACKUP_DIR (or the one named) is restored with pg_restore into a database
made for the check on the site's own PostgreSQL server (the site's user needs CREATEDB), then
``manage.py migrate`` and ``manage.py check_games`` run against it, each in a process of its
own with ``DATABASE_URL`` pointing there, as an operator would run them. The scratch database
is dropped however the check ends. It prints what the dump holds (games, actions, accounts) and
check_games' figures, and exits non-zero if the dump does not restore, does not migrate, is
older than ``--max-age`` (a backup that stopped running), or if a game does not replay as
stored. Run with this release's code on last night's dump, it is also the upgrade's rehearsal.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from games.management import backups

CHECKED = re.compile(r"^(\d+) games? checked", re.MULTILINE)  # check_games' summary


def _stop(signum, frame):
    """A SIGTERM (a cron job's timeout, a supervisor) ends the check as an error does, so that
    the scratch database is dropped."""
    raise SystemExit(128 + signum)


class Command(BaseCommand):
    help = (
        "Restore the latest dump into a scratch database on the same server, migrate it, "
        "replay every game (check_games), and drop it."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("dump", nargs="?", help="a dump (default: the latest in BACKUP_DIR)")
        parser.add_argument(
            "--dir", help="where dumps are kept (default: $BACKUP_DIR, else backups/ here)"
        )
        parser.add_argument(
            "--max-age",
            type=float,
            metavar="HOURS",
            help="fail if the dump was taken longer ago than this (e.g. 26 for nightly dumps)",
        )

    def handle(self, *args, dump=None, dir=None, max_age=None, **options) -> None:
        params = backups.connection_params(connection.settings_dict)
        path = Path(dump) if dump else backups.latest(backups.folder(dir))
        if not path.is_file():
            raise CommandError(f"{path}: no such dump")
        self.stdout.write(f"{path}: {backups.size(path)}{self.age(path, max_age)}")
        signal.signal(signal.SIGTERM, _stop)
        name = backups.scratch_name(params["dbname"])
        with backups.scratch_database(params, name):
            restored = self.restore(path, params, name)
            env = {
                **os.environ,
                "DATABASE_URL": backups.scratch_url(os.environ["DATABASE_URL"], name),
            }
            self.manage(env, "migrate", "--noinput")
            report = self.manage(env, "check_games")
        self.stdout.write(f"the scratch database {name} is dropped")
        summary = CHECKED.search(report)
        replayed = int(summary[1]) if summary else None
        if replayed != restored["games"]:
            raise CommandError(
                f"check_games replayed {replayed} games of the {restored['games']} restored"
            )
        self.stdout.write(
            f"restore check passed: {restored['games']} games restored, {replayed} replayed, "
            "0 mismatches"
        )

    def age(self, path: Path, max_age: float | None) -> str:
        """When the dump was taken, as its name says; refused if older than ``max_age`` hours."""
        taken = backups.taken_at(path)
        if taken is None:
            if max_age is not None:
                raise CommandError(f"{path}: its name does not say when it was taken")
            return ""
        hours = (datetime.now(UTC) - taken).total_seconds() / 3600
        if max_age is not None and hours > max_age:
            raise CommandError(
                f"the latest dump, {path.name}, was taken {hours:.1f} hours ago, more than "
                f"{max_age:g}: is the backup still running?"
            )
        return f", taken {taken:%Y-%m-%d %H:%M} UTC ({hours:.1f} hours ago)"

    def restore(self, path: Path, params: dict[str, str], name: str) -> dict[str, int]:
        """pg_restore into the scratch database, stopping at the first error; what it holds."""
        began = time.perf_counter()
        command = [
            "pg_restore",
            "--exit-on-error",
            "--no-owner",  # the objects become the restoring user's: the check needs no roles
            "--no-privileges",
            f"--dbname={backups.conninfo(params, name)}",
            str(path),
        ]
        self.stdout.flush()  # before pg_restore's own messages
        try:
            done = subprocess.run(command, env=backups.client_env(params), check=False)
        except FileNotFoundError:
            raise CommandError(
                "pg_restore is not installed (Debian: apt-get install postgresql-client)"
            ) from None
        if done.returncode:
            raise CommandError(
                f"{path.name} does not restore: pg_restore failed (exit {done.returncode})"
            )
        restored = backups.count_rows(params, name)
        self.stdout.write(
            f"restored into {name} in {time.perf_counter() - began:.1f} s: "
            f"{restored['games']} games, {restored['actions']} actions, "
            f"{restored['accounts']} accounts"
        )
        return restored

    def manage(self, env: dict[str, str], *command: str) -> str:
        """``manage.py COMMAND`` on the scratch database, its output shown here; what it
        printed, or an error naming it if it failed."""
        self.stdout.write(f"manage.py {' '.join(command)}:")
        done = backups.manage_py(env, *command)
        self.stdout.write("  " + done.stdout.rstrip().replace("\n", "\n  "))
        if done.returncode:
            raise CommandError(f"the restored dump fails manage.py {command[0]} (above)")
        return done.stdout

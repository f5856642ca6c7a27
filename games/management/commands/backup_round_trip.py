"""`manage.py backup_round_trip` (`make backup-check`, run by `make test`): the backups restore.

On a PostgreSQL server (``--server``: the machine's by default), with databases of its own:

1. a throwaway database is migrated and seeded with games of every kind, option set and rules
   version (``seed_games``, as ``make check-games`` does on SQLite), then dumped by
   ``manage.py backup``;
2. ``manage.py restore_check`` restores that dump into a scratch database, migrates it and
   replays every game: it must pass, with every seeded game restored and replayed;
3. and it must fail, naming why, on two dumps that are not what was stored: one taken after a
   game's row was made to claim an action its log lacks (check_games names the game), and the
   good dump cut short (pg_restore stops).

Each command runs in a process of its own, as an operator runs it. Every database the run made
is dropped, however it ends, and the run fails if the server still lists one afterwards.
"""

from __future__ import annotations

import os
import secrets
import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.management import backups

SERVER = "postgresql://postgres@127.0.0.1:5432/postgres"


class Command(BaseCommand):
    help = "Seed a throwaway PostgreSQL database, back it up, restore-check it (and two bad dumps)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--server",
            default=SERVER,
            help=f"a PostgreSQL URL whose user may create databases (default: {SERVER})",
        )

    def handle(self, *args, server: str = SERVER, **options) -> None:
        from psycopg.conninfo import conninfo_to_dict

        began = time.perf_counter()
        params = {key: str(value) for key, value in conninfo_to_dict(server).items()}
        source = f"basilica_backup_check_{secrets.token_hex(4)}"
        with tempfile.TemporaryDirectory(prefix="basilica-backup-check-") as folder:
            work = Path(folder)
            env = {
                **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
                "DJANGO_DEBUG": "1",  # seed_games is for a throwaway database only
                "DATABASE_URL": backups.scratch_url(server, source),
                "HUEY_SQLITE": str(work / "tasks.huey"),  # what the seeding queues, never run
            }
            with backups.scratch_database(params, source):
                commit_without_waiting(params, source)
                self.manage(env, "migrate", "--noinput", "-v0")
                self.manage(env, "seed_games")
                seeded = backups.count_rows(params, source)["games"]
                good = self.backed_up(env, work / "good")
                self.passes(env, good, seeded)

                game = one_action_short(params, source)
                tampered = self.backed_up(env, work / "tampered")
                self.fails(
                    env, tampered, f"game {game} (", "a game's row claims an action its log lacks"
                )
                self.fails(
                    env, cut_short(good, work / "cut"), "does not restore", "the dump cut short"
                )
        left = [name for name in databases(params) if name.startswith(source)]
        if left:
            raise CommandError(f"databases left on the server: {', '.join(left)}")
        self.stdout.write(
            f"backup round trip passed in {time.perf_counter() - began:.1f} s: {seeded} games "
            "seeded, dumped, restored and replayed with 0 mismatches; a changed game and a dump "
            "cut short refused; every database made is dropped"
        )

    def backed_up(self, env: dict[str, str], where: Path):
        self.manage(env, "backup", f"--dir={where}")
        return backups.latest(where)

    def passes(self, env: dict[str, str], dump: Path, seeded: int) -> None:
        done = self.manage(env, "restore_check", str(dump), check=False)
        expected = f"{seeded} games restored, {seeded} replayed, 0 mismatches"
        if done.returncode or expected not in done.stdout:
            raise CommandError(f"restore_check did not pass the good dump with {expected}")

    def fails(self, env: dict[str, str], dump: Path, told: str, what: str) -> None:
        self.stdout.write(f"-- {what}: restore_check must fail")
        done = self.manage(env, "restore_check", str(dump), check=False)
        if not done.returncode or told not in done.stdout:
            raise CommandError(f"restore_check did not fail, saying {told!r}, on {what}")

    def manage(self, env: dict[str, str], *command: str, check: bool = True):
        """``manage.py COMMAND`` in a process of its own, its output shown as it ends."""
        began = time.perf_counter()
        done = backups.manage_py(env, *command)
        took = time.perf_counter() - began
        self.stdout.write(f"$ manage.py {' '.join(command)}  ({took:.1f} s)")
        if done.stdout.strip():
            self.stdout.write(done.stdout.rstrip())
        if check and done.returncode:
            raise CommandError(f"manage.py {command[0]} failed (exit {done.returncode})")
        return done


def commit_without_waiting(params: dict[str, str], dbname: str) -> None:
    """The throwaway database's commits return before they reach the disk: seeding it takes
    a third less time, and a crash could lose only games made to be thrown away."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(**params, autocommit=True) as server:
        server.execute(
            sql.SQL("ALTER DATABASE {} SET synchronous_commit = off").format(sql.Identifier(dbname))
        )


def one_action_short(params: dict[str, str], dbname: str) -> int:
    """Make a finished game's row count one action more than its log holds, as a dump that lost
    a row would show it; the game's number."""
    import psycopg

    with psycopg.connect(**{**params, "dbname": dbname}) as database:
        return database.execute(
            "UPDATE games_game SET seq = seq + 1 WHERE id = "
            "(SELECT min(id) FROM games_game WHERE status = 'finished' AND seq > 0) RETURNING id"
        ).fetchone()[0]


def cut_short(dump: Path, where: Path) -> Path:
    """A copy of ``dump`` with its second half gone (a disk that filled up), under its name."""
    where.mkdir()
    cut = where / dump.name
    cut.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    return cut


def databases(params: dict[str, str]) -> list[str]:
    import psycopg

    with psycopg.connect(**params) as server:
        return [row[0] for row in server.execute("SELECT datname FROM pg_database")]

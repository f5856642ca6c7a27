"""Dumps of the site's PostgreSQL database: where they are kept, what they are called, which to
keep, and the scratch database one is restored into. ``manage.py backup`` writes them,
``manage.py restore_check`` proves the latest one restores (README, "Running in production").

A dump is ``<database>-<UTC time>.dump`` (``basilica-20261126T031500Z.dump``), in pg_dump's
custom format (``-Fc``), written under a ``.partial`` name and renamed once complete, so that a
dump cut short by a full disk or a killed cron job is never taken for the latest.

The connection is the site's own (``DATABASE_URL``): pg_dump, pg_restore and psycopg are given
its host, port, user, database and options such as ``sslmode`` in libpq's words, and its
password in their environment only, never on a command line that ``ps`` shows.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.core.management.base import CommandError

STAMP = "%Y%m%dT%H%M%SZ"
DUMP_NAME = re.compile(r"^(?P<database>.+)-(?P<taken>\d{8}T\d{6}Z)\.dump$")
# The retention's three periods: a dump's day, ISO week and month (UTC).
PERIODS = {
    "daily": lambda taken: taken.date(),
    "weekly": lambda taken: taken.isocalendar()[:2],
    "monthly": lambda taken: (taken.year, taken.month),
}


# -- where the dumps are kept ------------------------------------------------------------------


def folder(given: str | None) -> Path:
    """The dumps' folder: the one given, else ``BACKUP_DIR``, else ``backups`` in the checkout
    (git-ignored)."""
    return Path(given or os.environ.get("BACKUP_DIR") or Path(settings.BASE_DIR) / "backups")


def dump_name(database: str, taken: datetime) -> str:
    return f"{database}-{taken.astimezone(UTC):{STAMP}}.dump"


def taken_at(path: Path) -> datetime | None:
    """When the dump was taken, read from its name (None for a name of another shape)."""
    match = DUMP_NAME.match(path.name)
    if match is None:
        return None
    return datetime.strptime(match["taken"], STAMP).replace(tzinfo=UTC)


def dumps(where: Path) -> list[Path]:
    """The complete dumps in ``where``, oldest first; files of any other name are not ours."""
    found = [path for path in where.glob("*.dump") if taken_at(path) and path.is_file()]
    return sorted(found, key=taken_at)


def latest(where: Path) -> Path:
    found = dumps(where)
    if not found:
        raise CommandError(f"no dump in {where} (run manage.py backup first)")
    return found[-1]


def kept(times: list[datetime], daily: int = 0, weekly: int = 0, monthly: int = 0) -> set:
    """Which of the dumps taken at ``times`` a retention of ``daily`` days, ``weekly`` weeks and
    ``monthly`` months keeps: for each, the newest dump of each of the last so many periods that
    have one. A dump kept by any of the three is kept, so the newest always is."""
    keep = set()
    for period, count in zip(PERIODS.values(), (daily, weekly, monthly), strict=True):
        seen = set()
        for taken in sorted(times, reverse=True):
            which = period(taken)
            if which in seen:
                continue
            if len(seen) == count:
                break
            seen.add(which)
            keep.add(taken)
    return keep


# -- the connection ----------------------------------------------------------------------------


def connection_params(database: dict) -> dict[str, str]:
    """The site's database in libpq's words (``settings.DATABASES["default"]``), password
    included; refused if it is not PostgreSQL."""
    if database["ENGINE"] != "django.db.backends.postgresql":
        raise CommandError(
            "backups are of a PostgreSQL database: set DATABASE_URL to the site's PostgreSQL "
            "(e.g. postgres://basilica:secret@127.0.0.1:5432/basilica)"
        )
    # OPTIONS holds what the URL's query string set (sslmode…) and the settings' pool (a dict).
    params = {
        key: str(value) for key, value in database["OPTIONS"].items() if isinstance(value, str)
    }
    for key, name in (("NAME", "dbname"), ("USER", "user"), ("HOST", "host"), ("PORT", "port")):
        if database.get(key):
            params[name] = str(database[key])
    if database.get("PASSWORD"):
        params["password"] = database["PASSWORD"]
    return params


def conninfo(params: dict[str, str], dbname: str | None = None) -> str:
    """A libpq connection string for pg_dump's or pg_restore's ``--dbname``, without the
    password (see ``client_env``)."""
    from psycopg.conninfo import make_conninfo

    shown = {key: value for key, value in params.items() if key != "password"}
    return make_conninfo(**{**shown, "dbname": dbname or params["dbname"]})


def client_env(params: dict[str, str]) -> dict[str, str]:
    """The environment of a PostgreSQL client program: this one's, with the password."""
    env = dict(os.environ)
    if "password" in params:
        env["PGPASSWORD"] = params["password"]
    return env


def scratch_url(database_url: str, dbname: str) -> str:
    """``DATABASE_URL`` with another database on the same server: the same user, password and
    options."""
    return urlsplit(database_url)._replace(path=f"/{dbname}").geturl()


def scratch_name(source: str) -> str:
    """A database name no other run uses, within PostgreSQL's 63 bytes."""
    suffix = f"_restore_check_{secrets.token_hex(4)}"
    return source.encode()[: 63 - len(suffix)].decode(errors="ignore") + suffix


@contextlib.contextmanager
def scratch_database(params: dict[str, str], name: str):
    """A new, empty database ``name`` on the server of ``params``, dropped however the block
    ends (the user needs CREATEDB). It is made from template0, as pg_restore asks: template1
    may hold objects of its own that the dump would then make a second time."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(**params, autocommit=True) as server:
        server.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE template0").format(sql.Identifier(name))
        )
    try:
        yield name
    finally:
        with psycopg.connect(**params, autocommit=True) as server:
            server.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def count_rows(params: dict[str, str], dbname: str) -> dict[str, int]:
    """What a restored database holds that an operator would miss: games, their actions, and
    the accounts."""
    import psycopg

    tables = {"games": "games_game", "actions": "games_action", "accounts": "auth_user"}
    with psycopg.connect(**{**params, "dbname": dbname}) as database:
        return {
            what: database.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for what, table in tables.items()
        }


def size(path: Path) -> str:
    """A file's size in the words ``ls -h`` would use."""
    amount, units = float(path.stat().st_size), ["bytes", "KB", "MB", "GB"]
    while amount >= 1024 and len(units) > 1:
        amount, units = amount / 1024, units[1:]
    return f"{amount:.0f} bytes" if units[0] == "bytes" else f"{amount:.1f} {units[0]}"


def manage_py(env: dict[str, str], *command: str) -> subprocess.CompletedProcess:
    """``manage.py COMMAND`` in a process of its own, with ``env`` (another database): what it
    printed, its errors among it, and how it ended."""
    return subprocess.run(
        [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), *command],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )

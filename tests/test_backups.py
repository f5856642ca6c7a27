"""What an operator relies on in the backups besides the round trip on PostgreSQL (`make
backup-check`): which dumps the retention keeps, which dump counts as the latest, and that the
password never reaches a command line."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management.base import CommandError

from games.management import backups
from games.management.commands.backup import Command as Backup
from games.management.commands.restore_check import Command as RestoreCheck

NIGHT = datetime(2026, 11, 26, 3, 15, tzinfo=UTC)  # a Thursday


def nightly(nights: int) -> list[datetime]:
    return [NIGHT - timedelta(days=n) for n in range(nights)]


def test_a_year_of_nightly_dumps_keeps_7_days_4_weeks_and_12_months():
    kept = backups.kept(nightly(365), daily=7, weekly=4, monthly=12)

    last_week = [date(2026, 11, day) for day in range(20, 27)]
    # The newest of each of the last four weeks: this Thursday's, then three Sundays.
    sundays = [date(2026, 11, 22), date(2026, 11, 15), date(2026, 11, 8)]
    month_ends = [
        date(2025, 12, 31),
        *(date(2026, month, 1) - timedelta(days=1) for month in range(2, 12)),
    ]
    assert sorted(taken.date() for taken in kept) == sorted({*last_week, *sundays, *month_ends})
    assert len(kept) == 20


def test_a_short_history_is_kept_whole():
    assert backups.kept(nightly(3), daily=7, weekly=4, monthly=12) == set(nightly(3))


def test_the_newest_dump_is_kept_by_any_retention():
    dumps = nightly(40)
    for retention in ({"daily": 1}, {"weekly": 1}, {"monthly": 1}):
        assert backups.kept(dumps, **retention) == {NIGHT}


def dump(folder, name: str) -> None:
    (folder / name).write_bytes(b"PGDMP")


def test_pruning_removes_old_dumps_and_nothing_else(tmp_path):
    for taken in nightly(30):
        dump(tmp_path, backups.dump_name("basilica", taken))
    for other in ("notes.txt", "before-the-move.dump", "basilica-20261127T031500Z.dump.partial"):
        dump(tmp_path, other)

    Backup().prune(tmp_path, daily=7, weekly=0, monthly=0)

    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == sorted(
        [
            *(backups.dump_name("basilica", taken) for taken in nightly(7)),
            "notes.txt",
            "before-the-move.dump",
            "basilica-20261127T031500Z.dump.partial",
        ]
    )


def test_the_latest_dump_is_the_last_taken_and_complete(tmp_path):
    dump(tmp_path, "basilica-20261126T031500Z.dump")
    dump(tmp_path, "basilica-20261125T031500Z.dump")
    dump(tmp_path, "basilica-20261127T031500Z.dump.partial")  # still being written
    dump(tmp_path, "zzz-copied-by-hand.dump")

    assert backups.latest(tmp_path).name == "basilica-20261126T031500Z.dump"


def test_an_empty_folder_has_no_latest_dump(tmp_path):
    with pytest.raises(CommandError, match="no dump in"):
        backups.latest(tmp_path)


def test_a_dump_older_than_the_max_age_fails_the_check(tmp_path):
    old = tmp_path / backups.dump_name("basilica", datetime.now(UTC) - timedelta(hours=30))
    dump(tmp_path, old.name)

    with pytest.raises(CommandError, match="is the backup still running"):
        RestoreCheck().age(old, max_age=26)
    assert "hours ago" in RestoreCheck().age(old, max_age=48)


def test_only_postgresql_is_backed_up():
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3", "OPTIONS": {}}
    with pytest.raises(CommandError, match="PostgreSQL"):
        backups.connection_params(sqlite)


def test_the_password_stays_off_the_command_line():
    site = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "basilica",
        "USER": "basilica",
        "PASSWORD": "s3cret",
        "HOST": "db.internal",
        "PORT": 5432,
        "OPTIONS": {"sslmode": "require", "pool": {"max_size": 20}},
    }
    params = backups.connection_params(site)

    line = backups.conninfo(params, "basilica_restore_check_1")
    assert "s3cret" not in line
    assert "dbname=basilica_restore_check_1" in line
    assert "sslmode=require" in line
    assert backups.client_env(params)["PGPASSWORD"] == "s3cret"


def test_the_scratch_database_is_on_the_same_server_with_the_same_options():
    url = "postgres://basilica:p%40ss@db.internal:5433/basilica?sslmode=require"

    assert backups.scratch_url(url, "basilica_restore_check_1") == (
        "postgres://basilica:p%40ss@db.internal:5433/basilica_restore_check_1?sslmode=require"
    )
    assert len(backups.scratch_name("b" * 80).encode()) <= 63

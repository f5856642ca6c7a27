"""Making sure the machine's PostgreSQL and Redis are running, starting them if they are not."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import time


def listening(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex((host, port)) == 0


def wait_for(port: int, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if listening(port):
            return True
        time.sleep(0.2)
    return False


def ensure_postgres() -> str | None:
    """None when PostgreSQL answers on 5432, else why it cannot."""
    if listening(5432):
        return None
    if not shutil.which("pg_ctlcluster"):
        return "PostgreSQL is not installed on this machine (no pg_ctlcluster)"
    versions = [os.path.basename(p) for p in glob.glob("/etc/postgresql/*")]
    if not versions:
        return "PostgreSQL has no cluster in /etc/postgresql"
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", versions[0], "main", "start"],
        capture_output=True,
        check=False,
    )
    return None if wait_for(5432) else "PostgreSQL did not start on port 5432"


def ensure_redis() -> str | None:
    """None when Redis answers on 6379, else why it cannot."""
    if listening(6379):
        return None
    if not shutil.which("redis-server"):
        return "Redis is not installed on this machine (no redis-server)"
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        capture_output=True,
        check=False,
    )
    return None if wait_for(6379) else "Redis did not start on port 6379"


if __name__ == "__main__":
    # `python tests/multiprocess/services_up.py postgres redis`: start what is asked, say why not.
    import sys

    checks = {"postgres": ensure_postgres, "redis": ensure_redis}
    problems = [p for name in sys.argv[1:] if (p := checks[name]())]
    for problem in problems:
        print(f"skipped: {problem}")
    sys.exit(1 if problems else 0)

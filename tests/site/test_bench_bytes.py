"""`manage.py bench_bytes` prints what a page, a move's answer and the rules page weigh as they
are sent: raw, in gzip and in brotli, each smaller than the one before."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
FIGURES = re.compile(r"(page|move|rules) ([\d,]+) · ([\d,]+) · ([\d,]+)")


def test_bench_bytes_prints_each_answer_raw_gzip_and_brotli():
    env = {**os.environ, "DJANGO_DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "manage.py", "bench_bytes"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    sent = done.stdout.split("bytes as sent")[1]
    for kind in ("basilica", "cathedral"):
        line = next(line for line in sent.splitlines() if line.startswith(kind))
        found = {
            name: [int(n.replace(",", "")) for n in sizes] for name, *sizes in FIGURES.findall(line)
        }
        assert set(found) == {"page", "move", "rules"}
        for raw, gzip, brotli in found.values():
            assert brotli < gzip < raw

"""The rules engine and the bots are pure Python: they load without Django or anything of the
site. (What they may import is a contract of `make lint`: pyproject.toml's importlinter.)"""

import subprocess
import sys


def test_engine_imports_without_django_loaded():
    code = (
        "import sys, games.engine, games.bots, games.bots.arena;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'basilica_site')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

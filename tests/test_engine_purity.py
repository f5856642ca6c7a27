"""The rules engine and the bots are pure Python: they must not import Django or anything from
the site."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "games" / "engine"
BOTS = ENGINE.parent / "bots"
FORBIDDEN = ("django", "channels", "daphne", "basilica_site", "games.models", "games.web.views")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_sources_import_nothing_from_django_or_the_site():
    sources = list(ENGINE.rglob("*.py")) + list(BOTS.rglob("*.py"))
    assert sources
    for path in sources:
        for name in imported_modules(path):
            assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"


def test_engine_imports_without_django_loaded():
    import subprocess
    import sys

    code = (
        "import sys, games.engine, games.bots, games.bots.arena;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'channels', 'basilica_site')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

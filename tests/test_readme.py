"""The README is a map for the next engineer: every file or folder it names is there. (A path
in the map of the move is named from inside ``games/``.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PATH = re.compile(r"`([\w.*-]+(?:/[\w.*-]*)+)`")
MADE_BY_THE_COMMANDS = {  # by `make run` and `make test`
    ".venv/",
    "test-artifacts/screenshots/",
    "node_modules/",
    "node_modules/axe-core/axe.min.js",
}


def named_paths() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return sorted({m for m in PATH.findall(text) if "." in m.rsplit("/", 1)[-1] or m.endswith("/")})


def exists(name: str) -> bool:
    return any(any(base.glob(name.rstrip("/"))) for base in (ROOT, ROOT / "games"))


def test_the_readme_names_paths():
    assert len(named_paths()) > 30


def test_every_path_the_readme_names_exists():
    ours = [n for n in named_paths() if not n.startswith("../") and n not in MADE_BY_THE_COMMANDS]
    missing = [name for name in ours if not exists(name)]
    assert missing == []

"""The deployment in the README starts: from a clean checkout, before `collectstatic`."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def checkout(tmp_path) -> Path:
    """The project's files as git would check them out: no staticfiles/, no database."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tmp_path / name)
    assert not (tmp_path / "staticfiles").exists()
    return tmp_path


def production_env(checkout: Path) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "EMAIL"))}
    clean.pop("DATABASE_URL", None)
    clean.pop("REDIS_URL", None)
    return {
        **clean,
        "DJANGO_DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "basilica.example",
        "CSRF_TRUSTED_ORIGINS": "https://basilica.example",
        "DATABASE_URL": f"sqlite:///{checkout / 'production.sqlite3'}",
        "EMAIL_HOST": "smtp.basilica.example",
    }


def manage(checkout: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=checkout,
        env=production_env(checkout),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_migrates_and_passes_the_deployment_checks_before_collectstatic(checkout):
    migrated = manage(checkout, "migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    checked = manage(checkout, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no issues" in checked.stdout


def test_collectstatic_minifies_the_sites_own_stylesheets_and_scripts(checkout):
    """A first visit carries no comment or indentation of the site's own CSS and JS: production's
    copies are minified, still hashed, still linked to the hashed sprite, and still JavaScript."""
    collected = manage(checkout, "collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stderr
    root = checkout / "staticfiles"
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    for name in ("css/site.css", "css/pieces.css", "js/game.js", "js/drag.js"):
        served = root / manifest[name]
        source = checkout / "static" / name
        assert served.stat().st_size < 0.9 * source.stat().st_size, name
        assert "/*" not in served.read_text()[:200], f"{name} kept its opening comment"
    pieces = (root / manifest["css/pieces.css"]).read_text()
    assert manifest["img/pieces.svg"].split("/")[-1] in pieces
    if shutil.which("node"):
        for name in ("js/game.js", "js/drag.js", "js/site.js", "js/cathedral.js"):
            checked = subprocess.run(
                ["node", "--check", str(root / manifest[name])], capture_output=True
            )
            assert checked.returncode == 0, checked.stderr
    # htmx comes minified from django-htmx and is served as it is
    htmx = next(k for k in manifest if k.startswith("django_htmx/") and k.endswith(".min.js"))
    assert (root / manifest[htmx]).read_bytes() == (root / htmx).read_bytes()

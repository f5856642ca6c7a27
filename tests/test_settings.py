"""Production reads its settings from the environment; without it, the embedded default runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROBE = (
    "import json, django; from django.conf import settings as s; django.setup();"
    "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'],"
    "'db': s.DATABASES['default']['NAME'], 'layer': s.CHANNEL_LAYERS['default']['BACKEND'],"
    "'hosts': s.ALLOWED_HOSTS, 'debug': s.DEBUG, 'secret': s.SECRET_KEY,"
    "'static': s.STORAGES['staticfiles']['BACKEND'],"
    "'whitenoise': 'whitenoise.middleware.WhiteNoiseMiddleware' in s.MIDDLEWARE}))"
)
SITE_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DJANGO_DEBUG",
    "EMAIL_HOST",
    "EMAIL_URL",
    "EMAIL_BACKEND",
)


def settings_with(**env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SITE_VARIABLES}
    clean["DJANGO_SETTINGS_MODULE"] = "basilica_site.settings"
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**clean, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


def test_the_development_default_is_sqlite_and_the_in_memory_layer():
    result = settings_with(DJANGO_DEBUG="1")
    facts = json.loads(result.stdout)
    assert facts["engine"] == "basilica_site.sqlite"  # Django's, its writers taking turns
    assert facts["layer"] == "channels.layers.InMemoryChannelLayer"
    assert facts["debug"] is True


def test_production_reads_the_database_redis_secret_and_hosts_from_the_environment():
    result = settings_with(
        DJANGO_DEBUG="0",
        SECRET_KEY="from-the-environment",
        ALLOWED_HOSTS="basilica.example,www.basilica.example",
        DATABASE_URL="postgres://player@db.internal:5432/basilica",
        REDIS_URL="redis://cache.internal:6379/0",
        EMAIL_HOST="smtp.internal",
    )
    facts = json.loads(result.stdout)
    assert facts["engine"] == "django.db.backends.postgresql"
    assert facts["db"] == "basilica"
    assert facts["layer"] == "channels_redis.core.RedisChannelLayer"
    assert facts["hosts"] == ["basilica.example", "www.basilica.example"]
    assert facts["secret"] == "from-the-environment"
    assert facts["debug"] is False
    assert facts["whitenoise"]
    assert facts["static"] == "basilica_site.storage.MinifiedStaticFilesStorage"


def test_production_refuses_to_start_without_a_secret_key():
    result = settings_with(DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_debug_is_off_unless_asked_for_so_the_embedded_secret_never_serves():
    result = settings_with()
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_refuses_to_start_with_mail_going_to_the_console():
    result = settings_with(DJANGO_DEBUG="0", SECRET_KEY="from-the-environment")
    assert result.returncode != 0
    assert "production needs an SMTP server" in result.stderr

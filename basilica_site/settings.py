"""Settings for Basilica online.

With no environment set, the site runs on its embedded default: SQLite, the in-memory channel
layer and a development secret. In production set ``DJANGO_DEBUG=0`` and ``SECRET_KEY``,
``ALLOWED_HOSTS``, ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (channels-redis).
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from basilica_site.logs import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


# Development only when asked for: `make run` and the tests set DJANGO_DEBUG=1.
DEBUG = env_flag("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set in the environment in production")
    SECRET_KEY = "dev-only-not-secret-basilica"

ALLOWED_HOSTS = [
    h.strip()
    for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if h.strip()
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "huey.contrib.djhuey",
    "games",
    # The staff's second factor (games.web.second_factor): TOTP apps and recovery codes.
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
]

MIDDLEWARE = [
    # First, so that every line logged while a request is served carries its request id.
    "basilica_site.logs.RequestContext",
    # Next, first in and last out of the rest: a request's time is the whole of the site's work.
    "games.web.metrics.measure_requests",
    "django.middleware.security.SecurityMiddleware",
    # Outside every middleware that writes a body (compact_html), so that it compresses what they
    # made; outside whitenoise too, so that development's static files, read from the sources,
    # go out compressed (production's were compressed by collectstatic and are left as they are).
    "basilica_site.compression.CompressedResponses",
    # Before the session is read: a chat flood's posts answered for a dictionary lookup.
    "games.web.middleware.chat_flood_gate",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    # A staff session reaches no admin page before its second factor.
    "games.web.second_factor.staff_second_factor",
    "games.web.locale.PlayerLocale",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.web.middleware.compact_html",
    "games.web.middleware.DatabaseUnavailable",
]

ROOT_URLCONF = "basilica_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "django.template.context_processors.tz",
                "games.web.context_processors.turns",
                "games.web.context_processors.sanctions",
            ],
            # Every template's {% url %} is Django's, each address worked out once a process.
            "builtins": ["games.templatetags.reversed_once"],
        },
    },
]

WSGI_APPLICATION = "basilica_site.wsgi.application"
ASGI_APPLICATION = "basilica_site.asgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Waits on a locked database instead of failing at once when two requests write together.
    # IMMEDIATE transactions take the write lock at once, so two moves on one game queue up
    # (SQLite has no SELECT ... FOR UPDATE) instead of failing on a lock upgrade.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    # Django's backend, whose writers in one process take turns on a lock that hands the turn
    # on at once, where SQLite's busy handler sleeps in growing steps (basilica_site/sqlite).
    DATABASES["default"]["ENGINE"] = "basilica_site.sqlite"
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A pool of connections per process (psycopg's): every socket's consumer works in a thread of
    # its own, and a connection opened and closed for each of their queries made PostgreSQL fork
    # a backend each time and, with two processes under load, run out of connections (500s).
    # The pool bounds a process's connections and lends them for each piece of work; a burst
    # waits for one instead of failing. (It replaces persistent connections: CONN_MAX_AGE 0.)
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # A connection is checked before it is lent (Django asks the pool to, with health checks on):
    # after PostgreSQL restarts, the pool's dead ones are dropped instead of failing requests.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DB_POOL_SIZE", "20")),
        "timeout": 20,
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    # - A socket's receive is a blocking pop that Redis ends after 5 s with nothing
    #   (RedisChannelLayer.brpop_timeout). redis-py 8 gives every read a 5 s timeout by default,
    #   which fired first: every socket quiet for 5 s (a correspondence game's) was cut off and
    #   reconnected. Reads wait longer than the pop; a Redis that hangs is still noticed.
    # - All the sockets of one process share one Redis list, and a push finding it full is
    #   dropped without a word: 100 (the default) is one busy daphne a few seconds behind. A
    #   late push still lands; a dropped one leaves its pages a move behind until the next. The
    #   pushes are small announcements (each socket draws its own page), so 2000 weigh little.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15}],
                "capacity": 2000,
            },
        }
    }
    # Answering as an empty cache while Redis is away (basilica_site/cache.py), and waiting
    # a second at most for one that hangs: the cache holds only copies and counts.
    CACHES = {
        "default": {
            "BACKEND": "basilica_site.cache.ForgivingRedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": {"socket_timeout": 1, "socket_connect_timeout": 1},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "basilica_site.cache.LocalCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# English, French and Polish: the languages Basilica's rulebooks were published in. The same URL
# in every language (no prefix): a player's stored choice, else the language cookie the footer's
# switcher sets, else the browser's Accept-Language (games.web.locale).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("pl", "Polski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# Times are stored in UTC and shown in the viewer's zone: their account's, else their browser's.
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "basilica_site.storage.MinifiedStaticFilesStorage"
        )
    },
}

# Development serves the sources as they are on disk, found at each request (an edit shows at
# the next reload), compressed on the fly (basilica_site.compression) and asked for again at
# every load (max-age 0, answered 304 while unchanged). Names hashed and cached forever need
# `collectstatic` after every edit: production only, where collectstatic also writes each
# file's .gz and .br (whitenoise, with the brotli package). Said here rather than left to
# whitenoise's reading of DEBUG, which the tests turn off.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
if DEBUG:
    WHITENOISE_MAX_AGE = 0

# Addresses whose answers are never compressed (basilica_site.compression, BREACH): the admin's
# pages put a search typed in the address beside every player's data and secrets.
UNCOMPRESSED_PATHS = ("/admin/",)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

# -- email: the console in development; an SMTP server from the environment in production ----
# EMAIL_URL=smtp://user:password@host:587 (STARTTLS), smtps://...:465 (TLS), or the EMAIL_HOST,
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS, EMAIL_USE_SSL variables.
EMAIL_URL = os.environ.get("EMAIL_URL", "")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_URL:
    _mail = urlsplit(EMAIL_URL)
    if _mail.scheme not in ("smtp", "smtps"):
        raise ImproperlyConfigured("EMAIL_URL must be smtp://... or smtps://...")
    EMAIL_HOST = _mail.hostname or ""
    EMAIL_PORT = _mail.port or (465 if _mail.scheme == "smtps" else 587)
    EMAIL_HOST_USER = unquote(_mail.username or "")
    EMAIL_HOST_PASSWORD = unquote(_mail.password or "")
    EMAIL_USE_SSL = _mail.scheme == "smtps"
    EMAIL_USE_TLS = not EMAIL_USE_SSL and EMAIL_PORT != 25
elif EMAIL_HOST:
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_flag("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", not EMAIL_USE_SSL and EMAIL_PORT != 25)
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_TIMEOUT = 15
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "basilica@localhost")
# The address links in emails point to.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# -- the task runner: huey, on a SQLite file by default, on Redis in production -----------------
# Two queues, each with consumers of its own, so that light work never waits behind the
# computer's thinking:
# - the light queue (HUEY, `manage.py run_huey`): clock sweeps, a live game's flag, notifications,
#   emails, the digest. Its periodic tasks run once a tick however many light consumers run.
# - the compute queue (HUEY_COMPUTE, `manage.py run_compute`): bot moves, hints, and later
#   analyses, in process workers (a search a core), highest priority first; any number of them,
#   on this machine or on any other that reaches the database and Redis.
# An idle consumer looks at a SQLite queue every QUEUE_POLL_SECONDS at most (Redis wakes it).
QUEUE_POLL_SECONDS = float(os.environ.get("QUEUE_POLL_SECONDS", "0.1"))
HUEY = {
    "name": "basilica",
    "immediate": env_flag("HUEY_IMMEDIATE", False),
    "utc": True,
    "consumer": {
        "workers": 2,
        "worker_type": "thread",
        "periodic": True,
        "max_delay": QUEUE_POLL_SECONDS,
    },
}
# Compute workers a `run_compute` starts: one a core, unless told otherwise.
COMPUTE_WORKERS = int(os.environ.get("COMPUTE_WORKERS", "0")) or os.cpu_count() or 1
HUEY_COMPUTE = {
    "name": "basilica-compute",
    "immediate": HUEY["immediate"],
    "utc": True,
    "consumer": {
        "workers": COMPUTE_WORKERS,
        "worker_type": "process",
        "periodic": False,
        "max_delay": QUEUE_POLL_SECONDS,
        # A process supervisor's stop (SIGTERM) lets the searches under way finish (seconds);
        # SIGINT stops at once, and the moves it cut short are queued again.
        "graceful_signal": "TERM",
        "shutdown_timeout": 60,
    },
}
if REDIS_URL:
    HUEY.update(huey_class="huey.RedisHuey", url=REDIS_URL)
    # Priorities need Redis's sorted sets (Redis 5 or later).
    HUEY_COMPUTE.update(huey_class="huey.PriorityRedisHuey", url=REDIS_URL)
else:
    HUEY.update(
        huey_class="huey.SqliteHuey",
        filename=os.environ.get("HUEY_SQLITE", str(BASE_DIR / "huey.sqlite3")),
    )
    # The same file: a queue of its own in it.
    HUEY_COMPUTE.update(huey_class="huey.SqliteHuey", filename=HUEY["filename"])
# A bot's move that a compute worker took and did not finish within this time (the worker died,
# its machine stopped) is asked for once more by the minute sweep; so is one whose request was
# lost (a queue emptied).
COMPUTER_STALLED_SECONDS = int(os.environ.get("COMPUTER_STALLED_SECONDS", "30"))
# /health/ says the site is unhealthy when no light consumer has swept for this long.
HEALTH_WORKER_SECONDS = int(os.environ.get("HEALTH_WORKER_SECONDS", "180"))
# /metrics/ (Prometheus) answers these addresses or networks, and whoever sends the token as a
# bearer when one is set; anyone else gets a 404 (games.web.metrics).
METRICS_ALLOWED_IPS = [
    a.strip()
    for a in os.environ.get("METRICS_ALLOWED_IPS", "127.0.0.1,::1").split(",")
    if a.strip()
]
for _allowed in METRICS_ALLOWED_IPS:
    try:
        ipaddress.ip_network(_allowed)
    except ValueError as error:
        raise ImproperlyConfigured(f"METRICS_ALLOWED_IPS: {error}") from None
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# The search bot's simulations a move, instead of its budget for each kind (games.bots): for a
# machine much slower or faster than these, or the figures of `make load-compute`. 0: the budget.
COMPUTER_SIMULATIONS = int(os.environ.get("COMPUTER_SIMULATIONS", "0"))

# Playing the computer on the in-memory channel layer: how long the web process watches for the
# bot's move after nothing moved (seconds), and how often it looks (games.computer.watch).
COMPUTER_WATCH_SECONDS = float(os.environ.get("COMPUTER_WATCH_SECONDS", "60"))
COMPUTER_WATCH_INTERVAL = 0.25
# Games against the computer one account may have in play at once, and begin in an hour: every
# bot move costs the task runner up to a second, and a script could start thousands.
COMPUTER_GAMES_IN_PLAY = int(os.environ.get("COMPUTER_GAMES_IN_PLAY", "10"))
COMPUTER_GAMES_PER_HOUR = int(os.environ.get("COMPUTER_GAMES_PER_HOUR", "20"))

# -- correspondence: notifications and vacation ------------------------------------------------
NOTIFY_DELAY_SECONDS = int(os.environ.get("NOTIFY_DELAY_SECONDS", "120"))
NOTIFY_WATCHING_SECONDS = 300  # "your turn" is not sent to a player who had the game open
NOTIFY_RETRIES = 3
NOTIFY_RETRY_DELAY_SECONDS = 60
# Web Push: the VAPID key pair that signs every push to a browser, base64url (a raw P-256 private
# key, an uncompressed public point: `manage.py vapid_keys` makes a pair), and the contact push
# services may write to. Without them development makes a pair once and keeps it in
# VAPID_DEV_FILE (git-ignored); production then sends no push.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
VAPID_DEV_FILE = Path(os.environ.get("VAPID_DEV_FILE", str(BASE_DIR / "vapid-dev.json")))
# Subscriptions whose push service is on plain HTTP or this machine's own network: development's
# stand-ins only, never production's (the task runner posts to every endpoint a browser gives).
PUSH_LOCAL_ENDPOINTS = DEBUG
# The browsers' push services a subscription may name (Chrome and Edge on Android, Firefox,
# Safari, Edge on Windows), and their subdomains; a space-separated list replaces them.
PUSH_SERVICE_DOMAINS = os.environ.get(
    "PUSH_SERVICE_DOMAINS",
    "fcm.googleapis.com android.googleapis.com push.services.mozilla.com push.apple.com "
    "notify.windows.com",
).split()
VACATION_START_DAYS = 7
VACATION_DAYS_PER_MONTH = 2
VACATION_CAP_DAYS = 30

# Django's database sessions, their row read by a query compiled once (basilica_site/sessions.py).
SESSION_ENGINE = "basilica_site.sessions"

if not DEBUG:
    SESSION_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_flag("SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Error reports to Sentry, only when SENTRY_DSN is set (basilica_site.reporting says what a
# report may not hold); otherwise the SDK is not started at all.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
if SENTRY_DSN:
    from basilica_site.reporting import start_error_reporting

    start_error_reporting(
        SENTRY_DSN,
        environment=os.environ.get("SENTRY_ENVIRONMENT", "development" if DEBUG else "production"),
        traces_sample_rate=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
    )

# Readable lines in development; in production one JSON object a line, each with its request id
# and user id (basilica_site.logs). `LOG_LEVEL` and `HUEY_LOG_LEVEL` set how much is said.
LOGGING = logging_config(DEBUG)

# -- hardening for the open internet (issue 10) -----------------------------------------------

INSTALLED_APPS += ["axes", "csp"]
MIDDLEWARE += [
    "csp.middleware.CSPMiddleware",
    "games.web.middleware.htmx_caching",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # refuses a locked-out login before the password check
    "basilica_site.backends.PasswordBackend",  # Django's, its user read compiled once
    "django.contrib.auth.backends.ModelBackend",  # the sessions signed in before it
]

# Login: five wrong passwords in a row are answered as such; the sixth, for one user name or
# from one address, locks logging in for a quarter of an hour, right password or not. The
# address is the connection's (daphne --proxy-headers behind nginx, see the README).
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "6"))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_LOCKOUT_MINUTES", "15")))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# The records of logins (address and browser of each; each failed one and whether it locked the
# name out, which axes keeps only when asked) are kept this many days, then cleared by the daily
# upkeep (games.upkeep), as the sessions past their expiry are.
AXES_ENABLE_ACCESS_FAILURE_LOG = True
LOGIN_RECORDS_DAYS = int(os.environ.get("LOGIN_RECORDS_DAYS", "90"))

# Per address: (requests, seconds). See games.ratelimit.
RATE_LIMITS = {
    "signup": (int(os.environ.get("SIGNUPS_PER_HOUR", "20")), 3600),
    "password_reset": (5, 3600),
    "create_game": (int(os.environ.get("GAMES_PER_HOUR", "30")), 3600),
    "hint": (60, 600),  # each costs 0.3 s of a web worker's time
    "note": (60, 60),  # per player: a save a second after typing stops, never faster
    # Per staff account: wrong second-factor codes (and recovery codes) before a pause.
    "second_factor": (int(os.environ.get("SECOND_FACTOR_FAILURE_LIMIT", "5")), 900),
}

# Game sockets one user may hold in one process: tabs and devices, not a script's thousands.
WEBSOCKETS_PER_USER = int(os.environ.get("WEBSOCKETS_PER_USER", "8"))
# Anonymous spectators' sockets from one address: a household or a classroom behind one router
# watching a few games, not a script's thousands (a session costs a script nothing).
WEBSOCKETS_PER_ADDRESS = int(os.environ.get("WEBSOCKETS_PER_ADDRESS", "24"))

# A socket's handshakes: a session whose socket talked (a page never does) is refused for
# SOCKET_SHUT_OUT_SECONDS, and any session past SOCKET_HANDSHAKES (count, seconds), before its
# session is read (games.live.gate). A page reconnects a few times a minute at most.
SOCKET_SHUT_OUT_SECONDS = int(os.environ.get("SOCKET_SHUT_OUT_SECONDS", "60"))
SOCKET_HANDSHAKES = (int(os.environ.get("SOCKET_HANDSHAKES", "30")), 10)

# Scripts, styles and sockets from this site only: no inline script or style, no eval.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
CSRF_COOKIE_HTTPONLY = True  # htmx sends the token from the page (hx-headers), not the cookie

if not DEBUG:
    # HTTPS only, behind a proxy that says which scheme the browser used (README: nginx).
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    # The process supervisor, the proxy and Prometheus ask the daphne itself, over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^health/(web/)?$", r"^metrics/$"]
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
    _proxy_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO")
    SECURE_PROXY_SSL_HEADER = (_proxy_header, "https") if _proxy_header else None

    # Mail must reach people (password resets, notifications): never the console in production.
    if not EMAIL_BACKEND.endswith(".smtp.EmailBackend"):
        raise ImproperlyConfigured(
            "production needs an SMTP server: set EMAIL_URL or EMAIL_HOST (see the README)"
        )

# The name the staff's authenticator apps show beside their code.
OTP_TOTP_ISSUER = "Basilica online"

# django-axes says every successful login at INFO: keep its warnings (lockouts) only.
LOGGING.setdefault("loggers", {})["axes"] = {"level": "WARNING"}

# Game chat (games.community.chat): a player's messages, at most CHAT_BURST at once anywhere and
# then one every CHAT_EVERY_SECONDS (5 in 10 s in the long run), and CHAT_PER_GAME_DAY in one
# game in a day. A message containing one of the hidden words (also editable in the admin,
# "Hidden words") is held from the others until a moderator looks: comma-separated in
# CHAT_HIDDEN_WORDS in the environment.
CHAT_BURST = 5
CHAT_EVERY_SECONDS = 2
CHAT_PER_GAME_DAY = 200
CHAT_HIDDEN_WORDS = [
    word.strip().lower()
    for word in os.environ.get("CHAT_HIDDEN_WORDS", "").split(",")
    if word.strip()
]

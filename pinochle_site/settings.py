"""Settings for Pinochle Table, read from the environment.

Safe for a laptop with nothing set (SQLite, DEBUG off, a generated secret key kept in
``var/``); strict in production, where ``SECURE=true`` turns on HTTPS-only cookies,
redirects and HSTS. pinochle_site/DEPLOYMENT.md lists every variable.
"""

import hashlib
import os
import secrets
import sys
from collections.abc import Mapping
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.getenv("VAR_DIR", BASE_DIR / "var"))


def envbool(name: str, default: str = "false") -> bool:
    return os.getenv(name, default).strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: int) -> int:
    """A whole number from the environment; blank means the default, and a value that is not a
    whole number is reported and replaced by the default rather than stopping the server."""
    text = os.getenv(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        print(f"{name}={text!r} is not a whole number: using {default}.", file=sys.stderr)
        return default
    return value


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def private_file(path: Path) -> Path:
    """Make sure ``path`` exists and only its owner can read it (mode 0600)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return path


def _local_secret_key() -> str:
    """A random key made once per checkout (mode 0600), so a laptop needs no configuration.

    Written aside and linked into place, so gunicorn workers starting together agree on one key.
    """
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        draft = private_file(VAR_DIR / f"secret_key.{os.getpid()}")
        draft.write_text(secrets.token_urlsafe(50))
        try:
            os.link(draft, key_file)
        except FileExistsError:
            pass  # another process made it first: use theirs
        else:
            print(
                f"Made a secret key in {key_file} (mode 0600); set SECRET_KEY to choose one.", file=sys.stderr
            )
        finally:
            draft.unlink()
    return private_file(key_file).read_text().strip()


SECURE = envbool("SECURE")
if SECURE and not os.getenv("SECRET_KEY"):
    # Behind HTTPS the key must be chosen, kept safe and shared by every server, not made on one of them.
    raise ImproperlyConfigured(
        "SECURE=true needs SECRET_KEY: set it to a long random string, e.g. the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
SECRET_KEY = os.getenv("SECRET_KEY") or _local_secret_key()
DEBUG = envbool("DEBUG")
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "scorepad",
]

MIDDLEWARE = [
    "pinochle_site.middleware.BodyLimitMiddleware",  # first: a body too big is refused, not waited for
    "scorepad.live.request_slots.RequestSlotsMiddleware",  # a request waits here for its turn
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "pinochle_site.middleware.DatabaseUnavailableMiddleware",
]

# The largest request body read at all: a household backup (scorepad.services.exchange's
# MAX_BACKUP_BYTES, 20,000,000) with its form around it. Anything larger is a 413 in words before
# it is read (pinochle_site.middleware). Form fields are capped lower by Django's own
# DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB, a 400), and a file over FILE_UPLOAD_MAX_MEMORY_SIZE waits
# in a temporary file.
REQUEST_BODY_MAX_BYTES = 21_000_000

ROOT_URLCONF = "pinochle_site.urls"
WSGI_APPLICATION = "pinochle_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

if os.getenv("DATABASE_URL"):
    # Each of a worker's request threads keeps its connection for a minute (live/request_threads.py);
    # an event stream closes the one it reads with after each read.
    DATABASES = {"default": dj_database_url.config(conn_max_age=60, conn_health_checks=True)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            # Made 0600 before SQLite opens it; its -wal and -shm files take the same mode.
            "NAME": str(private_file(Path(os.getenv("SQLITE_PATH", VAR_DIR / "pinochle.sqlite3")))),
            "OPTIONS": {
                # One writer at a time without "database is locked" errors under light load.
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,  # under a burst, a write waits its turn rather than failing
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # Tests use a file too, not Django's default in-memory database: the browser tests' live
            # server answers several phones at once, one thread each, and an in-memory database is
            # one connection shared by every thread, which SQLite refuses under concurrent use
            # ("bad parameter or other API misuse"). A file gives each thread its own connection.
            "TEST": {"NAME": str(VAR_DIR / "test-pinochle.sqlite3")},
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Log-in and sign-up limits (scorepad/throttle.py): (attempts, per seconds). Guessing stops long
# before a password falls, and the refused attempts cost no password hashing. An account is locked
# per address it is guessed from; from everywhere only at a much higher count, and never for a
# browser that has logged in to it before (pinochle_site/DEPLOYMENT.md, "Limits").
LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = (5, 15 * 60)
LOGIN_FAILURES_PER_ADDRESS = (10, 15 * 60)
LOGIN_FAILURES_PER_ACCOUNT = (100, 60 * 60)
SIGNUPS_PER_ADDRESS = (20, 60 * 60)
# What costs the server CPU (the bots, hints, the bid advisor): uses allowed per browser session
# and per account, per address (a household or an office shares one), and the window in seconds.
# CPU_BUDGET_SCALE multiplies the uses (a bigger server, or a load test's tireless visitors).
CPU_BUDGET_SCALE = max(1, envint("CPU_BUDGET_SCALE", 1))
CPU_BUDGETS = {
    name: (person * CPU_BUDGET_SCALE, address * CPU_BUDGET_SCALE, seconds)
    for name, (person, address, seconds) in {
        "practice-start": (30, 90, 60 * 60),
        "practice-move": (200, 600, 10 * 60),
        "practice-hint": (60, 180, 10 * 60),
        "practice-review": (120, 360, 10 * 60),
        "bid-advice": (20, 60, 10 * 60),
    }.items()
}
# The bots' CPU (moves, hints, reviews, the bid advisor) per address: (CPU seconds, per seconds),
# measured where each search ran; a sixth of a two-core machine, times CPU_BUDGET_SCALE.
CPU_SECONDS_PER_ADDRESS = (20 * CPU_BUDGET_SCALE, 60)
# What writes or reads a whole household at once: restores and game imports, and the exports
# (hands.csv, backup.json, a game's JSON). Uses allowed per account, per address, and the window
# in seconds: far above a household's evenings, far below a script restoring its 30,000 hands
# a dozen times in half a minute.
EXCHANGE_LIMITS = {"restore": (10, 30, 60 * 60), "export": (60, 180, 60 * 60)}
# Visitors' practice games kept per browser: starting another deletes the oldest, which the browser
# could no longer open anyway.
PRACTICE_GAMES_PER_VISITOR = 20
# Open event streams (a phone's table, a room's standings screen), counted in each web process:
# per table seat (a reload opens the new stream before the old one closes), per address, and in
# all. Each idle stream holds memory and a share of the event loop (scorepad/live/stream_caps.py).
STREAMS_PER_SEAT = 3
STREAMS_PER_ADDRESS = 20
STREAMS_PER_PROCESS = envint("STREAMS_PER_PROCESS", 300)
# Behind a reverse proxy every request comes from the proxy: read the client's address from the
# X-Forwarded-For entry the proxy appends (it must set it), so the limits are per client.
BEHIND_PROXY = envbool("BEHIND_PROXY")


CACHE_TIMEOUT_SECONDS = 0.25  # a Redis on the same network answers in a millisecond


def database_namespace(database: Mapping[str, object]) -> str:
    """A short name for this installation's database, put before every key and channel it uses in
    a shared Redis: two installations on one Redis (staging beside production, two test runs) then
    never read each other's cached standings or hear each other's table changes, though their
    events and tables have the same ids."""
    identity = ":".join(str(database.get(part, "")) for part in ("ENGINE", "HOST", "PORT", "NAME"))
    return "p" + hashlib.blake2b(identity.encode(), digest_size=5).hexdigest()


# CACHE_NAMESPACE names the installation outright (several databases behind one, say).
CACHE_NAMESPACE = os.getenv("CACHE_NAMESPACE", "").strip() or database_namespace(DATABASES["default"])


def cache_settings(url: str, namespace: str = CACHE_NAMESPACE) -> dict[str, object]:
    """The counters' cache: with ``CACHE_URL`` (``redis://host:6379/0``) one Redis shared by every
    server, through Django's own backend, each key under the installation's ``namespace``; unset,
    files in VAR_DIR (mode 0700), shared by every gunicorn worker on this machine only."""
    if not url:
        return {
            "BACKEND": "pinochle_site.cache.FileCache",
            "LOCATION": VAR_DIR / "cache",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    if url.startswith(("redis://", "rediss://", "unix://")):
        # The cache is a helper, never a dependency: a Redis that is down or paused costs a request
        # a quarter of a second per call, then the caller goes on without it (scorepad/throttle.py
        # counts in its own process, the tallies are scored from the database).
        options = {"socket_timeout": CACHE_TIMEOUT_SECONDS, "socket_connect_timeout": CACHE_TIMEOUT_SECONDS}
        return {
            "BACKEND": "pinochle_site.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": namespace,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"CACHE_URL={url!r} is not a Redis URL: use redis://host:6379/0 (rediss:// for TLS), "
        "or leave it unset for a cache on this machine only."
    )


CACHES = {"default": cache_settings(os.getenv("CACHE_URL", "").strip())}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "pinochle_site.storage.StaticStorage"},
}
# Serve static/ itself too, so a VAR_DIR without collectstatic still has its CSS and htmx.
WHITENOISE_USE_FINDERS = True

# Content Security Policy: scripts and styles only from our own origin or with the
# per-request nonce; no inline handlers, no eval (so no hx-on and no trigger filters).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Production (SECURE, read above): behind HTTPS. Off on a laptop, where the phone reaches the app
# over plain HTTP.
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000) if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE and envbool("SECURE_HSTS_PRELOAD", "true")
if envbool("SECURE_PROXY_SSL_HEADER"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90  # a household keeps its phone logged in for a season

# Practice bots think in this many lower-priority processes per web worker (scorepad/bot_pool.py);
# 0: in the request's own thread. Under gunicorn, 1 unless the environment says (gunicorn_conf).
PRACTICE_BOT_PROCESSES = envint("PRACTICE_BOT_PROCESSES", 0)
PRACTICE_BOT_NICENESS = envint("PRACTICE_BOT_NICENESS", 10)
# Requests per web worker that may think or wait for a bot at once; more are told the bots are
# busy. Below GUNICORN_THREADS, so a scorekeeper's request always finds a thread; more than
# PRACTICE_BOT_PROCESSES only queues (a waiting request holds a thread and adds no speed).
PRACTICE_BOTS_AT_ONCE = envint("PRACTICE_BOTS_AT_ONCE", 1)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
}

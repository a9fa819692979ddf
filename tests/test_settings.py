"""Settings from the environment: private secrets, a clear refusal in production, static files
before collectstatic. Start-up is run in a child process, as a server would start."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from pinochle_site import settings as settings_module
from pinochle_site.settings import cache_settings

ROOT = Path(__file__).resolve().parent.parent
PRINT_HSTS = "from django.conf import settings; print(settings.SECURE_HSTS_SECONDS)"


def start(tmp_path, *args, **env):
    """``manage.py *args`` with a fresh VAR_DIR, the embedded SQLite database and ``env``."""
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "VAR_DIR": str(tmp_path / "var"), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow  # a process of its own
def test_a_laptop_makes_its_secret_key_once_and_keeps_it_and_the_database_private(tmp_path):
    first = start(tmp_path, "check")
    assert first.returncode == 0, first.stderr
    var = tmp_path / "var"
    assert f"Made a secret key in {var / 'secret_key'} (mode 0600)" in first.stderr
    assert mode(var / "secret_key") == 0o600
    assert mode(var / "pinochle.sqlite3") == 0o600
    key = (var / "secret_key").read_text()
    again = start(tmp_path, "check")
    assert "Made a secret key" not in again.stderr
    assert (var / "secret_key").read_text() == key


def test_production_without_a_secret_key_refuses_to_start_in_words(tmp_path):
    result = start(tmp_path, "check", SECURE="true")
    assert result.returncode != 0
    assert "SECURE=true needs SECRET_KEY" in result.stderr.splitlines()[-1]
    assert not (tmp_path / "var" / "secret_key").exists()


@pytest.mark.slow  # a process of its own
@pytest.mark.parametrize(("value", "seconds"), [("3600", "3600"), ("", "31536000"), ("1 year", "31536000")])
def test_hsts_seconds_from_the_environment_never_stop_the_start(tmp_path, value, seconds):
    env = {"SECURE": "true", "SECRET_KEY": "k" * 50, "SECURE_HSTS_SECONDS": value}
    result = start(tmp_path, "shell", "-v0", "-c", PRINT_HSTS, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == seconds
    assert ("is not a whole number" in result.stderr) == (value == "1 year")


@pytest.mark.slow  # collects every static file
@pytest.mark.django_db
def test_pages_render_before_collectstatic_and_use_hashed_names_after(client, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path / "staticfiles"  # a fresh VAR_DIR: nothing collected yet
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "pinochle_site.storage.StaticStorage"},
    }
    page = client.get(reverse("home"))
    assert page.status_code == 200
    assert 'href="/static/css/app.css"' in page.content.decode()
    call_command("collectstatic", "--noinput", verbosity=0)
    settings.STORAGES = {**settings.STORAGES}  # a new storage instance reads the new manifest
    assert 'href="/static/css/app.css"' not in client.get(reverse("home")).content.decode()


@pytest.mark.parametrize(
    ("url", "backend"),
    [
        ("", "pinochle_site.cache.FileCache"),
        ("redis://cache.internal:6379/0", "pinochle_site.cache.RedisCache"),
        ("rediss://cache.internal:6380/1", "pinochle_site.cache.RedisCache"),
    ],
)
def test_cache_url_chooses_one_redis_for_every_server_and_unset_keeps_this_machines_files(url, backend):
    chosen = cache_settings(url)
    assert chosen["BACKEND"] == backend
    assert chosen["LOCATION"] == (url or settings_module.VAR_DIR / "cache")


def test_a_cache_url_that_is_not_redis_refuses_to_start_in_words(tmp_path):
    result = start(tmp_path, "check", CACHE_URL="memcached://cache.internal:11211")
    assert result.returncode != 0
    assert "CACHE_URL='memcached://cache.internal:11211' is not a Redis URL" in result.stderr.splitlines()[-1]


@pytest.mark.slow  # a process of its own
@pytest.mark.parametrize(("value", "moves"), [("", "(200, 600, 600)"), ("10", "(2000, 6000, 600)")])
def test_cpu_budget_scale_multiplies_every_budgets_uses_not_its_window(tmp_path, value, moves):
    code = "from django.conf import settings; print(settings.CPU_BUDGETS['practice-move'])"
    result = start(tmp_path, "shell", "-v0", "-c", code, CPU_BUDGET_SCALE=value)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == moves

"""Fixtures shared by every test: plain static storage, Playwright on the system chromium, and the
table most tests play at: Ann, her household (the Smiths) and their games."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import settings as hypothesis_settings

from scorepad.engine import scoring
from scorepad.models import Game, Household
from scorepad.selectors import games as selectors_games
from scorepad.services.households import household_create, player_create
from tests import playwright_loop
from tests.helpers import PASSWORD
from tests.sample_games import ROSTER, three_games

# Sync Playwright runs an event loop in the test thread; the ORM beside it is still sync.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PHONE = {"width": 375, "height": 812}
ROOT = Path(__file__).resolve().parent.parent

# No deadlines: these machines are shared and noisy, and speed lives in benchmarks.
# CI replays the same examples every run, so a red build is reproducible. The README's quick run
# asks for "quick" (``--hypothesis-profile=quick``): a quarter of the examples (``tests/examples.py``).
hypothesis_settings.register_profile("dev", deadline=None)
hypothesis_settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
hypothesis_settings.register_profile("quick", deadline=None, max_examples=25)
hypothesis_settings.load_profile("ci" if os.getenv("CI") else "dev")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under ``tests/browser/`` is a ``browser`` test, whether or not its module says so,
    so ``-m "not browser"`` never starts a chromium (the README's quick run leaves the folder out)."""
    for item in items:
        if item.nodeid.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)


# Test files that run whole on one worker: the browser tests, and a file whose module-scoped data
# lives in a transaction of its own (``tests/views/test_access.py``), which no other file's test
# may run inside.
RUN_WHOLE = ("tests/browser/", "tests/views/test_access.py")


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml). A browser test
    file (``tests/browser/``) runs whole on one worker, its tests one after another, sharing what its
    module sets up once (a server, a database); the files spread over the workers beside the tests
    without a browser, each of which goes wherever a worker is free. (All the browser tests on one
    worker kept the whole suite waiting on that worker; two chromiums at once are slower each, not
    slower in all.) So does each other file of ``RUN_WHOLE``."""
    from xdist.scheduler import LoadScopeScheduling

    class BrowserFilesWhole(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:  # a private hook: xdist's own loadfile overrides it so
            return nodeid.split("::", 1)[0] if nodeid.startswith(RUN_WHOLE) else nodeid

    return BrowserFilesWhole(config, log)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> object:
    """A test without a browser runs with Playwright's event loop set aside (``tests/playwright_loop.py``)."""
    if not item.nodeid.startswith("tests/browser/"):
        playwright_loop.set_aside()
    try:
        return (yield)
    finally:
        playwright_loop.put_back()


@pytest.fixture(scope="session", autouse=True)
def _test_settings(tmp_path_factory):
    """What every test runs with, set once for the session (a setting changed for each test costs
    its signals every time):

    * a live bus of this test process's own: its mailboxes in a folder of its own and its channels
      (Redis, PostgreSQL's notifications) under a name of its own. The xdist workers' databases
      number their club nights and tables alike, so a change told on one worker's bus had woken
      another worker's stream of the same number;
    * static files served straight from the finders, each looked up when asked for (whitenoise's
      autorefresh, as under DEBUG): manifest storage needs collectstatic, and listing every static
      file for each test client was a good part of a view test's time;
    * the cache in memory, never in the checkout's var/cache (emptied before each test, below);
    * a fast password hash: log-in tests check many passwords."""
    from django.conf import settings
    from django.test import override_settings

    with override_settings(
        VAR_DIR=tmp_path_factory.mktemp("var"),
        CACHE_NAMESPACE=f"{settings.CACHE_NAMESPACE}-test-{os.getpid()}",
        STORAGES={
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        },
        WHITENOISE_AUTOREFRESH=True,
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}},
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test counts log-in attempts from zero."""
    cache.clear()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite database migrated once per test process, for the servers tests start in a process of
    their own (gunicorn, ``loadtest``): each copies it into its ``VAR_DIR`` (``migrated_var_dir``)."""
    folder = tmp_path_factory.mktemp("migrated")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    migrate = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(migrate, cwd=ROOT, env={**env, "VAR_DIR": str(folder)}, check=True, timeout=120)
    return folder / "pinochle.sqlite3"


@pytest.fixture
def migrated_var_dir(tmp_path, migrated_sqlite) -> Path:
    """A ``VAR_DIR`` whose SQLite database is migrated, for a server of the test's own."""
    shutil.copy(migrated_sqlite, tmp_path / migrated_sqlite.name)
    return tmp_path


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test databases, dropped at the end only once the threads that keep a connection of their
    own (``CONN_MAX_AGE``) have closed it: the request threads the streams read in, the presence
    thread and asgiref's one thread for sync code called from async code outside a request.
    PostgreSQL refuses to drop a database someone is still connected to."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connection

    from scorepad.live import bus, request_threads
    from tests.asgi_live_server import close_connections_of

    with django_db_blocker.unblock():
        if request_threads._pool is not None:
            close_connections_of(request_threads._pool, request_threads.REQUEST_THREADS)
        close_connections_of(bus._presence_thread, 1)
        close_connections_of(SyncToAsync.single_thread_executor, 1)
        if connection.vendor == "postgresql":
            # Whatever still holds the database: the notifications' LISTEN of an event loop that
            # ended without cancelling it keeps its connection until the process ends.
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("browser tests drive the distribution's chromium: apt-get install chromium")
    return {
        **browser_type_launch_args,
        "executable_path": chromium,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """A phone that asks for less motion (a setting players use): it shows the same table, with
    the cards in place at once, so a test waits for what the phone shows, not for the animations
    (and its chromium draws no frames for them). The tests of the motion itself (cards landing, the
    veil over the hand, the pace) ask for it (``tests.helpers.with_motion``)."""
    return {
        **browser_context_args,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
        "reduced_motion": "reduce",
    }


# -- the table most tests play at ------------------------------------------------------------------


@pytest.fixture
def ann(django_user_model):
    """Ann, the user most tests act as: her password lets a browser or the log-in form sign her in;
    a test client signs her in with ``force_login`` (``member``)."""
    return django_user_model.objects.create_user(username="ann", password=PASSWORD)


@pytest.fixture
def member(client: Client, ann) -> Client:
    """A test client signed in as Ann."""
    client.force_login(ann)
    return client


@pytest.fixture
def roster() -> tuple[str, ...]:
    """The players ``household`` starts with. A module whose tests seat players of their own
    overrides this with ``()``."""
    return ROSTER


@pytest.fixture
def household(ann, roster) -> Household:
    """Ann's household, the Smiths, with ``roster`` on it."""
    household = household_create(user=ann, name="The Smiths")
    for name in roster:
        player_create(household=household, name=name)
    return household


@pytest.fixture
def games(household) -> dict[str, Game]:
    """Three games of the household, scored by hand in ``tests/sample_games.py``: classic won by
    Ann & Cy, classic still going, and double-deck still going."""
    return three_games(household)


@pytest.fixture(autouse=True)
def _no_bot_left_thinking(request):
    """A bot still thinking in this process when a test ends would make the next test's moves
    "busy" (``PRACTICE_BOTS_AT_ONCE``). A test with a live server may end while the server's thread
    still thinks for a request it sent: wait, a bounded while, for it. Any other test must not
    leave one behind at all."""
    from scorepad import bot_pool

    yield
    if {"live_server", "asgi_live_server"} & set(request.fixturenames):
        give_up = time.monotonic() + 30
        while bot_pool.thinking_now() and time.monotonic() < give_up:
            time.sleep(0.05)
    assert bot_pool.thinking_now() == 0, f"{request.node.nodeid} left a bot thinking"


@pytest.fixture
def scored(monkeypatch) -> list[int]:
    """The number of hands in each game the one scorer (``score_game``) scores."""
    calls: list[int] = []
    real = scoring.score_game

    def counting(variant, settings, entries):
        calls.append(len(entries))
        return real(variant, settings, entries)

    monkeypatch.setattr(scoring, "score_game", counting)
    monkeypatch.setattr(selectors_games, "score_game", counting)
    return calls

"""Phones for the browser tests that need more than the one ``page``: each a fresh browser context;
and ``asgi_live_server``, the production application on uvicorn (``tests/asgi_live_server.py``).

They are closed when the test ends, before its database is emptied: a scoreboard left open would
go on polling the live server through the tests that follow. And the database connections the
browser tests open are closed before Playwright stops (``_connections_closed_before_playwright_stops``).
"""

from collections.abc import Callable, Iterator

import pytest
from django.db import connections
from playwright.sync_api import Browser, BrowserContext, Playwright

from tests import playwright_loop
from tests.asgi_live_server import _asgi_server, asgi_live_server

__all__ = ["_asgi_server", "asgi_live_server"]


@pytest.fixture(scope="session", autouse=True)
def _connections_closed_before_playwright_stops(playwright: Playwright) -> Iterator[None]:
    """While Playwright's sync API is up, its event loop counts as running in this thread, so Django
    keeps this thread's database connections apart from the ones it opened before (asgiref's
    thread-critical ``Local`` turns into a context variable). Left open, such a connection outlives
    Playwright and the worker's test database cannot be dropped at the end (PostgreSQL: "is being
    accessed by other users"). Set up after Playwright starts, this closes them before it stops."""
    yield
    playwright_loop.put_back()
    connections.close_all()


@pytest.fixture(scope="session")
def browser(browser: Browser) -> Iterator[Browser]:
    """pytest-playwright's browser, closed at the end of the session with Playwright's event loop in
    place, should the session end on a test that set it aside (``tests/playwright_loop.py``)."""
    yield browser
    playwright_loop.put_back()


@pytest.fixture
def seeded(monkeypatch) -> Callable[[int], None]:
    """``seeded(seed)``: the next practice game is dealt from ``seed``."""

    def use(seed: int) -> None:
        monkeypatch.setattr("scorepad.services.practice.new_seed", lambda: seed)

    return use


@pytest.fixture
def new_phone(browser: Browser, browser_context_args: dict) -> Iterator[Callable[..., BrowserContext]]:
    """``new_phone(**context_options)``: another phone (375×812 unless told otherwise)."""
    contexts: list[BrowserContext] = []

    def make(**options: object) -> BrowserContext:
        context = browser.new_context(**{**browser_context_args, **options})
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()

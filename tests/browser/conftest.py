"""Phones for the browser tests that need more than the one ``page``: each a fresh browser context.

They are closed when the test ends, before its database is emptied: a scoreboard left open would
go on polling the live server through the tests that follow.
"""

from collections.abc import Callable, Iterator

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Browser, BrowserContext


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


def log_in(context: BrowserContext, live_server, user) -> BrowserContext:
    """Give ``context`` the session of ``user`` (logged in by a test client), as if they had logged in."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return context

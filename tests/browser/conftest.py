"""Phones for the browser tests that need more than the one ``page``: each a fresh browser context.

They are closed when the test ends, before its database is emptied: a scoreboard left open would
go on polling the live server through the tests that follow.
"""

from collections.abc import Callable, Iterator

import pytest
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

"""What the view and browser tests share, written once: the password, logging in (a test client's
POST, a browser typing into the form, or a browser handed a test client's session) and the
watch on a page's console."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.test import Client
from django.urls import reverse

if TYPE_CHECKING:
    from django.http import HttpResponse
    from playwright.sync_api import BrowserContext, ConsoleMessage, Page

PASSWORD = "correct-horse-battery"


def log_in(
    client: Client, username: str, password: str = PASSWORD, url: str | None = None, **extra: Any
) -> HttpResponse:
    """A test client logs in through the log-in form's POST (``url``: another log-in page)."""
    return client.post(url or reverse("login"), {"username": username, "password": password}, **extra)


def log_in_page(page: Page, base: str, username: str = "ann", password: str = PASSWORD) -> list[str]:
    """A browser logs in by typing into the form; returns the console errors from now on."""
    from playwright.sync_api import expect

    errors = watch_console(page)
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page).not_to_have_url(re.compile("/accounts/login/"))
    return errors


def with_session(context: BrowserContext, live_server: Any, user: Any) -> BrowserContext:
    """Give ``context`` the session of ``user`` (logged in by a test client), as if they had logged in."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return context


def _stream_reconnecting(message: ConsoleMessage) -> bool:
    """htmx logs an event stream's reconnection as the bare browser Event. Under the tests' WSGI
    live server a stream answers one event and closes (``table_events``, ``club_standings_events``),
    so the browser reconnects after its ``retry``: that is the fallback working, not a fault."""
    return message.text == "[object Event]" and "htmx" in message.location.get("url", "")


def watch_console(page: Page) -> list[str]:
    """Console errors (a CSP violation is one) and uncaught exceptions, collected as they happen."""
    errors: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if message.type == "error" and not _stream_reconnecting(message):
            errors.append(message.text)

    page.on("console", heard)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))  # no icon is not our error
    return errors


def with_motion(browser_context_args: dict) -> dict:
    """The phones' options with a phone's own default motion (the cards land, the veil over the
    hand lifts), for a module that tests the motion: ``browser_context_args`` asks for less."""
    return {**browser_context_args, "reduced_motion": "no-preference"}

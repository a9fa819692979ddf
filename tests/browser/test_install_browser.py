"""The app installs in chromium: a valid manifest, a registered service worker, an offline page.

Chromium's own installability check (the DevTools ``Page.getInstallabilityErrors``, what decides
whether "Install app" / "Add to home screen" is offered) finds nothing to object to, and the page
gets ``beforeinstallprompt``, the event that comes with the install offer.
"""

import pytest
from playwright.sync_api import BrowserType, Page, expect

from tests.helpers import watch_console

pytestmark = pytest.mark.browser


def registered_worker(page: Page) -> str:
    """Wait for the service worker to be active and in control; its script URL."""
    url = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.active.scriptURL)")
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null"
    )  # a function: an expression is eval()ed, which the CSP refuses
    return url


def test_the_app_registers_its_worker_and_chromium_finds_it_installable(
    live_server,
    browser_type: BrowserType,
    browser_type_launch_args: dict,
    browser_context_args: dict,
    tmp_path,
):
    # Playwright's usual contexts are incognito, where chromium never offers to install: a profile.
    context = browser_type.launch_persistent_context(
        tmp_path / "profile", **browser_type_launch_args, **browser_context_args
    )
    page = context.new_page()
    errors = watch_console(page)
    page.add_init_script(
        "window.installPrompted = false;"
        "addEventListener('beforeinstallprompt', () => { window.installPrompted = true; });"
    )
    page.goto(f"{live_server.url}/")

    assert registered_worker(page) == f"{live_server.url}/sw.js"
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_server.url}/manifest.webmanifest"
    assert manifest["errors"] == []
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    page.wait_for_function("() => window.installPrompted")  # chromium would show "Install app" now
    assert errors == []
    context.close()


def test_with_no_connection_a_page_is_the_offline_page_and_static_files_come_from_the_cache(
    live_server, page: Page
):
    page.goto(f"{live_server.url}/meld/")
    registered_worker(page)

    page.context.set_offline(True)
    page.goto(f"{live_server.url}/meld/?variant=classic")

    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    # The page is styled: app.css came from the worker's cache, not the (unreachable) server.
    assert page.evaluate("getComputedStyle(document.querySelector('.topbar')).position") == "sticky"
    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.locator("#meld-total")).to_be_visible()


def test_htmx_answers_are_never_cached_by_the_worker(live_server, page: Page):
    page.goto(f"{live_server.url}/meld/?variant=classic&trump=S")
    registered_worker(page)
    page.locator('a.card[data-code="AS"]').click()
    expect(page.locator(".total-context")).to_contain_text("1 of 12 cards")

    cached = page.evaluate(
        "caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name)"
        ".then((cache) => cache.keys())))).then((lists) => lists.flat().map((request) => request.url))"
    )
    assert f"{live_server.url}/offline/" in cached
    assert any(url.endswith("/static/css/app.css") for url in cached)
    assert not any("/meld/" in url for url in cached)  # neither the page nor its htmx swaps

"""A failed htmx request shows a banner (static/js/app.js) instead of a tap that silently does nothing."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import watch_console

pytestmark = pytest.mark.browser


def open_calculator(page: Page, base: str) -> list[str]:
    errors = watch_console(page)
    page.goto(f"{base}/meld/?variant=classic&trump=S")
    expect(page.locator("#meld-total")).to_have_text("0")
    return errors


def test_a_normal_load_runs_the_script_under_the_csp_with_no_banner(live_server, page: Page):
    errors = open_calculator(page, live_server.url)
    page.locator('a.card[data-code="AS"]').click()
    expect(page.locator(".total-context")).to_contain_text("1 of 12 cards")
    expect(page.get_by_role("alert")).to_be_hidden()
    assert page.locator('script[src$="js/app.js"]').count() == 1
    assert errors == []  # a script refused by the CSP is a console error


def test_a_server_error_shows_the_status_and_a_way_to_reload(live_server, page: Page):
    open_calculator(page, live_server.url)
    page.route("**/meld/**", lambda route: route.fulfill(status=500, body="<h1>boom</h1>"))
    page.locator('a.card[data-code="AS"]').click()

    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Something went wrong (500): reload the page and try again.")
    expect(alert).not_to_contain_text("boom")  # the response's own text is never shown
    expect(page.locator(".total-context")).to_contain_text("0 of 12 cards")

    page.unroute("**/meld/**")
    alert.get_by_role("link", name="Reload the page").click()
    expect(page).to_have_url(re.compile(r"/meld/\?variant=classic&trump=S$"))
    expect(page.get_by_role("alert")).to_be_hidden()


def test_a_forbidden_answer_names_403(live_server, page: Page):
    open_calculator(page, live_server.url)
    page.route("**/meld/**", lambda route: route.fulfill(status=403, body="forbidden"))
    page.get_by_role("link", name="Trump hearts").click()
    expect(page.get_by_role("alert")).to_contain_text("Something went wrong (403)")


def test_a_network_failure_says_the_server_was_not_reached(live_server, page: Page):
    open_calculator(page, live_server.url)
    page.route("**/meld/**", lambda route: route.abort("internetdisconnected"))
    page.locator('a.card[data-code="AS"]').click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Could not reach the server: check the connection and try again."
    )


def test_the_banner_goes_once_a_later_request_succeeds_or_on_dismiss(live_server, page: Page):
    open_calculator(page, live_server.url)
    page.route("**/meld/**", lambda route: route.fulfill(status=500, body="boom"))
    page.locator('a.card[data-code="AS"]').click()
    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    alert.get_by_role("button", name="Dismiss").click()
    expect(alert).to_be_hidden()

    page.locator('a.card[data-code="AS"]').click()
    expect(alert).to_be_visible()
    page.unroute("**/meld/**")
    page.locator('a.card[data-code="AS"]').click()
    expect(page.locator(".total-context")).to_contain_text("1 of 12 cards")
    expect(alert).to_be_hidden()

"""A limit reached through htmx (scorepad/throttle.py): its words in the page's banner, the page as it was."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import watch_console

pytestmark = pytest.mark.browser

HAND = "AH+TH+KH+QH+JH+9H+AS+KS+QD+JD+AC+9C"


def test_the_bid_advisor_over_its_budget_says_so_and_keeps_the_calculator(live_server, page: Page, settings):
    settings.CPU_BUDGETS = {**settings.CPU_BUDGETS, "bid-advice": (0, 0, 600)}
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/?variant=classic&cards={HAND}")
    page.get_by_role("link", name="Advise a bid").click()

    alert = page.get_by_role("alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text(
        "Too many requests for bid advice from your network in a short time: try again in 10 minutes."
    )
    expect(alert).not_to_contain_text("Something went wrong")
    expect(page.get_by_role("link", name="Advise a bid")).to_be_visible()  # the calculator stays as it was
    expect(page).not_to_have_url(re.compile(r"advise=1"))
    alert.get_by_role("button", name="Dismiss").click()
    expect(alert).to_be_hidden()
    assert [error for error in errors if "429" not in error] == []  # chromium logs the status itself

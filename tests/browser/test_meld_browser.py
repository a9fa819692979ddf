"""The meld calculator in chromium at phone size: htmx swaps under the CSP, and no JavaScript at all."""

import re

import pytest
from playwright.sync_api import Page, expect

from tests.helpers import watch_console

pytestmark = pytest.mark.browser

# RULES.md §5 C1: 16 with spades trump.
C1 = ["AS", "TS", "KS", "QS", "JS", "9S", "9H", "9D", "JC", "TC", "9C", "QH"]
TAP = 44  # px, the smallest comfortable tap target


def tap_in(page: Page, codes: list[str]) -> None:
    for held, code in enumerate(codes, start=1):
        page.locator(f'a.card[data-code="{code}"]').click()
        # Wait for this tap's page before the next: each link is built from the hand shown.
        expect(page.locator(".total-context")).to_contain_text(f"{held} of 12 cards")


def test_tapping_a_hand_updates_the_total_in_place(live_server, page: Page):
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/")
    assert page.evaluate("typeof window.htmx") == "object"  # htmx ran despite the CSP
    page.evaluate("window.stillTheSamePage = true")  # a full reload would wipe it

    page.get_by_role("link", name="Trump spades").click()
    expect(page).to_have_url(re.compile(r"trump=S"))
    tap_in(page, C1)

    expect(page.locator("#meld-total")).to_have_text("16")
    expect(page.locator(".breakdown")).to_contain_text("Run")
    expect(page).to_have_url(re.compile(r"/meld/\?variant=classic&trump=S&cards=AS\+TS\+KS\+QS\+JS\+9S"))
    assert page.evaluate("window.stillTheSamePage") is True
    assert errors == []


def test_typed_cards_and_history_work_with_htmx(live_server, page: Page):
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/?variant=classic&trump=H")
    page.evaluate("window.stillTheSamePage = true")
    page.get_by_label("Type or paste cards").fill("10♥, ah k♥ Q♥ jh")
    page.get_by_label("Type or paste cards").press("Enter")
    expect(page.locator("#meld-total")).to_have_text("15")
    expect(page).to_have_url(re.compile(r"cards=10%E2%99%A5"))  # the pushed URL holds the hand as typed

    page.locator('a.card[data-code="9H"]').click()
    expect(page.locator("#meld-total")).to_have_text("16")
    page.go_back()
    expect(page.locator("#meld-total")).to_have_text("15")
    assert page.evaluate("window.stillTheSamePage") is True
    assert errors == []


def test_settings_and_variant_switch_swap_in_place(live_server, page: Page):
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/?variant=classic&trump=H&cards=AH+TH+KH+KH+QH+JH+9S")
    page.evaluate("window.stillTheSamePage = true")
    expect(page.locator("#meld-total")).to_have_text("17")  # §5 C2's trump suit: run + extra K
    page.get_by_label("Extra trump K or Q beside a run").select_option("strict")
    expect(page.locator("#meld-total")).to_have_text("15")
    expect(page).to_have_url(re.compile(r"run_extra_kq=strict"))

    page.get_by_role("link", name="Double-deck").click()
    expect(page.locator(".note")).to_contain_text("left out 9S, because the double-deck deck has no 9s")
    expect(page.locator("#meld-total")).to_have_text("15")
    assert page.evaluate("window.stillTheSamePage") is True
    assert errors == []


def test_bad_input_is_named_in_place(live_server, page: Page):
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/?variant=double-deck")
    page.get_by_label("Type or paste cards").fill("AS 9S")
    page.get_by_role("button", name="Count").click()
    expect(page.locator(".total-refused")).to_contain_text("9S is not in the double-deck deck")
    expect(page.get_by_label("Type or paste cards")).to_have_value("AS 9S")
    assert errors == []


def test_without_javascript_links_and_the_form_still_work(live_server, browser, browser_context_args):
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/")

    page.get_by_role("link", name="Trump spades").click()
    tap_in(page, C1[:3])
    expect(page).to_have_url(re.compile(r"trump=S&cards=AS\+TS\+KS$"))

    page.get_by_label("Type or paste cards").fill(" ".join(C1))
    page.get_by_role("button", name="Count").click()
    expect(page.locator("#meld-total")).to_have_text("16")
    page.get_by_label("Extra trump K or Q beside a run").select_option("strict")
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(re.compile(r"run_extra_kq=strict"))
    expect(page.locator("#meld-total")).to_have_text("16")
    assert errors == []
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_fits_a_phone_with_thumb_sized_targets(live_server, browser, browser_context_args, scheme):
    context = browser.new_context(**browser_context_args, color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server.url}/meld/?variant=classic&trump=H&cards=KS+QS+KH+QH+KD+QD+KC+QC+JD+9H+AS+TS")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    for target in page.locator(".card, .segment, .chip, .meld-form button").all():
        assert target.bounding_box()["height"] >= TAP
    total = page.locator("#meld-total").bounding_box()
    assert total["y"] + total["height"] < page.viewport_size["height"] / 3  # read without scrolling
    expect(page.locator(".trumps .suit-H")).to_have_css("color", re.compile(r"rgb\((179|255), "))
    context.close()


def test_the_bid_advisor_answers_in_place_for_a_full_hand(live_server, page: Page):
    errors = watch_console(page)
    page.goto(f"{live_server.url}/meld/?variant=classic&cards=AH+TH+KH+QH+JH+9H+AS+KS+QD+JD+AC+9C")
    page.evaluate("window.stillTheSamePage = true")
    ask = page.get_by_role("link", name="Advise a bid")
    box = ask.bounding_box()
    assert box is not None
    assert box["height"] >= TAP
    ask.click()
    expect(page.locator(".advice-bids li")).to_have_count(3)
    expect(page.locator(".advice-safe .advice-bid")).to_have_text(re.compile(r"^\d+$"))
    expect(page).to_have_url(re.compile(r"advise=1"))
    assert page.evaluate("window.stillTheSamePage") is True
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # the table scrolls inside itself
    assert errors == []

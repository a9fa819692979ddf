"""Practice that teaches, in chromium at 375×812: review a hand, step through it, replay its deal."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_practice_browser import CLASSIC_SEED, OUT_OF_REACH, deal, play_hand
from tests.browser.test_scorepad_browser import assert_fits_the_phone, shot
from tests.helpers import watch_console

pytestmark = pytest.mark.browser


@pytest.fixture
def quick_reviews(monkeypatch):
    monkeypatch.setattr("scorepad.engine.review.REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.REVIEW_PLAYOUTS", 24)
    monkeypatch.setattr("scorepad.services.practice_review.SLICE_CPU_SECONDS", 0.05)
    monkeypatch.setattr("scorepad.services.practice.new_seed", lambda: CLASSIC_SEED)


def test_review_step_through_and_replay_a_classic_hand(live_server, page: Page, quick_reviews):
    errors = watch_console(page)
    deal(page, live_server.url, "Classic (4 players, partners)")
    dealt = page.locator(".my-hand").inner_text()
    play_hand(page, "review-classic", OUT_OF_REACH["classic"])

    page.get_by_role("link", name="Review this hand").click()
    expect(page.get_by_role("heading", name="Hand 1: review")).to_be_visible()
    expect(page.locator(".left-on-table")).to_contain_text(
        "left on the table", timeout=60_000
    )  # htmx polls it in
    expect(page.locator(".duplicate-difference")).to_contain_text("Duplicate against the expert")
    expect(page.get_by_role("region", name="Duplicate against the expert")).to_be_visible()
    expect(page.get_by_role("region", name="Every decision")).to_contain_text("Trick 12")
    shot(page, "review-classic")
    assert_fits_the_phone(page)

    page.get_by_role("link", name="Step through it").click()
    expect(page.get_by_text("The deal: You bid 60.")).to_be_visible()
    page.get_by_role("link", name="Forward →").click()
    expect(page.get_by_text("Trick 1: You led")).to_be_visible()
    expect(page.locator(".step-seat")).to_have_count(4)
    page.get_by_role("link", name="Forward →").click()
    expect(page.get_by_text("(2 of 12)")).to_be_visible()
    page.get_by_role("link", name="← Back").click()
    expect(page.get_by_text("(1 of 12)")).to_be_visible()
    shot(page, "review-step")
    assert_fits_the_phone(page)

    page.get_by_role("link", name="Review", exact=True).click()
    page.get_by_role("button", name="Replay this deal").click()
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    assert page.locator(".my-hand").inner_text() == dealt  # the same cards again
    assert errors == []

"""The daily deal in chromium at 375×812: from the start page to today's deal, a whole hand on the
practice table (no hint, no undo), then the comparison with the expert and everyone else."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Page, expect

from scorepad.models import DailyAttempt, DailyDeal
from scorepad.pages.daily import signed
from scorepad.services.daily import daily_deal_prepare
from tests.browser.test_accessibility import axe_violations
from tests.browser.test_practice_browser import CLASSIC_SEED, ENGINE_CODE, OUT_OF_REACH, play_hand
from tests.browser.test_scorepad_browser import assert_fits_the_phone, shot
from tests.helpers import watch_console

pytestmark = pytest.mark.browser


def test_a_visitor_plays_the_daily_deal_to_its_comparison(live_server, page: Page, monkeypatch):
    # The pages are what is tried here, not the bots: easy ones answer the taps, and the expert's
    # result is worked out with few playouts (the services' tests try the expert's).
    monkeypatch.setattr("scorepad.services.daily.DAILY_STRENGTH", "easy")
    monkeypatch.setattr("scorepad.services.daily.REVIEW_PLAYOUTS", 8)
    today = timezone.localdate()
    DailyDeal.objects.create(day=today, variant="classic", seed=CLASSIC_SEED)  # the same deal every run
    deal = daily_deal_prepare(day=today, variant_id="classic")  # as manage.py daily_deals leaves it
    earlier = User.objects.create_user("bea")  # an account: a visitor's score is not ranked
    DailyAttempt.objects.create(deal=deal, user=earlier, counted=True, score=-200)
    errors = watch_console(page)

    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Today's daily deal").click()
    shot(page, "daily-today")
    assert axe_violations(page) == []
    page.get_by_role("button", name="Play today's classic deal").click()
    expect(page.get_by_role("region", name="Scores")).to_be_visible()
    page.wait_for_load_state()
    expect(page.get_by_role("link", name="Hint")).to_have_count(0)  # the counted attempt is all yours

    play_hand(page, "daily-classic", OUT_OF_REACH["classic"])
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    expect(page.get_by_role("button", name="Next hand")).to_have_count(0)
    page.get_by_role("link", name="See how you did").click()

    result = page.get_by_role("region", name="Your result")
    expect(result).to_contain_text("Your score")
    expect(result).to_contain_text(
        re.compile(rf"The expert in your seat\s*{re.escape(signed(deal.expert_score))}")
    )
    expect(result).to_contain_text("Visitors play unranked")
    expect(page.get_by_role("region", name="Leaderboard")).to_contain_text(
        "1 player with an account finished this deal"
    )
    shot(page, "daily-comparison")
    assert_fits_the_phone(page)
    assert axe_violations(page) == []
    assert not ENGINE_CODE.search(page.evaluate("document.body.innerText"))

    page.get_by_role("link", name="The archive").click()
    expect(page.get_by_role("heading", name="Past daily deals")).to_be_visible()
    shot(page, "daily-archive")
    assert axe_violations(page) == []
    page.go_back()

    page.get_by_role("link", name="Review your hand").click()
    expect(page.get_by_role("heading", name="Hand 1: review")).to_be_visible()
    assert errors == []

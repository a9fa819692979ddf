"""A private table's phone in chromium at phone sizes (375×812, 320×568): the host plays a whole
classic hand against three bots (six-handed: five), and at each of the host's decisions the hand
and the decision are fully in view without scrolling, the page is no wider than the phone, every
control the decision offers is at least 44 px tall, and no engine code (``TH``) shows. Every step
waits for the page to answer (its version moves on), never for a time."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_accessibility import axe_violations
from tests.browser.test_scorepad_browser import assert_fits_the_phone
from tests.browser.test_tables_browser import site  # the production server: each phone's stream live

__all__ = ["site"]

pytestmark = pytest.mark.browser
ENGINE_CODE = re.compile(r"\b[AKQJT9][SHDC]\b")
PHONES = {
    "375x812": {"width": 375, "height": 812},
    "320x568": {"width": 320, "height": 568},
}
# The decision's controls and the hand's cards that lie outside the screen, and the least height
# of the decision's controls.
OUT_OF_VIEW = """() => [...document.querySelectorAll(
        '#screen form.decision button, #screen form.decision input, #screen .fan .card, '
        + '#screen .hand-summary button')]
    .filter((el) => { const box = el.getBoundingClientRect();
        return box.top < -0.5 || box.bottom > innerHeight + 0.5
            || box.left < -0.5 || box.right > innerWidth + 0.5; })
    .map((el) => el.outerHTML.slice(0, 80))"""
SCREEN_LINES = """() => [...document.querySelectorAll('#screen > *, #screen .thumb > *')].map((el) =>
    `${el.className} ${Math.round(el.getBoundingClientRect().height)}px: ${el.innerText.slice(0, 60)}`)"""
LEAST_CONTROL = """() => Math.min(...[...document.querySelectorAll(
        '#screen form.decision button:not(.card), #screen .hand-summary button, #screen .fold > summary, '
        + '#screen .open-seat, #screen .quick button, .table-leave button, .table-leave .button')]
    .filter((el) => el.getClientRects().length)
    .map((el) => el.getBoundingClientRect().height))"""


def version(page: Page) -> str:
    return page.locator("#screen").get_attribute("data-version") or ""


def settled(page: Page) -> None:
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")


def check_in_view(page: Page, phone: str, stage: str) -> None:
    page.mouse.move(0, 0)  # off the cards: a card the pointer rests on lifts (hover)
    settled(page)
    assert page.evaluate("scrollY") == 0, (phone, stage)
    out_of_view = page.evaluate(OUT_OF_VIEW)
    # What the screen says above the hand, should it push the hand down (seen once under load).
    assert out_of_view == [], (phone, stage, out_of_view, page.evaluate(SCREEN_LINES))
    assert page.evaluate(LEAST_CONTROL) >= 44, (phone, stage)
    assert not ENGINE_CODE.search(page.evaluate("document.body.innerText")), (phone, stage)
    assert_fits_the_phone(page)


@pytest.mark.parametrize(
    ("variant", "phone"),
    [
        ("classic", "375x812"),
        ("classic", "320x568"),
        ("six-handed", "375x812"),
        ("six-handed", "320x568"),
        ("double-deck", "375x812"),
        ("double-deck", "320x568"),
    ],
)
def test_the_hand_and_the_decision_are_in_view_at_each_decision_of_a_hand(site, new_phone, variant, phone):
    page = new_phone(viewport=PHONES[phone]).new_page()
    page.goto(f"{site}/tables/?variant={variant}")
    page.fill("#id_host_name", "Ann")
    for seat in range(1, 6 if variant == "six-handed" else 4):
        page.select_option(f"#id_seat_{seat}", "bot:heuristic")
    page.click("button:has-text('Open the table')")
    page.wait_for_selector("#screen")
    page.wait_for_load_state()
    page.get_by_text("Invite", exact=True).click()
    expect(page.locator(".invite-link")).to_be_visible()
    assert_fits_the_phone(page)  # the invitation's long link wraps
    assert page.locator(".invite-send button:visible").count() == 1  # share, or else copy
    page.get_by_text("Invite", exact=True).click()
    stages: list[str] = []
    for _ in range(80):
        if page.locator("#screen .hand-summary").count():
            break
        form = page.locator("#screen form.decision")
        expect(form).to_be_visible(timeout=20_000)
        before = version(page)
        if form.locator("button[name=bid]").count():
            stage = "bid"
            check_in_view(page, phone, stage)
            form.locator("button[value=pass]" if "bid" in stages else "button[name=bid]").first.click()
        elif form.locator("button[name=trump]").count():
            stage = "trump"
            check_in_view(page, phone, stage)
            form.locator("button[name=trump]").first.click()
        elif form.locator("input[name=pass]").count():
            stage = "pass"
            check_in_view(page, phone, stage)
            for index in range(4):
                form.locator("input[name=pass]").nth(index).check()
            form.locator("button:has-text('Pass these')").click()
        elif form.locator("button[name=concede]").count():
            stage = "concede"
            check_in_view(page, phone, stage)
            form.locator("button[value=false]").click()
        else:
            stage = "card"
            check_in_view(page, phone, stage)
            if "card" not in stages:  # the table in play, the meld open: nothing serious for axe
                blocking = [v for v in axe_violations(page) if v["impact"] in {"serious", "critical"}]
                assert blocking == [], (phone, blocking)
            form.locator("button[name=card]:not([disabled])").first.click()
        stages.append(stage)
        page.wait_for_function("v => document.querySelector('#screen')?.dataset.version !== v", arg=before)
    summary = page.locator("#screen .hand-summary")
    expect(summary).to_be_visible()
    check_in_view(page, phone, "result")
    assert "card" in stages

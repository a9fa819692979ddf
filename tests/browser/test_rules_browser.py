"""The rules pages and Learn to play in chromium at phone size (375×812), with axe-core.

Each variant's guided hand is tapped through from the rules index, always on the suggested answer,
until the counting and "Play a real hand". Every step waits for the lesson to be swapped for the
next one, never for a time. axe-core runs on the rules, the words and the lesson's stages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from scorepad.engine.variants import VARIANTS
from tests.browser.test_accessibility import BLOCKING, axe_violations
from tests.browser.test_scorepad_browser import assert_fits_the_phone, shot
from tests.helpers import watch_console

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MAX_STEPS = 80  # more taps than any guided hand takes


def assert_axe_clean(page: Page, name: str) -> None:
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, f"{name}: {blocking}"


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_guided_first_hand_is_tapped_through_to_the_counting(live_server, page: Page, variant_id: str):
    errors = watch_console(page)
    label = VARIANTS[variant_id].label
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="The rules, and learn to play").click()
    page.get_by_role("listitem").filter(has=page.get_by_role("heading", name=label)).get_by_role(
        "link", name="Learn to play"
    ).click()
    expect(page.get_by_role("heading", name="The deal")).to_be_visible()
    assert_axe_clean(page, f"{variant_id} deal")

    seen = []
    for _ in range(MAX_STEPS):
        stage = page.locator("#stage-title").inner_text()
        if stage not in seen:
            seen.append(stage)
            assert_fits_the_phone(page)
            shot(page, f"learn-{variant_id}-{stage.lower().replace(' ', '-')}")
            if stage in ("Bidding", "Meld"):
                assert_axe_clean(page, f"{variant_id} {stage}")
        if stage == "Counting":
            break
        page.evaluate("document.querySelector('#lesson').dataset.answered = 'yes'")  # the swap replaces it
        assert page.locator(".choices a.suggested").count() == 1, page.locator("#lesson").inner_text()
        page.locator(".choices a.suggested").click()
        page.wait_for_function(
            "() => { const l = document.querySelector('#lesson'); return l && !l.dataset.answered; }"
        )

    expected = ["The deal", "Bidding", "Naming trump", *(["Passing"] if variant_id == "classic" else [])]
    assert seen[: len(expected)] == expected
    assert seen[-3:] == ["Meld", "Tricks", "Counting"]
    expect(page.get_by_role("heading", name="Counters, step by step")).to_be_visible()
    assert_axe_clean(page, f"{variant_id} counting")
    assert f"/rules/{variant_id}/learn/?moves=" in page.url  # htmx pushed each step's URL
    page.get_by_role("link", name="Play a real hand").click()
    expect(page.get_by_role("heading", name="Practice against the bots")).to_be_visible()
    assert not errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rules_and_words_pages_are_axe_clean_and_fit_the_phone(live_server, new_phone, scheme: str):
    page = new_phone(color_scheme=scheme).new_page()
    errors = watch_console(page)
    for url in ["/rules/", *(f"/rules/{v}/" for v in VARIANTS), "/rules/words/"]:
        page.goto(f"{live_server.url}{url}")
        assert_fits_the_phone(page)
        assert_axe_clean(page, f"{url} {scheme}")
        shot(page, f"rules-{url.strip('/').replace('/', '-')}-{scheme}")
    assert not errors


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_a_rules_page_prints_on_two_pages_without_the_navigation(live_server, page: Page, variant_id: str):
    page.goto(f"{live_server.url}/rules/{variant_id}/")
    page.emulate_media(media="print")

    expect(page.locator(".topbar")).to_be_hidden()
    expect(page.get_by_role("table")).to_be_visible()
    pdf = page.pdf(format="Letter", margin={"top": "12mm", "bottom": "12mm", "left": "12mm", "right": "12mm"})
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert 1 <= pages <= 2, f"{variant_id} prints on {pages} pages"

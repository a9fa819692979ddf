"""History filters and the totals chart in chromium at phone size, under the CSP, light and dark."""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import log_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("games")]


def test_choosing_a_filter_swaps_the_list_and_pushes_the_url(live_server, page: Page, household):
    errors = log_in_page(page, live_server.url)
    page.goto(f"{live_server.url}/households/{household.pk}/games/")
    expect(page.locator(".game-row")).to_have_count(3)
    page.evaluate("window.stillTheSamePage = true")  # a full reload would wipe it

    page.get_by_label("Variant").select_option("classic")
    expect(page.locator(".game-row")).to_have_count(2)
    expect(page).to_have_url(re.compile(r"variant=classic"))
    page.get_by_label("Status").select_option("finished")
    expect(page.locator(".game-row")).to_have_count(1)
    expect(page.locator(".game-row")).to_contain_text("Won by Ann & Cy")

    assert page.evaluate("window.stillTheSamePage") is True
    page.go_back()
    expect(page.locator(".game-row")).to_have_count(2)
    assert errors == []


def chart_colours(browser: Browser, base: str, game_pk: int, scheme: str) -> tuple[str, str, float]:
    context = browser.new_context(viewport={"width": 375, "height": 812}, color_scheme=scheme)
    page = context.new_page()
    errors = log_in_page(page, base)
    page.goto(f"{base}/games/{game_pk}/")
    chart = page.get_by_role("img", name=re.compile("Running totals"))
    expect(chart).to_be_visible()
    width = chart.bounding_box()["width"]
    stroke, background = page.evaluate(
        """() => [getComputedStyle(document.querySelector('.chart-line.series-0')).stroke,
                  getComputedStyle(document.body).backgroundColor]"""
    )
    context.close()
    assert errors == []
    return stroke, background, width


def test_the_chart_fits_a_phone_and_is_coloured_for_light_and_dark(live_server, browser: Browser, household):
    game = household.games.get(variant="double-deck")

    light_stroke, light_bg, light_width = chart_colours(browser, live_server.url, game.pk, "light")
    dark_stroke, dark_bg, dark_width = chart_colours(browser, live_server.url, game.pk, "dark")

    assert light_width <= 375
    assert dark_width <= 375
    assert light_stroke.startswith("rgb(")
    assert dark_stroke.startswith("rgb(")
    assert light_stroke != dark_stroke
    assert light_bg != dark_bg

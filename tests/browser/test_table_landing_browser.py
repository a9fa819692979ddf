"""A private table's cards land as at practice: on the other phone the cards played since its last
screen land one after another; no phone's own card lands, and no card lands twice (the phone that
played gets the bots' answers in its answer's screen, then again in its stream's screen); a page
loaded again shows the table settled."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page

from tests.browser.test_tables_browser import GRACE, decide, deciding_phone, site, version_of
from tests.helpers import with_motion

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These phones move their cards, as a phone does by default: this module tests the motion."""
    return with_motion(browser_context_args)


__all__ = ["site"]  # the production server, shared with the four-phone test

# Each swap of the screen: the cards that land (their place and the step they land at), and
# whether any of them animates, read before the animations can end.
WATCH = """
window.__swaps = [];
document.addEventListener("htmx:afterSwap", () => queueMicrotask(() => {
  const landing = [...document.querySelectorAll('#screen .trick .played:not(.seen)')];
  window.__swaps.push({
    version: +document.querySelector('#screen').dataset.version,
    landing: landing.map((li) => [...li.classList].find((c) => c.startsWith('play-'))),
    cards: landing.map((li) => +li.dataset.n),
    own: [...document.querySelectorAll('#screen .trick .played.at-bottom')]
      .map((li) => li.classList.contains('seen')),
    running: document.getAnimations().filter((a) => a.playState === 'running').length,
  });
}));
"""


NEWER = "(v) => +document.querySelector('#screen').dataset.version > v"
TWO_SCREENS = "(v) => window.__swaps.filter((s) => s.version > v).length >= 2"


def table_with_two_bots(site: str, new_phone: Callable[..., BrowserContext]) -> list[Page]:
    pages = []
    for _ in range(2):
        page = new_phone().new_page()
        page.add_init_script(WATCH)
        pages.append(page)
    host, friend = pages
    host.goto(f"{site}/tables/?variant=classic")
    host.fill("#id_host_name", "Ann")
    host.select_option("#id_grace", str(GRACE))
    host.select_option("#id_seat_2", "bot:heuristic")
    host.select_option("#id_seat_3", "bot:heuristic")
    host.click("button:has-text('Open the table')")
    host.wait_for_selector("#screen")
    join = host.locator(".invite a").first.get_attribute("href")
    assert join
    friend.goto(join)
    form = friend.locator("form[action$='/seat/1/']")
    form.locator("input[name=name]").fill("Friend")
    form.locator("button").click()
    friend.wait_for_selector("#screen")
    host.wait_for_function("() => document.querySelectorAll('.table-seats .seat-note').length === 2")
    return pages


def test_the_cards_played_since_a_phones_last_screen_land_and_nothing_lands_twice(site, new_phone):
    ann, friend = table_with_two_bots(site, new_phone)
    bid_once: set[int] = set()
    cards = 0
    while cards < 8 and (page := deciding_phone([ann, friend])) is not None:
        seat = 0 if page is ann else 1
        version = version_of(page)
        if decide(page, bid_once, seat) != "card":
            page.wait_for_function(NEWER, arg=version)
            continue
        cards += 1
        other = friend if page is ann else ann
        other.wait_for_function(
            "(v) => window.__swaps.some((s) => s.version > v && s.landing.length)", arg=version, timeout=5_000
        )
        page.wait_for_function(TWO_SCREENS, arg=version)  # its answer's screen and its stream's
        # The other phone: the new cards land in playing order, from step 0, while it is shown.
        for swap in other.evaluate("window.__swaps"):
            if swap["version"] > version and swap["landing"]:
                assert swap["landing"] == [f"play-{i}" for i in range(len(swap["landing"]))]
                assert swap["running"] > 0
        # Each phone: its own card never lands, and no card lands twice.
        for phone in (page, other):
            swaps = [s for s in phone.evaluate("window.__swaps") if s["version"] > version]
            assert all(all(s["own"]) for s in swaps)
            landed = [n for s in swaps for n in s["cards"]]
            assert len(landed) == len(set(landed)), swaps
        for phone in (ann, friend):
            phone.evaluate("window.__swaps = []")
    assert cards == 8
    # A page loaded again shows the table as it stands, with nothing landing.
    ann.reload()
    ann.wait_for_selector("#screen")
    running = ann.evaluate(  # after a few frames, when a landing would have started
        """() => new Promise((done) => {
            let frames = 0;
            const look = () => (++frames < 5 ? requestAnimationFrame(look)
                : done(document.getAnimations().filter((a) => a.playState === 'running').length));
            requestAnimationFrame(look);
        })"""
    )
    assert running == 0
    assert ann.locator("#screen .trick .played:not(.seen)").count() == 0

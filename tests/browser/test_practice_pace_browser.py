"""The practice table's pace, in chromium at phone size: how long a tap takes to become the next
decision a player can make, at each pace, against the expert bots.

"Usable" is measured in the page: the moment after the tap when the table has come back (its
version moved on) and one of the next decision's controls is enabled and answers a tap at its
centre (``elementFromPoint``: the veil over a hand whose trick is still landing takes the tap).
Each tap is timed from the click in the page, so the server's thinking counts too. The figures
are printed (run with ``-s``) and written to ``test-results/practice-pace.json``.
"""

from __future__ import annotations

import json
import re
import statistics

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_practice_browser import (
    CLASSIC_SEED,
    DOUBLE_DECK_SEED,
    RESULTS,
    SIX_HANDED_SEED,
    answered,
    version,
)

pytestmark = pytest.mark.browser

VARIANTS = {
    "classic": ("Classic (4 players, partners)", CLASSIC_SEED),
    "double-deck": ("Double-deck (4 players, partners)", DOUBLE_DECK_SEED),
    "six-handed": ("Six-handed (Schoneboom family rules)", SIX_HANDED_SEED),
}
FIGURES: dict[str, dict[str, float]] = {}

# The next decision's controls: a card to play, a card to pass, a bid, a trump, the throw-in
# choice, the next hand (not Hint or Undo beside them, usable all along). Usable when one is
# enabled and is what a tap at its centre reaches.
DECISION_CONTROLS = (
    ".my-hand button.card:enabled, .my-hand input[name=pass], .decide button.chip, "
    ".decide button[name=concede], .hand-summary form button.primary"
)
USABLE = (
    f"() => [...document.querySelectorAll('{DECISION_CONTROLS}')]"
    """.some((el) => {
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height) return false;
        const x = Math.min(box.left + box.width / 2, innerWidth - 1);
        const y = Math.min(box.top + Math.min(box.height / 2, 20), innerHeight - 1);
        const hit = document.elementFromPoint(x, y);
        const labelled = el.labels && [...el.labels].some((label) => label.contains(hit));
        return hit !== null && (el === hit || el.contains(hit) || labelled);
    })"""
)
# Click `selector` (its `index`-th match) in the page and wait for the next usable decision.
TIMED_TAP = f"""async ([selector, index]) => {{
    const usable = {USABLE};
    const field = () => document.querySelector('input[name=version]');
    const before = field() ? field().value : null;
    const target = document.querySelectorAll(selector)[index];
    if (target.getBoundingClientRect().bottom > innerHeight) target.scrollIntoView({{block: 'end'}});
    const start = performance.now();
    target.click();
    return await new Promise((resolve) => {{
        const check = () => {{
            const now = field();
            const moved = !now || now.value !== before;
            const idle = !document.querySelector('.htmx-request');
            if (moved && idle && usable()) resolve((performance.now() - start) / 1000);
            else requestAnimationFrame(check);
        }};
        requestAnimationFrame(check);
    }});
}}"""


def deal_at_expert(page: Page, base: str, label: str, pace: str) -> None:
    page.goto(f"{base}/practice/")
    page.get_by_role("link", name=label).click()
    page.get_by_role("radio", name=re.compile(r"^Expert")).check()
    page.get_by_role("radio", name=re.compile(rf"^{pace.capitalize()}:")).check()  # kept in a cookie
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("region", name="Scores")).to_be_visible()
    page.wait_for_load_state()


def timed_hand(page: Page) -> list[float]:
    """Pass at every bid, name the first trump, pass the first cards, play on, play the first
    playable card: the seconds from each tap to the next usable decision, to the hand's end."""
    seconds: list[float] = []
    while not page.get_by_role("region", name="Hand summary").is_visible():
        before = version(page)
        if page.get_by_role("region", name="Your bid").is_visible():
            selector = ".decide[aria-label='Your bid'] button.chip"
        elif page.get_by_role("region", name="Name trump").is_visible():
            selector = "button[name=trump]"
        elif page.get_by_role("region", name="Throw in or play on").is_visible():
            selector = "button[name=concede][value=false]"
        elif page.locator("input[name=pass]").first.is_visible():
            count = int(page.locator("form.pass-form").get_attribute("data-pass-count") or 0)
            for box in page.locator("input[name=pass]").all()[:count]:
                box.check()
            selector = ".pass-button"
        else:
            expect(page.locator(".my-hand button.card:enabled").first).to_be_visible()
            selector = ".my-hand button.card:enabled"
        seconds.append(page.evaluate(TIMED_TAP, [selector, 0]))
        answered(page, before)
    return seconds


@pytest.fixture(scope="module", autouse=True)
def _print_figures():
    yield
    if FIGURES:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "practice-pace.json").write_text(json.dumps(FIGURES, indent=1))
        print("\ntap to the next usable decision, expert bots (seconds):")
        for name, figures in FIGURES.items():
            print(f"  {name:24} " + "  ".join(f"{key} {value}" for key, value in figures.items()))


def timed_hand_at(page_of, base: str, variant: str, pace: str) -> list[float]:
    """The seconds of every tap of one hand of ``variant`` at ``pace`` on a phone's new page
    (``page_of()``), written to the figures."""
    page = page_of()
    deal_at_expert(page, base, VARIANTS[variant][0], pace)
    quick = expect(page.locator("body"))
    (quick.to_have_class if pace == "quick" else quick.not_to_have_class)(re.compile(r"\bpace-quick\b"))
    seconds = timed_hand(page)
    FIGURES[f"{variant} {pace}"] = {
        "taps": len(seconds),
        "p50": round(statistics.median(seconds), 3),
        "p90": round(statistics.quantiles(seconds, n=10)[-1], 3),
        "max": round(max(seconds), 3),
    }
    page.close()
    return seconds


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_quick_pace_reaches_the_next_decision_sooner_than_the_normal_one(
    live_server, new_phone, seeded, variant
):
    """The same deal, the same taps, the same bots' answers, once at each pace. Seconds depend on
    the machine (the figures are printed and kept, like a benchmark's); what the quick pace must
    keep on any machine is that it waits for no landing the normal pace shows."""
    seeded(VARIANTS[variant][1])
    quick, normal = (
        timed_hand_at(
            new_phone(viewport={"width": 360, "height": 740}).new_page, live_server.url, variant, pace
        )
        for pace in ("quick", "normal")
    )

    assert len(quick) == len(normal)  # the same hand, tap for tap
    assert statistics.median(quick) < statistics.median(normal), (sorted(quick), sorted(normal))


# Each animation still running, named with the start of the element it moves.
RUNNING_ANIMATIONS = """() => document.getAnimations()
  .filter((a) => a.playState === 'running')
  .map((a) => [a.animationName, a.effect.target.outerHTML.slice(0, 120)])"""


def test_a_hint_does_not_land_the_cards_again(live_server, page: Page, seeded):
    """At the normal pace, once a trick has landed, asking a hint (or taking it) must not play the
    landing again nor lock the hand: its cards answer a tap at once."""
    seeded(CLASSIC_SEED)
    page.goto(f"{live_server.url}/practice/")
    page.get_by_role("button", name="Deal").click()
    page.wait_for_load_state()
    while not page.locator(".trick.now .played").count() or not page.locator(".my-hand button.card").count():
        before = version(page)
        bids = page.get_by_role("region", name="Your bid")
        if bids.is_visible():
            bids.locator("button.chip").first.click()
        else:
            page.locator(".my-hand button.card:enabled, .decide button, .pass-button").first.click()
        answered(page, before)
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")

    page.get_by_role("link", name="Hint").click()
    expect(page.get_by_text("Hint: ")).to_be_visible()

    assert page.evaluate(f"({USABLE})()"), "the hand is veiled again after a hint"
    assert page.evaluate(RUNNING_ANIMATIONS) == []

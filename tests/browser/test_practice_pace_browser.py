"""The practice table's pace, in chromium at phone size: the quick pace waits for no landing the
normal pace shows, on the same deal tapped the same way.

How long each step waits is read from the page's own styles (when the trick's last card has landed
and when the veil over the hand lifts), not timed on the clock: the same on any machine. After each
tap the test waits until one of the next decision's controls is enabled and answers a tap at its
centre (``elementFromPoint``: the veil over a hand whose trick is still landing takes the tap).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_practice_browser import (
    CLASSIC_SEED,
    DOUBLE_DECK_SEED,
    SIX_HANDED_SEED,
    VEIL,
    answered,
    version,
)
from tests.helpers import with_motion

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """These phones move their cards, as a phone does by default: this module tests the motion."""
    return with_motion(browser_context_args)


VARIANTS = {
    "classic": ("Classic (4 players, partners)", CLASSIC_SEED),
    "double-deck": ("Double-deck (4 players, partners)", DOUBLE_DECK_SEED),
    "six-handed": ("Six-handed (Schoneboom family rules)", SIX_HANDED_SEED),
}
CARDS_PLAYED = 3  # the player's cards each pace plays, each answered by the bots' cards landing

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


def deal(page: Page, base: str, label: str, pace: str) -> None:
    page.goto(f"{base}/practice/")
    page.get_by_role("link", name=label).click()
    page.get_by_role("radio", name=re.compile(rf"^{pace.capitalize()}:")).check()  # kept in a cookie
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("region", name="Scores")).to_be_visible()
    page.wait_for_load_state()


def paced_taps(page: Page) -> list[tuple[str, float, float]]:
    """Pass at every bid, name the first trump, pass the first cards, play on, play the first
    playable card, until the player has played ``CARDS_PLAYED`` cards: for each tap, what it was,
    and (seconds, from the page's styles) when the cards it brought have landed and when the veil
    over the hand lifts; each time waiting until the next decision is usable."""
    taps: list[tuple[str, float, float]] = []
    while sum(kind == "card" for kind, _, _ in taps) < CARDS_PLAYED:
        before = version(page)
        if page.get_by_role("region", name="Your bid").is_visible():
            kind, target = "bid", page.locator(".decide[aria-label='Your bid'] button.chip")
        elif page.get_by_role("region", name="Name trump").is_visible():
            kind, target = "trump", page.locator("button[name=trump]")
        elif page.get_by_role("region", name="Throw in or play on").is_visible():
            kind, target = "concede", page.locator("button[name=concede][value=false]")
        elif page.locator("input[name=pass]").first.is_visible():
            count = int(page.locator("form.pass-form").get_attribute("data-pass-count") or 0)
            for box in page.locator("input[name=pass]").all()[:count]:
                box.check()
            kind, target = "pass", page.locator(".pass-button")
        else:
            expect(page.locator(".my-hand button.card:enabled").first).to_be_visible()
            kind, target = "card", page.locator(".my-hand button.card:enabled")
        target.first.click()
        answered(page, before)
        landed, lifted = page.evaluate(VEIL)
        taps.append((kind, landed, lifted))
        page.wait_for_function(USABLE)
    return taps


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_quick_pace_lands_the_bots_cards_sooner_than_the_normal_one(
    live_server, new_phone, seeded, variant
):
    """The same deal, the same taps, the same bots' answers, once at each pace: at the quick pace
    every tap's cards land, and the hand is free again, no later than at the normal pace, and
    sooner wherever the normal pace lands cards."""
    label, seed = VARIANTS[variant]
    paced = {}
    for pace in ("quick", "normal"):
        seeded(seed)
        page = new_phone(viewport={"width": 360, "height": 740}).new_page()
        deal(page, live_server.url, label, pace)
        quick = expect(page.locator("body"))
        (quick.to_have_class if pace == "quick" else quick.not_to_have_class)(re.compile(r"\bpace-quick\b"))
        paced[pace] = paced_taps(page)
        page.close()

    quick, normal = paced["quick"], paced["normal"]
    assert [kind for kind, _, _ in quick] == [kind for kind, _, _ in normal]  # the same taps
    landing = [(q, n) for q, n in zip(quick, normal, strict=True) if n[1] > 0]
    assert landing, f"no tap landed any card at the normal pace: {normal}"
    for (_, q_landed, q_lifted), (_, n_landed, n_lifted) in zip(quick, normal, strict=True):
        assert q_landed <= n_landed, (quick, normal)
        assert q_lifted <= n_lifted, (quick, normal)
    assert all(q[1] < n[1] for q, n in landing), (quick, normal)


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

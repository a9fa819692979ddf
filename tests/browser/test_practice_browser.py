"""Practice mode in chromium at phone size (375×812): whole hands against the bots, tapped through.

Seeds are fixed (``new_seed`` is patched), so each deal is known (seed 30 deals the player a
`double-deck` hand with no marriage), and the player opens with a bid no bot would top, so the
hand goes the player's way whatever the bots' judgement. Every step waits for the page to answer
(the version a form carries changes), never for a time.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.test_scorepad_browser import assert_fits_the_phone, shot, watch_console

pytestmark = pytest.mark.browser

CLASSIC_SEED, SIX_HANDED_SEED, NO_MARRIAGE_SEED = 4, 1, 30
OUT_OF_REACH = {"classic": 60, "double-deck": 200}  # an opening bid no bot tops


@pytest.fixture
def seeded(monkeypatch):
    def use(seed: int) -> None:
        monkeypatch.setattr("scorepad.services.practice.new_seed", lambda: seed)

    return use


def deal(page: Page, base: str, variant_label: str) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Practice against the bots").click()
    page.get_by_role("link", name=variant_label).click()
    shot(page, "practice-new")
    page.get_by_role("button", name="Deal").click()
    expect(page.get_by_role("heading", name="Your hand")).to_be_visible()
    shot(page, f"practice-{variant_label.split()[0].lower()}-dealt")


def version(page: Page) -> str:
    return page.locator("input[name=version]").first.get_attribute("value") or ""


def answered(page: Page, before: str) -> None:
    """Wait until the table came back from a write (its version moved on)."""
    page.wait_for_function(
        "v => { const f = document.querySelector('input[name=version]'); return !f || f.value !== v; }",
        arg=before,
    )


def play_hand(page: Page, name: str, opening: int | None = None) -> dict[str, int]:
    """Bid ``opening`` in the "Other bid" box (or the highest quick bid) once, then pass; name the
    first trump, pass the first cards, play the first playable card each time, until the hand
    summary shows. Counts each kind of tap."""
    taps = {"bid": 0, "trump": 0, "pass": 0, "card": 0}
    summary = page.get_by_role("region", name="Hand summary")
    while not summary.is_visible():
        before = version(page)
        bids = page.get_by_role("region", name="Your bid")
        if bids.is_visible():
            chips = bids.locator("button.chip")
            if taps["bid"] == 0:
                shot(page, f"{name}-bid")
            if taps["bid"] == 0 and opening is not None:
                page.get_by_label("Other bid").fill(str(opening))
                page.get_by_role("button", name="Bid", exact=True).click()
            else:
                (chips.last if taps["bid"] == 0 else chips.first).click()
            taps["bid"] += 1
        elif page.get_by_role("region", name="Name trump").is_visible():
            shot(page, f"{name}-trump")
            page.get_by_role("region", name="Name trump").locator("button").first.click()
            taps["trump"] += 1
        elif page.locator("input[name=pass]").first.is_visible():
            count = int(page.locator(".my-hand h2").inner_text().split("pick ")[1].split()[0])
            for box in page.locator("input[name=pass]").all()[:count]:
                box.check()
            shot(page, f"{name}-pass")
            page.get_by_role("button", name=f"Pass these {count} cards").click()
            taps["pass"] += 1
        else:
            card = page.locator(".my-hand button.card:enabled").first
            expect(card).to_be_visible()
            if taps["card"] == 2:
                shot(page, f"{name}-play")
            card.click()
            taps["card"] += 1
        answered(page, before)
    shot(page, f"{name}-summary")
    return taps


def test_a_whole_classic_hand_tapped_through(live_server, page: Page, seeded):
    seeded(CLASSIC_SEED)
    errors = watch_console(page)
    deal(page, live_server.url, "Classic (4 players, partners)")
    assert_fits_the_phone(page)

    taps = play_hand(page, "practice-classic", OUT_OF_REACH["classic"])

    assert taps["bid"] >= 1
    assert taps["trump"] == 1
    assert taps["pass"] == 1
    assert taps["card"] == 12  # every card of the hand
    expect(page.get_by_text("You received:")).to_be_visible()
    expect(page.get_by_role("region", name="Hand summary")).to_contain_text("You bid 60")
    expect(page.get_by_role("button", name="Next hand")).to_be_visible()
    assert_fits_the_phone(page)
    assert errors == []


def test_a_six_handed_hand(live_server, page: Page, seeded):
    seeded(SIX_HANDED_SEED)
    deal(page, live_server.url, "Six-handed (Schoneboom family rules)")

    taps = play_hand(page, "practice-six-handed")

    assert taps["card"] == 8
    expect(page.get_by_role("region", name="Hand summary")).to_contain_text("Bot 6")
    assert_fits_the_phone(page)


def test_a_double_deck_bidder_without_a_marriage_forfeits(live_server, page: Page, seeded):
    seeded(NO_MARRIAGE_SEED)
    deal(page, live_server.url, "Double-deck (4 players, partners)")

    taps = play_hand(page, "practice-double-deck", OUT_OF_REACH["double-deck"])

    assert taps["trump"] == 0
    assert taps["card"] == 0
    expect(page.get_by_role("region", name="Hand summary")).to_contain_text(
        "You bid 200 and forfeited: no marriage to name trump"
    )


def test_a_hand_plays_with_javascript_off(live_server, browser: Browser, browser_context_args, seeded):
    seeded(CLASSIC_SEED)
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    page = context.new_page()
    try:
        deal(page, live_server.url, "Classic (4 players, partners)")
        page.get_by_role("link", name="Hint").click()
        expect(page.get_by_text("Hint: ")).to_be_visible()
        shot(page, "practice-hint")
        before = version(page)
        page.get_by_role("button", name="Take the hint").click()
        answered(page, before)
        expect(page.get_by_role("region", name="Bidding")).to_contain_text("You")

        taps = play_hand(page, "practice-no-js", OUT_OF_REACH["classic"])

        assert taps["card"] == 12
        page.get_by_role("button", name="Next hand").click()
        expect(page.get_by_text("Hand 2")).to_be_visible()
    finally:
        context.close()

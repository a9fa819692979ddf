"""The scorepad in chromium at phone size (375×812): sign up, seat a table, keep score with one thumb.

Screenshots go to ``$SCREENSHOT_DIR`` when it is set, to be looked at by a person.
"""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.helpers import PASSWORD, watch_console

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("SCREENSHOT_DIR")


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        # caret="initial": hiding the caret injects a style tag, which the CSP (rightly) refuses.
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True, caret="initial")


def assert_fits_the_phone(page: Page) -> None:
    """Nothing pushes the page wider than the phone (a wide table scrolls inside its own box)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def assert_not_under_the_top_bar(page: Page, selector: str) -> None:
    """The page scrolled to show ``selector``: its top is below the sticky top bar, not behind it."""
    page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping')")
    page.wait_for_function(  # the smooth scroll after the swap: still for a few frames
        """() => new Promise((done) => {
            let last = scrollY, still = 0;
            const look = () => {
                still = scrollY === last ? still + 1 : 0;
                last = scrollY;
                still >= 5 ? done(true) : requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        })"""
    )
    bar = page.locator(".topbar").bounding_box()
    target = page.locator(selector).bounding_box()
    assert bar is not None
    assert target is not None
    assert target["y"] >= bar["y"] + bar["height"]


def sign_up_with_household(page: Page, base: str, players: list[str]) -> None:
    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.get_by_role("link", name="New household").click()
    page.get_by_label("Household name").fill("Smiths")
    page.get_by_role("button", name="Create household").click()
    expect(page.get_by_role("heading", name="Smiths")).to_be_visible()
    for name in players:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Add player").click()
        expect(page.locator(".chips")).to_contain_text(name)


def tap_bidder(page: Page, name: str) -> None:
    page.locator("#hand-form .seat", has_text=re.compile(rf"^{name}")).click()


def tap_trump(page: Page, label: str) -> None:
    page.locator("#hand-form .suit", has_text=label).click()


def record(page: Page, number: int) -> None:
    page.get_by_role("button", name="Record hand").click()
    expect(page.locator("#hand-form h2")).to_have_text(f"Hand {number + 1}")


def expect_totals(page: Page, totals: list[str]) -> None:
    expect(page.locator("#scoreboard .points")).to_have_text(totals)


def test_double_deck_three_hands_with_a_set_a_forfeit_and_a_correction(live_server, page: Page):
    errors = watch_console(page)
    sign_up_with_household(page, live_server.url, ["Ann", "Bob", "Cat", "Dan"])
    shot(page, "01-household")

    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name=re.compile("Double-deck")).click()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(re.compile(rf"^Seat {seat} ")).select_option(label=name)
    page.get_by_label("First dealer").select_option(label="Seat 4 (team 2)")
    shot(page, "02-new-game")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".next-deal")).to_have_text("Hand 1 · Dan deals")
    page.wait_for_load_state()
    assert page.evaluate("typeof window.htmx") == "object"
    page.evaluate("window.stillTheSamePage = true")  # htmx swaps keep it; a full load would not
    assert_fits_the_phone(page)
    shot(page, "03-game-start")

    # Hand 1 (RULES §9.4): Bob & Dan bid 55 in hearts and make only 31 + 22: set.
    tap_bidder(page, "Bob")
    for _ in range(5):
        page.get_by_role("button", name="Raise the bid").click()
    expect(page.get_by_label("Bid", exact=True)).to_have_value("55")
    expect(page.locator("#hand-form .seat", has_text="Bob").locator("input")).to_be_checked()
    tap_trump(page, "hearts")
    page.locator("#id_meld_0").fill("24")
    page.locator("#id_meld_1").fill("31")
    page.locator("#id_tricks_0").fill("28")
    shot(page, "04-hand-one-entered")
    record(page, 1)
    expect_totals(page, ["52", "-55"])
    assert_not_under_the_top_bar(page, "#scoreboard .side-name >> nth=0")
    expect(page.locator(".last-hand")).to_contain_text("set: 53 is short of 55")
    expect(page.locator(".next-deal")).to_have_text("Hand 2 · Ann deals")
    shot(page, "05-after-set")

    # Hand 2: Cat has no marriage: the hand is not played, Ann & Cat lose the 50.
    tap_bidder(page, "Cat")
    tap_trump(page, "No marriage")
    page.locator("#id_meld_1").fill("26")
    record(page, 2)
    expect_totals(page, ["2", "-29"])
    expect(page.locator(".last-hand")).to_contain_text("not played")

    # Hand 3: Ann bids 60 (typed) in spades and makes 32 + 30.
    tap_bidder(page, "Ann")
    page.get_by_label("Bid", exact=True).fill("60")
    tap_trump(page, "spades")
    page.locator("#id_meld_0").fill("32")
    page.locator("#id_meld_1").fill("18")
    page.locator("#id_tricks_0").fill("30")
    record(page, 3)
    expect_totals(page, ["64", "-9"])
    expect(page.locator("#hands tbody tr")).to_have_count(3)
    assert page.evaluate("window.stillTheSamePage") is True
    assert_fits_the_phone(page)
    shot(page, "06-three-hands")

    # A refusal shows beside its field and records nothing.
    tap_bidder(page, "Bob")
    page.get_by_label("Bid", exact=True).fill("40")
    tap_trump(page, "clubs")
    page.locator("#id_tricks_0").fill("20")
    page.get_by_role("button", name="Record hand").click()
    expect(page.locator("#hand-form .errorlist").first).to_contain_text("40 is under the minimum bid of 50")
    expect(page.locator("#hands tbody tr")).to_have_count(3)
    shot(page, "07-refusal")

    # Correct hand 3: Ann & Cat took only 15 (under 20: set) and Bob & Dan 35 (their 18 meld is void).
    page.get_by_role("link", name="Edit hand 3").click()
    page.locator("#id_tricks_0").fill("15")
    page.locator("#id_tricks_1").fill("35")
    assert_fits_the_phone(page)
    shot(page, "08-edit")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator(".next-deal")).to_be_visible()
    expect_totals(page, ["-58", "6"])
    expect(page.locator("#hands tbody tr").nth(2)).to_contain_text("set")
    shot(page, "09-corrected")

    # Undo the last hand in one tap, then delete hand 1 after confirming.
    page.get_by_role("button", name="Undo hand 3").click()
    expect(page.locator("#hands tbody tr")).to_have_count(2)
    expect_totals(page, ["2", "-29"])
    page.get_by_role("link", name="Delete hand 1").click()
    page.get_by_role("button", name="Delete hand 1").click()
    expect(page.locator("#hands tbody tr")).to_have_count(1)
    expect_totals(page, ["-50", "26"])
    assert errors == []


def test_six_handed_to_a_tie_at_the_target_announces_co_winners(live_server, page: Page):
    errors = watch_console(page)
    sign_up_with_household(page, live_server.url, ["Ann", "Bob", "Cat", "Dan"])
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name=re.compile("Six-handed")).click()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    for name in ("Eve", "Fay"):  # added from the new-game form, seated in the first empty seat
        page.get_by_label("Add a player to the roster").fill(name)
        page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_label("Seat 6", exact=True).locator("option:checked")).to_have_text("Fay")
    expect(page.get_by_label("Seat 1", exact=True).locator("option:checked")).to_have_text("Ann")
    page.locator(".chip", has_text="500").click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("h1")).to_contain_text("to 500")
    assert_fits_the_phone(page)
    shot(page, "10-six-start")

    for number, bidder in enumerate(["Ann", "Bob"]):
        tap_bidder(page, bidder)
        tap_trump(page, "spades")
        page.locator("#id_meld_0").fill("150")
        page.locator("#id_meld_1").fill("150")
        for side, points in enumerate([100, 100, 10, 10, 10]):  # Fay's 10 is worked out
            page.locator(f"#id_tricks_{side}").fill(str(points))
        page.get_by_role("button", name="Record hand").click()
        if number == 0:
            expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
    expect(page.locator(".game-over")).to_have_text("Game over: Ann and Bob are co-winners!")
    expect_totals(page, ["500", "500", "20", "20", "20", "20"])
    expect(page.locator("#hand-form")).to_have_count(0)
    expect(page.locator(".total.winner")).to_have_count(2)
    assert_fits_the_phone(page)
    shot(page, "11-six-co-winners")
    assert errors == []


def test_the_bid_stepper_works_without_javascript(
    live_server, browser: Browser, browser_context_args: dict, page: Page
):
    sign_up_with_household(page, live_server.url, ["Ann", "Bob", "Cat", "Dan"])
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name=re.compile("Classic")).click()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(re.compile(rf"^Seat {seat} ")).select_option(label=name)
    page.get_by_role("button", name="Start the game").click()
    game_url = page.url

    context = browser.new_context(
        **browser_context_args, java_script_enabled=False, storage_state=page.context.storage_state()
    )
    plain = context.new_page()
    plain.goto(game_url)
    plain.locator("#hand-form .seat", has_text="Cat").click()
    plain.get_by_role("button", name="Raise the bid").click()
    plain.get_by_role("button", name="Raise the bid").click()
    expect(plain.get_by_label("Bid", exact=True)).to_have_value("22")
    expect(plain.locator("#hand-form .seat", has_text="Cat").locator("input")).to_be_checked()
    plain.locator("#hand-form .suit", has_text="diamonds").click()
    plain.locator("#id_meld_0").fill("12")
    plain.locator("#id_tricks_0").fill("15")
    plain.get_by_role("button", name="Record hand").click()
    expect(plain.locator("#scoreboard .points")).to_have_text(["27", "10"])
    shot(plain, "12-no-js")
    context.close()


def test_count_it_round_trip_fills_the_sides_meld_and_keeps_the_hand(live_server, page: Page):
    errors = watch_console(page)
    sign_up_with_household(page, live_server.url, ["Ann", "Bob", "Cat", "Dan"])
    page.get_by_role("link", name="New game").click()
    page.get_by_role("link", name=re.compile("Double-deck")).click()
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"], start=1):
        page.get_by_label(re.compile(rf"^Seat {seat} ")).select_option(label=name)
    page.get_by_role("button", name="Start the game").click()
    tap_bidder(page, "Bob")
    page.get_by_role("button", name="Raise the bid").click()
    tap_trump(page, "hearts")
    page.locator("#id_meld_0").fill("24")
    page.locator("#id_tricks_0").fill("28")

    page.locator('#hand-form button[name="count_meld"][value="1"]').click()
    expect(page.locator(".segment.current", has_text="Double-deck")).to_be_visible()
    # Hearts trump (from the hand form): K♠ Q♠ marriage 2, then Q♠ J♦ pinochle 4 (RULES §2.4).
    for code, total in (("KS", "0"), ("QS", "2"), ("JD", "6")):
        page.locator(f'a.card[data-code="{code}"]').click()
        # The calculator drops a tap made while the last one is on its way (hx-sync drop), and
        # KS leaves the total at 0, so wait for the card itself to show as held.
        expect(page.locator(f'.card.held[data-code="{code}"]')).to_be_visible()
        expect(page.locator("#meld-total")).to_have_text(total)
    use = page.get_by_role("link", name="Use this total (6) for Bob & Dan")
    expect(use).to_be_visible()
    expect(page.get_by_role("link", name="Back without counting")).to_be_visible()
    assert_fits_the_phone(page)
    shot(page, "13-count-it-calculator")
    page.emulate_media(color_scheme="dark")
    shot(page, "14-count-it-calculator-dark")
    page.emulate_media(color_scheme="light")

    use.click()
    expect(page.locator("#id_meld_1")).to_have_value("6")
    expect(page.locator("#id_meld_0")).to_have_value("24")
    expect(page.locator("#id_tricks_0")).to_have_value("28")
    expect(page.get_by_label("Bid", exact=True)).to_have_value("51")
    expect(page.locator("#hand-form .seat", has_text="Bob").locator("input")).to_be_checked()
    expect(page.locator("#hand-form .suit", has_text="hearts").locator("input")).to_be_checked()

    # The other partner's hand: K♥ Q♥ in hearts trump, a royal marriage 4, added to the 6 (§2.4).
    page.locator('#hand-form button[name="count_meld"][value="1"]').click()
    for code, total in (("KH", "0"), ("QH", "4")):
        page.locator(f'a.card[data-code="{code}"]').click()
        expect(page.locator(f'.card.held[data-code="{code}"]')).to_be_visible()
        expect(page.locator("#meld-total")).to_have_text(total)
    expect(page.get_by_role("link", name="Use 4 instead")).to_be_visible()
    add = page.get_by_role("link", name="Add to Bob & Dan's meld: 6 + 4 = 10")
    assert_fits_the_phone(page)
    shot(page, "15-count-it-add-partner")
    add.click()
    expect(page.locator("#id_meld_1")).to_have_value("10")
    expect(page.locator("#id_meld_0")).to_have_value("24")
    expect(page.locator("#id_tricks_0")).to_have_value("28")
    assert errors == []

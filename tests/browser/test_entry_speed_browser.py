"""How many touches an ordinary hand takes on a phone (375×812), counted as the product owner
counts them: every tap on the screen and every key typed. README "Scorepad" quotes these figures.

Run with ``-s`` to print them: ``.venv/bin/pytest tests/browser/test_entry_speed_browser.py -s -q``.
"""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorepad.services.games import game_start
from tests.browser.test_history_browser import PASSWORD, log_in
from tests.browser.test_scorepad_browser import shot
from tests.sample_games import ROSTER, make_household

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Touches:
    """Taps and keys on one page, counted."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.keys = page, 0, 0

    def tap(self, target: Locator) -> None:
        target.click()
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def box(self, name: str, text: str) -> None:
        """Tap a number box (unless the cursor is already in it) and type into it."""
        box = self.page.locator(f"#id_{name}")
        if not box.evaluate("box => box === document.activeElement"):
            self.tap(box)
        self.type(text)

    @property
    def total(self) -> int:
        return self.taps + self.keys


def open_game(live_server, page: Page, django_user_model, variant: str) -> None:
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    household = make_household(user)
    players = [household.players.get(name=name) for name in ROSTER]
    seats = 6 if variant == "six-handed" else 4
    game = game_start(
        household=household, variant_id=variant, overrides={}, players=players[:seats], first_dealer=0
    )
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/games/{game.pk}/")


def record_is_in_view(page: Page) -> None:
    """'Record hand' is on the screen without scrolling (it stays at the bottom of the phone)."""
    button = page.get_by_role("button", name="Record hand").bounding_box()
    assert button is not None
    assert button["y"] >= 0
    assert button["y"] + button["height"] <= page.viewport_size["height"]


def enter(
    page: Page, bidder: str, bid: str, trump: str, meld: dict[int, str], tricks: dict[int, str]
) -> Touches:
    record_is_in_view(page)
    touches = Touches(page)
    touches.tap(page.locator("#hand-form .seat", has_text=re.compile(rf"^{bidder}")))
    touches.tap(page.locator(".bid-chip", has_text=re.compile(rf"^{bid}$")))
    expect(page.get_by_label("Bid", exact=True)).to_have_value(bid)
    touches.tap(page.locator("#hand-form .suit", has_text=trump))
    for side, points in meld.items():
        touches.box(f"meld_{side}", points)
    for side, points in tricks.items():
        touches.box(f"tricks_{side}", points)
    expect(page.locator("#hand-preview")).not_to_contain_text("Preview:")  # the preview has scored it
    record_is_in_view(page)
    shot(page, f"speed-{len(meld)}-{bid}-entered")
    touches.tap(page.get_by_role("button", name="Record hand"))
    expect(page.locator("#hand-form h2")).to_have_text("Hand 2")
    shot(page, f"speed-{len(meld)}-{bid}-recorded")
    return touches


def report(variant: str, touches: Touches) -> None:
    print(f"\n{variant}: {touches.total} touches ({touches.taps} taps + {touches.keys} keys), no scroll")


def test_an_ordinary_classic_hand(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "classic")
    # RULES §6 classic (a): Ann & Cy bid 30, meld 18 and 9, trick points 13 (Bo & Di's 12 worked out).
    touches = enter(page, "Ann", "30", "hearts", {0: "18", 1: "9"}, {0: "13"})
    expect(page.locator(".totals .points")).to_have_text(["31", "21"])
    report("classic", touches)
    assert touches.taps <= 6
    assert touches.total <= 11


def test_an_ordinary_double_deck_hand(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "double-deck")
    # RULES §6 double-deck (a): bid 60, bidders' meld 32 and trick points 30; opponents' meld 18.
    touches = enter(page, "Ann", "60", "spades", {0: "32", 1: "18"}, {0: "30"})
    expect(page.locator(".totals .points")).to_have_text(["62", "20"])
    report("double-deck", touches)
    assert touches.taps <= 6
    assert touches.total <= 12


def test_an_ordinary_six_handed_hand(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "six-handed")
    # Ann bids 120 with meld 110 and 45 trick points (RULES §6); three others meld, the last one's
    # trick points are worked out (240 in all).
    meld = {0: "110", 1: "40", 3: "20"}
    tricks = {0: "45", 1: "60", 2: "40", 3: "35", 4: "20"}
    touches = enter(page, "Ann", "120", "clubs", meld, tricks)
    expect(page.locator(".totals .points").first).to_have_text("155")
    # The six-player hand table reads at 375 px without scrolling sideways.
    assert page.locator("#hands .table-scroll").evaluate("box => box.scrollWidth <= box.clientWidth")
    report("six-handed", touches)
    assert touches.total <= 30


def test_a_refused_hand_brings_its_first_error_into_view(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "classic")
    page.locator("#hand-form .seat", has_text=re.compile("^Ann")).click()
    page.locator("#hand-form .suit", has_text="hearts").click()
    page.locator("#id_meld_0").fill("18")
    page.locator("#id_tricks_0").fill("13")
    page.locator("#id_tricks_1").fill("13")  # 26: one more than the deck holds
    page.get_by_role("button", name="Record hand").click()
    error = page.locator("#hand-form .errorlist", has_text="Trick points add up to 26")
    expect(error).to_be_focused()
    expect(error).to_be_in_viewport()

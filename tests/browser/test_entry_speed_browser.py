"""How many touches an ordinary hand takes on a phone (375×812), counted as the product owner
counts them: every tap on the screen and every key typed.

Run with ``-s`` to print them: ``.venv/bin/pytest tests/browser/test_entry_speed_browser.py -s -q``.
"""

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scorepad.services.games import game_start
from tests.browser.test_scorepad_browser import shot
from tests.helpers import PASSWORD, log_in_page
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
    log_in_page(page, live_server.url)
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
    # In the form's order: trick points (the bidders' first), then meld.
    for side, points in tricks.items():
        touches.box(f"tricks_{side}", points)
    for side, points in meld.items():
        touches.box(f"meld_{side}", points)
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
    assert touches.total <= 10  # the scorepad's entry-speed target for an ordinary 4-player hand


def test_an_ordinary_double_deck_hand(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "double-deck")
    # RULES §6 double-deck (a): bid 60, bidders' meld 32 and trick points 30; opponents' meld 18.
    touches = enter(page, "Ann", "60", "spades", {0: "32", 1: "18"}, {0: "30"})
    expect(page.locator(".totals .points")).to_have_text(["62", "20"])
    report("double-deck", touches)
    # 10 would need no move between boxes at all: 6 digits + bidder + bid + trump + Record. The trick
    # box moves on by itself ("30": no third digit fits in 50), but a meld box never can ("32" may
    # still become 320), so reaching the opponents' meld costs one tap (or one Enter): 11.
    assert touches.total <= 11


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
    assert touches.total <= 24


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


def focused(page: Page) -> str:
    return page.evaluate("document.activeElement.id")


def test_a_trick_box_moves_on_only_when_no_longer_number_fits(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "classic")
    page.locator("#hand-form .seat", has_text=re.compile("^Bo")).click()
    page.locator("#hand-form .suit", has_text="spades").click()
    assert focused(page) == "id_tricks_1"  # the bidders' box: Bo & Di
    page.keyboard.type("2")
    assert focused(page) == "id_tricks_1"  # 20 … 25 still fit
    page.keyboard.type("1")
    assert focused(page) == "id_meld_0"  # 210 would not: on past the worked-out box to the meld
    page.locator("#id_tricks_1").click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    expect(page.locator("#id_tricks_1")).to_have_value("2")
    assert focused(page) == "id_tricks_1"  # deleting never moves the cursor
    page.keyboard.type("4")
    assert focused(page) == "id_meld_0"
    page.locator("#id_tricks_1").click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    page.locator("#id_meld_1").click()  # a tap elsewhere wins: nothing pulls the cursor back
    page.keyboard.type("9")
    assert focused(page) == "id_meld_1"
    expect(page.locator("#id_tricks_1")).to_have_value("2")
    expect(page.locator("#id_meld_1")).to_have_value("9")


def test_a_double_deck_trick_box_waits_for_the_second_digit(live_server, page: Page, django_user_model):
    open_game(live_server, page, django_user_model, "double-deck")
    page.locator("#hand-form .seat", has_text=re.compile("^Ann")).click()
    page.locator("#hand-form .suit", has_text="spades").click()
    page.keyboard.type("3")
    assert focused(page) == "id_tricks_0"  # 30 … 39 fit in 50 (in classic, 3 would be complete)
    page.keyboard.type("0")
    assert focused(page) == "id_meld_0"

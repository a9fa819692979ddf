"""Two phones keeping score at one table (two browser contexts, one account): a correction made
from a page the other phone has since changed is refused in words and changes nothing."""

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scorepad.models import Hand
from tests.helpers import PASSWORD, log_in_page
from tests.sample_games import import_game, make_household

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# classic: three ordinary hands, nobody near the target of 150.
THREE_HANDS = {
    "variant": "classic",
    "settings": {},
    "hands": [
        {"bidder": 0, "bid": 30, "trump": "H", "meld": [18, 9], "tricks": [13, 12]},
        {"bidder": 1, "bid": 25, "trump": "S", "meld": [10, 12], "tricks": [15, 10]},
        {"bidder": 2, "bid": 22, "trump": "D", "meld": [8, 6], "tricks": [16, 9]},
    ],
}


@pytest.fixture
def game(django_user_model):
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    return import_game(make_household(user), THREE_HANDS, ("Ann", "Bo", "Cy", "Di"))


def phone(new_phone: Callable[..., BrowserContext], base: str, url: str) -> tuple[Page, list[str]]:
    """A phone on the game page; ``new_phone`` closes it after the test, so its page stops polling."""
    context = new_phone()
    page = context.new_page()
    errors = log_in_page(page, base)
    page.goto(url)
    return page, errors


def test_a_stale_undo_and_a_stale_edit_from_a_second_phone_are_refused(live_server, new_phone, game):
    url = f"{live_server.url}/games/{game.pk}/"
    one, one_errors = phone(new_phone, live_server.url, url)
    two, two_errors = phone(new_phone, live_server.url, url)
    for page in (one, two):
        expect(page.get_by_role("button", name="Undo hand 3")).to_be_visible()

    # Both show "Undo hand 3": the first tap undoes it, the second is refused (not "undo hand 2").
    one.get_by_role("button", name="Undo hand 3").click()
    expect(one.locator("#scorepad .message")).to_have_text("Hand 3 undone.")
    two.get_by_role("button", name="Undo hand 3").click()
    expect(two.locator("#scorepad .message")).to_contain_text("That hand is no longer in the game")
    expect(two.get_by_role("button", name="Undo hand 2")).to_be_visible()  # the page now shows the truth
    assert list(game.hands.values_list("number", flat=True)) == [0, 1]

    # Both open "Correct hand 2"; the first saves a bid of 26, the second's bid of 27 is refused.
    for page in (one, two):
        page.get_by_role("link", name="Edit hand 2").click()
        expect(page.locator("#hand-form h2")).to_have_text("Correct hand 2")
    one.get_by_label("Bid", exact=True).fill("26")
    one.get_by_role("button", name="Save correction").click()
    expect(one.locator(".messages")).to_contain_text("Hand 2 corrected")
    two.get_by_label("Bid", exact=True).fill("27")
    two.get_by_role("button", name="Save correction").click()
    refusal = two.locator("#hand-form .form-errors")
    expect(refusal).to_contain_text(
        "Hand 2 was changed on another phone since you opened it: here it is now."
    )
    expect(two.get_by_label("Bid", exact=True)).to_have_value("26")  # the hand as it is now
    expect(refusal).to_be_in_viewport()
    assert Hand.objects.get(game=game, number=1).bid == 26

    # Both open "Delete hand 1?" and both confirm: one hand is deleted, not hand 1 and then the next.
    for page in (one, two):
        page.goto(url)
        page.get_by_role("link", name="Delete hand 1").click()
    one.get_by_role("button", name="Delete hand 1").click()
    expect(one.locator(".messages")).to_contain_text("Hand 1 deleted")
    two.get_by_role("button", name="Delete hand 1").click()
    expect(two.locator(".messages")).to_contain_text("That hand is no longer in the game")
    assert list(game.hands.values_list("bid", flat=True)) == [26]
    assert not re.search("Content Security Policy", " ".join(one_errors + two_errors))

"""Puzzles in chromium at 375×812: in each variant a puzzle solved and one missed, by tapping the
cards of the frozen table; the page fits the phone's width and runs without a console error. At
375×812 and 320×568, what the seat knows is read from the folds (each trick with who led and who
won it, the cards passed and received, each seat's meld) and the hand is still there to answer."""

import pytest
from playwright.sync_api import Page, expect

from scorepad.engine.puzzles import Puzzle
from scorepad.selectors.puzzles import shipped
from tests.browser.test_accessibility import BLOCKING, axe_violations
from tests.helpers import watch_console

pytestmark = pytest.mark.browser


def play_puzzles(variant: str) -> list[Puzzle]:
    return [p for p in shipped(variant) if p.decision == "play"]


def tap_card(page: Page, code: str) -> None:
    page.locator(f'.my-hand button.card[value="{code}"]').first.click()  # copies: either one


def fits_the_width(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("variant", ["classic", "double-deck", "six-handed"])
def test_a_puzzle_is_solved_and_another_missed_at_phone_size(live_server, page: Page, variant):
    errors = watch_console(page)
    solved, missed = play_puzzles(variant)[:2]

    page.goto(f"{live_server.url}/puzzles/{solved.key}/")
    expect(page.locator(".your-turn")).to_contain_text("Which card?")
    assert fits_the_width(page)
    tap_card(page, solved.answer)
    result = page.locator(".puzzle-result")
    expect(result).to_contain_text("Right:")
    expect(result).to_contain_text("The worst answer")
    expect(result).to_contain_text("Your puzzle rating:")

    page.goto(f"{live_server.url}/puzzles/{missed.key}/")
    wrong = next(answer for answer, _ in missed.values if answer != missed.answer)
    tap_card(page, wrong)
    expect(page.locator(".puzzle-result")).to_contain_text("Not quite")
    assert fits_the_width(page)
    page.get_by_role("link", name="Next puzzle").first.click()
    expect(page.locator(".your-turn")).to_be_visible()
    assert errors == []


def test_the_puzzle_of_the_day_opens_from_the_puzzles_page(live_server, page: Page):
    page.goto(f"{live_server.url}/puzzles/")
    page.get_by_role("link", name="Solve today's puzzle").click()
    expect(page.locator(".your-turn")).to_be_visible()
    assert fits_the_width(page)


PHONES = {"375x812": {"width": 375, "height": 812}, "320x568": {"width": 320, "height": 568}}


def open_fold(page: Page, name: str):
    """Open the fold named ``name`` in the strip above the table; its sheet, once it shows."""
    fold = page.locator("details.fold", has=page.locator(".fold-name", has_text=name))
    fold.locator("summary").click()
    sheet = fold.locator(".sheet")
    expect(sheet).to_be_visible()
    return sheet


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    return box["x"] >= 0 and box["x"] + box["width"] <= size["width"] and box["y"] >= 0


@pytest.mark.parametrize("phone", list(PHONES))
def test_the_position_as_the_seat_knows_it_is_read_in_words_on_a_phone(live_server, page: Page, phone):
    errors = watch_console(page)
    page.set_viewport_size(PHONES[phone])
    page.goto(f"{live_server.url}/puzzles/classic-00276-041/")  # the bidder, six tricks in
    expect(page.locator(".your-turn")).to_contain_text("Trick 7: your lead. Which card?")
    assert fits_the_width(page)

    tricks = open_fold(page, "Tricks")
    expect(tricks.locator("li")).to_have_count(6)
    expect(tricks.locator("li").first).to_have_text("You led A♦, Left 9♦, Partner K♦, Right J♦. You won.")
    expect(tricks.locator("li").nth(1)).to_have_text("You led 9♥, Left 9♠, Partner 9♦, Right A♥. Right won.")
    assert in_view(page, ".tricks-played")
    assert fits_the_width(page)
    assert [v for v in axe_violations(page) if v["impact"] in BLOCKING] == []
    page.locator("details.played-tricks summary").click()

    passing = open_fold(page, "Passing")
    expect(passing).to_contain_text("You received from Partner: 10♥ 10♥ J♥ 9♥")
    expect(passing).to_contain_text("You passed to Partner: J♠ Q♦ J♦ 9♦")
    page.locator("details.puzzle-passing summary").click()

    melds = open_fold(page, "Meld")
    expect(melds).to_contain_text("You: 9")
    expect(melds).to_contain_text("Partner: 4")
    page.locator("details.melds summary").click()

    tap_card(page, "KS")  # the answer: the hand is there to answer from
    expect(page.locator(".puzzle-result")).to_contain_text("Right: K♠")
    assert fits_the_width(page)
    assert errors == []


@pytest.mark.parametrize("phone", list(PHONES))
def test_a_six_handed_trick_reads_all_six_seats_at_phone_size(live_server, page: Page, phone):
    page.set_viewport_size(PHONES[phone])
    page.goto(f"{live_server.url}/puzzles/six-handed-00005-020/")
    tricks = open_fold(page, "Tricks")
    expect(tricks.locator("li").first).to_have_text(
        "Across led A♦, Far right K♦, Right Q♦, You 9♦, Left 9♦, Far left J♦. Across won."
    )
    assert in_view(page, ".tricks-played")
    assert fits_the_width(page)

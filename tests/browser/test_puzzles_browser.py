"""Puzzles in chromium at 375×812: in each variant a puzzle solved and one missed, by tapping the
cards of the frozen table; the page fits the phone's width and runs without a console error."""

import pytest
from playwright.sync_api import Page, expect

from scorepad.engine.puzzles import Puzzle
from scorepad.selectors.puzzles import shipped
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

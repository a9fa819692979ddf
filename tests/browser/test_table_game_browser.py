"""Whole games at a household's private table, one phone per seat and no bots, on the production
application (``asgi_live_server``: each phone's stream is the real loop). At every decision each
phone shows the auction so far (each seat's bids and passes, in order), the contract and trump once
set, the meld once shown and the trick as it stands, all the same as the others; after each hand
each phone's totals are the household scorepad's for the table's game. The phone deciding has its
hand and the decision in view without scrolling, and no phone is ever wider than itself.

A classic game is played to a house-rule target of ``TARGET`` (the form's least is 10; RULES.md §4
lets the household choose it), a few hands rather than the dozen or so of 150, to keep the suite
quick; a six-handed table plays one hand with six phones."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page

from scorepad.models import Household, PrivateTable
from scorepad.services.households import player_claim
from tests.asgi_live_server import AsgiLiveServer
from tests.browser.test_table_screen_browser import PHONES, check_in_view
from tests.browser.test_tables_browser import AT_LEAST, version_of
from tests.helpers import with_session

pytestmark = pytest.mark.browser
TARGET = 50  # RULES.md's quick game
SIGNED_IN_SEAT = 1  # this phone's player is a member signed in on it, seated by account
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# What a phone shows, read at once: the calls, the contract, the meld, the trick, the totals.
SHOWN = """() => {
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, ' ').trim() : '');
  const all = (selector) => [...document.querySelectorAll(selector)].map(text);
  const live = document.querySelector('#screen .auction-now');
  return {
    version: +(document.querySelector('#screen')?.dataset.version ?? -1),
    calls: live ? all('#screen .auction-now li') : all('#screen .auction .calls li'),
    contract: text(document.querySelector('#screen .scorebar .contract')),
    melds: text(document.querySelector('#screen .melds > summary .fold-more')),
    trick: all('#screen .trick.now .played .card'),
    lastTrick: all('#screen .last-trick .sheet .card'),
    totals: [...document.querySelectorAll('#screen .practice-totals li')].map(
      (li) => [text(li.querySelector('.side-name')), text(li.querySelector('.side-total strong'))]),
    handOver: !!document.querySelector('#screen .hand-summary'),
    gameOver: text(document.querySelector('#screen .game-over')),
    wider: document.documentElement.scrollWidth > innerWidth,
  };
}"""
SCOREPAD = """() => [...document.querySelectorAll('#scoreboard .total')].map((li) =>
    [li.querySelector('.side-name').textContent.trim(), li.querySelector('.points').textContent.trim()])"""


@dataclass
class Hand:
    """What the test did in the hand, to hold each phone's screen to."""

    calls: list[str] = field(default_factory=list)  # "Bo 20", "Cy Pass"
    bidder: str = ""
    bid: str = ""
    trump: str = ""
    trick: list[str] = field(default_factory=list)  # the faces of the trick's cards so far
    last_trick: list[str] = field(default_factory=list)
    bid_once: set[int] = field(default_factory=set)


def household_table(
    server: AsgiLiveServer,
    new_phone: Callable[..., BrowserContext],
    ann: Any,
    household: Household,
    variant: str,
    seats: int,
) -> list[Page]:
    """Ann opens a table for the Smiths, every seat a roster player's; each takes it on a phone of
    their own (the last at 320×568, the others 375×812) from the table's link, the second as a
    member signed in on it, with one tap."""
    names = [p.name for p in household.players.order_by("pk")][:seats]
    sizes = ["375x812"] * (seats - 1) + ["320x568"]
    site = server.url
    host = with_session(new_phone(viewport=PHONES[sizes[0]]), server, ann).new_page()
    host.goto(f"{site}/tables/?variant={variant}&household={household.pk}")
    host.fill("#id_target", str(TARGET))
    host.click("button:has-text('Open the table')")
    host.wait_for_selector("#screen")
    join = host.locator(".invite a").first.get_attribute("href")
    assert join
    pages = [host]
    for seat in range(1, seats):
        if seat == SIGNED_IN_SEAT:  # a member signed in on their own phone sits as themselves
            member = User.objects.create_user(username=f"{names[seat].lower()}-phone")
            household.members.add(member)
            player_claim(player=household.players.get(name=names[seat]), user=member, mine=True)
            page = with_session(new_phone(viewport=PHONES[sizes[seat]]), server, member).new_page()
            page.goto(join)
            page.get_by_role("button", name=f"Sit as {names[seat]}").click()
        else:
            page = new_phone(viewport=PHONES[sizes[seat]]).new_page()
            page.goto(join)
            form = page.locator(f"form[action$='/seat/{seat}/']")
            form.locator("input[name=name]").fill(names[seat])
            form.locator("button").click()
        page.wait_for_selector("#screen")
        pages.append(page)
    for page in pages:  # every stream open, every seat taken
        page.wait_for_function("() => !document.querySelector('#screen .away-line, .table-seats .seat-note')")
    return pages


def deciding(pages: list[Page]) -> Page | None:
    """The phone asked for a decision, or None once the hand is over on every phone."""
    for _ in range(600):
        for page in pages:
            if page.locator("#screen form.decision").count():
                return page
        if all(page.locator("#screen .hand-summary").count() for page in pages):
            return None
        pages[0].wait_for_timeout(50)
    raise AssertionError("no phone was asked for a decision")


def decide(page: Page, seat: int, name: str, hand: Hand, seats: int) -> None:
    """The phone's decision, as a player makes it, noted in ``hand``: each seat bids the least once,
    then passes; trump the first suit offered; the first cards to pass; the first card it may play."""
    form = page.locator("#screen form.decision")
    if form.locator("button[name=card]").count():
        card = form.locator("button[name=card]:not([disabled])").first
        face = "".join((card.locator(".face").text_content() or "").split())
        card.click()
        hand.trick.append(face)
        if len(hand.trick) == seats:
            hand.last_trick, hand.trick = hand.trick, []
    elif form.locator("button[name=bid]").count():
        if seat not in hand.bid_once or not form.locator("button[value=pass]").count():
            hand.bid_once.add(seat)
            button = form.locator("button[name=bid]:not([value=pass])").first
            hand.bidder, hand.bid = name, button.get_attribute("value") or ""
            hand.calls.append(f"{name} {hand.bid}")
        else:
            button = form.locator("button[value=pass]")
            hand.calls.append(f"{name} Pass")
        button.click()
    elif form.locator("button[name=trump]").count():
        button = form.locator("button[name=trump]").first
        hand.trump = SYMBOLS[button.get_attribute("value") or ""]
        button.click()
    elif form.locator("button[name=concede]").count():
        form.locator("button[value=false]").click()
    else:
        count = int(form.inner_text().split("Choose ")[1].split(" ")[0])
        boxes = form.locator("input[name=pass]")
        for index in range(count):
            boxes.nth(index).check()
        form.locator("button:has-text('Pass these')").click()


def check_every_phone(pages: list[Page], names: list[str], hand: Hand, version: int) -> list[dict[str, Any]]:
    """Each phone, once it shows the table after the decision: the same calls, contract, meld and
    trick as the test made, and no wider than itself."""
    shown = []
    for page in pages:
        page.wait_for_function(AT_LEAST, arg=version)
        seen = page.evaluate(SHOWN)
        assert not seen["wider"], page.viewport_size
        assert seen["calls"] == hand.calls, (seen["calls"], hand.calls)
        if hand.trump:
            assert seen["contract"] == f"{hand.bidder} {hand.bid} {hand.trump}"
        elif hand.calls:
            assert seen["contract"].startswith(hand.bidder or "")
        if not seen["handOver"]:
            assert seen["trick"] == hand.trick
            if hand.last_trick:
                assert seen["lastTrick"] == hand.last_trick
        shown.append(seen)
    melds = {seen["melds"] for seen in shown}
    assert len(melds) == 1, melds  # every phone shows the same meld
    meld = melds.pop()
    if hand.trick or hand.last_trick:  # laid down before the first card: every seat's
        assert meld
        assert all(name in meld for name in names), meld
    return shown


def play_hand(pages: list[Page], names: list[str]) -> list[dict[str, Any]]:
    hand = Hand()
    seats = len(pages)
    while (page := deciding(pages)) is not None:
        seat = pages.index(page)
        size = page.viewport_size
        check_in_view(page, f"{size['width']}x{size['height']}" if size else "", "decision")
        version = version_of(page)
        decide(page, seat, names[seat], hand, seats)
        check_every_phone(pages, names, hand, version + 1)
    return [page.evaluate(SHOWN) for page in pages]


def scorepad_totals(site: str, pages: list[Page]) -> list[list[str]]:
    """The household scorepad's totals for the table's game, as its page shows them to Ann."""
    table = PrivateTable.objects.get()
    page = pages[0].context.new_page()
    page.goto(f"{site}{reverse('game', args=[table.game_id])}")
    totals = page.evaluate(SCOREPAD)
    page.close()
    return totals


def test_a_whole_classic_game_on_four_phones_scores_what_the_household_scorepad_says(
    asgi_live_server, new_phone, ann, household
):
    site = asgi_live_server.url
    pages = household_table(asgi_live_server, new_phone, ann, household, "classic", 4)
    names = [p.name for p in household.players.order_by("pk")][:4]
    hands = 0
    while True:
        shown = play_hand(pages, names)
        hands += 1
        totals = scorepad_totals(site, pages)
        assert len(totals) == 2, totals  # two sides of partners
        for seen in shown:
            assert seen["totals"] == totals, (hands, seen["totals"], totals)
        if shown[0]["gameOver"]:
            break
        assert hands < 30, "the game never reached its target"
        version = version_of(pages[0])
        pages[0].locator("button:has-text('Next hand')").click()
        for page in pages:
            page.wait_for_function(AT_LEAST, arg=version + 1)
    assert all(seen["gameOver"] == shown[0]["gameOver"] for seen in shown)
    assert any(int(total) >= TARGET for _, total in totals)
    game = PrivateTable.objects.get().game
    seated = game.seats.get(position=SIGNED_IN_SEAT).player
    assert seated.name == names[SIGNED_IN_SEAT]
    assert seated.account is not None  # the roster player, not a guest
    assert not game.seats_taken.exists()  # nobody stood in for anyone


def test_a_six_handed_hand_on_six_phones_shows_every_phone_the_same_table(
    asgi_live_server, new_phone, ann, household
):
    site = asgi_live_server.url
    pages = household_table(asgi_live_server, new_phone, ann, household, "six-handed", 6)
    names = [p.name for p in household.players.order_by("pk")][:6]
    shown = play_hand(pages, names)
    totals = scorepad_totals(site, pages)
    assert len(totals) == 6, totals  # each player for themselves
    for seen in shown:
        assert seen["totals"] == totals

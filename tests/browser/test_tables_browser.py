"""Private tables in the browser, one phone per seat, on the production application (uvicorn serving
``pinochle_site.asgi``, ``asgi_live_server``): a whole classic hand with four phones, one of which
reloads mid-trick and one of which is away past the grace and comes back; a six-handed hand with
six; a phone closed at its turn, said away on every other with its grace counting down, and back.
Each decision made on one phone shows on every other before the next is made. (How soon a card
shows on the others is measured by ``loadtest --tables``: card_to_phones_ms.)"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page

pytestmark = pytest.mark.browser
GRACE = 15  # seconds: the shortest the host may choose
AT_LEAST = "(version) => +(document.querySelector('#screen')?.dataset.version ?? -1) >= version"
NO_NOTE = "(seat) => !document.querySelector(`.table-seats [data-seat='${seat}'] .seat-note`)"
AWAY_SHOWN = """([name]) => [...document.querySelectorAll('#screen .away-line')].some((line) =>
    line.textContent.startsWith(`${name}'s phone is away — a bot plays for ${name} in `)
    && line.querySelector('time.countdown'))"""
COUNTDOWN = "() => document.querySelector('#screen .away-line time.countdown')?.textContent ?? ''"
COUNTED_DOWN = """(before) =>
    (document.querySelector('#screen .away-line time.countdown')?.textContent ?? before) !== before"""
NOBODY_AWAY = "() => !document.querySelector('#screen .away-line')"


@pytest.fixture
def site(asgi_live_server) -> str:
    """The production application (uvicorn, each phone's stream live) on the test's database."""
    return asgi_live_server.url


def phones_at_a_table(
    site: str, new_phone: Callable[..., BrowserContext], variant: str, count: int, grace: int = GRACE
) -> list[Page]:
    pages = []
    for _ in range(count):
        pages.append(new_phone().new_page())
    host = pages[0]
    host.goto(f"{site}/tables/?variant={variant}")
    host.fill("#id_host_name", "Ann")
    host.select_option("#id_grace", str(grace))
    host.click("button:has-text('Open the table')")
    host.wait_for_selector("#screen")
    join = host.locator(".invite a").first.get_attribute("href")
    assert join
    for seat, page in enumerate(pages[1:], start=1):
        page.goto(join)
        form = page.locator(f"form[action$='/seat/{seat}/']")
        form.locator("input[name=name]").fill(f"Friend {seat}")
        form.locator("button").click()
        page.wait_for_selector("#screen")
    for page in pages:  # each phone's stream is open and shows the table with everyone seated
        page.wait_for_function("() => document.querySelectorAll('.table-seats .seat-note').length === 0")
    return pages


def version_of(page: Page) -> int:
    return int(page.locator("#screen").get_attribute("data-version") or 0)


def deciding_phone(pages: list[Page], timeout: float = 10) -> Page | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("form.decision").count():
                return page
            if page.locator("button:has-text('Next hand')").count():
                return None
        time.sleep(0.05)
    raise AssertionError("no phone was asked for a decision")


def decide(page: Page, bid_once: set[int], seat: int) -> str:
    form = page.locator("form.decision")
    if form.locator("button[name=card]").count():
        # As a player does: wait for the trick to land and the veil over the hand to lift, the
        # pointer off the hand (a card under a resting pointer lifts and moves), then tap.
        page.mouse.move(0, 0)
        page.wait_for_function("() => document.getAnimations().every((a) => a.playState === 'finished')")
        form.locator("button[name=card]:not([disabled])").first.click()
        return "card"
    if form.locator("button[name=bid]").count():
        numbers = form.locator("button[name=bid]:not([value=pass])")
        if seat not in bid_once or not form.locator("button[value=pass]").count():
            bid_once.add(seat)
            numbers.first.click()
        else:
            form.locator("button[value=pass]").click()
        return "bid"
    if form.locator("button[name=trump]").count():
        form.locator("button[name=trump]").first.click()
        return "trump"
    if form.locator("button[name=concede]").count():
        form.locator("button[value=false]").click()
        return "concede"
    count = int(form.inner_text().split("Choose ")[1].split(" ")[0])
    boxes = form.locator("input[name=pass]")
    for index in range(count):
        boxes.nth(index).check()
    form.locator("button:has-text('Pass these')").click()
    return "pass"


def play_hand(
    pages: list[Page],
    *,
    on_card: Callable[[Page, int], None] | None = None,
    until: Callable[[], bool] = lambda: False,
) -> None:
    """Every decision of the hand on the phone asked (until the hand ends, or ``until`` says so);
    each shows on every phone before the next."""
    bid_once: set[int] = set()
    cards = 0
    while not until() and (page := deciding_phone(pages)) is not None:
        seat = pages.index(page)
        version = version_of(page)
        kind = decide(page, bid_once, seat)
        for other in pages:
            other.wait_for_function(AT_LEAST, arg=version + 1)
        if kind == "card":
            cards += 1
            if on_card is not None:
                on_card(page, cards)


def test_a_classic_hand_with_four_phones_one_reloading_and_one_away_past_the_grace(site, new_phone):
    pages = phones_at_a_table(site, new_phone, "classic", 4)
    table_url = pages[0].url
    events: dict[str, int] = {}

    def disturb(page: Page, cards: int) -> None:
        events["cards"] = cards
        if cards == 2 and "reloaded" not in events:  # mid-trick: a phone reloads
            phone = next(p for p in pages if p is not page)
            version = version_of(pages[0]) if pages[0] is not phone else version_of(pages[1])
            phone.reload()  # no tap after it: the stream brings the exact table again
            phone.wait_for_function(AT_LEAST, arg=version)
            events["reloaded"] = True
            assert phone.locator(".trick.now .played").count() == 2  # the trick as it stood
        if cards == 6 and "away" not in events:
            away_index = (pages.index(page) + 1) % 4  # next to play: away when their turn comes
            away = pages[away_index]
            away.goto("about:blank")
            watcher = pages[(away_index + 1) % 4]
            version = version_of(watcher)
            # Their turn comes with their phone away: the others say so, counting the grace down,
            # before the bot plays for them once it runs out.
            name = "Ann" if away_index == 0 else f"Friend {away_index}"
            watcher.wait_for_function(AWAY_SHOWN, arg=[name], timeout=(GRACE + 20) * 1000)
            events["away"] = version_of(watcher) == version
            watcher.wait_for_function(AT_LEAST, arg=version + 1, timeout=(GRACE + 20) * 1000)
            note = watcher.locator(f".table-seats [data-seat='{away_index}'] .seat-note").text_content() or ""
            assert "a bot plays for now" in note
            away.goto(table_url)  # back: the seat is theirs again at once, no tap
            away.wait_for_selector("#screen")
            watcher.wait_for_function(NO_NOTE, arg=away_index)
            events["back"] = cards

    def trick_after_the_return() -> bool:  # the rest of a hand on four phones: test_table_game_browser
        return "back" in events and events["cards"] >= events["back"] + 4

    play_hand(pages, on_card=disturb, until=trick_after_the_return)
    assert events["reloaded"]
    assert events["away"]  # said away, with the grace counting down, before the bot played


def test_a_phone_closed_at_its_turn_shows_away_on_every_other_with_its_grace_counting_down(site, new_phone):
    """Each phone's stream is the real loop: the one that closes is forgotten at once and the others
    are told; the one that comes back is marked and they are told again. (Within 5 s of the drop:
    each wait here allows ten times that.)"""
    pages = phones_at_a_table(site, new_phone, "classic", 4, grace=60)
    phone = deciding_phone(pages)
    assert phone is not None
    seat = pages.index(phone)
    name = "Ann" if seat == 0 else f"Friend {seat}"
    table_url = phone.url
    phone.goto("about:blank")
    others = [page for page in pages if page is not phone]
    for page in others:
        page.wait_for_function(AWAY_SHOWN, arg=[name], timeout=50_000)
        note = page.locator(f".table-seats [data-seat='{seat}'] .seat-note").text_content() or ""
        assert note.strip() == "away"
    watcher = others[0]
    first = watcher.evaluate(COUNTDOWN)
    assert re.fullmatch(r"\d+ s", first), first
    watcher.wait_for_function(COUNTED_DOWN, arg=first, timeout=10_000)  # it counts down, on its own
    assert int(watcher.evaluate(COUNTDOWN).split()[0]) < int(first.split()[0])
    phone.goto(table_url)  # back: every other phone stops saying it away
    phone.wait_for_selector("#screen")
    for page in others:
        page.wait_for_function(NOBODY_AWAY, timeout=50_000)
        page.wait_for_function(NO_NOTE, arg=seat)
    assert phone.locator("form.decision").count() == 1  # still their turn: no bot played it

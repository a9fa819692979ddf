"""Private tables in the browser, one phone per seat, on the production server (gunicorn with
uvicorn's worker, as the README starts it): a whole classic hand with four phones, one of which
reloads mid-trick and one of which is away past the grace and comes back; a six-handed hand with
six. A card played on one phone must show on the others within 300 ms at the 95th percentile."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import BrowserContext, Page

from scorepad.engine.match import percentile
from tests.test_tables_two_servers import HOST, ROOT, server

pytestmark = pytest.mark.browser
GRACE = 15  # seconds: the shortest the host may choose
SEEN = """
window.__seen = {};
const note = () => {
  const screen = document.querySelector('#screen');
  if (screen && !(screen.dataset.version in window.__seen)) {
    window.__seen[screen.dataset.version] = performance.timeOrigin + performance.now();
  }
};
new MutationObserver(note).observe(document, {subtree: true, childList: true, attributes: true});
document.addEventListener(
  'click', () => { window.__clicked = performance.timeOrigin + performance.now(); }, true
);
"""
FIRST_SEEN_AFTER = """(version) => Math.min(
  ...Object.entries(window.__seen).filter(([v]) => +v > version).map(([, at]) => at))"""
AT_LEAST = "(version) => +(document.querySelector('#screen')?.dataset.version ?? -1) >= version"
NO_NOTE = "(seat) => !document.querySelector(`.table-seats [data-seat='${seat}'] .seat-note`)"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("tables-site")
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE", "CACHE_URL"}
    }
    env |= {"VAR_DIR": str(folder), "WEB_CONCURRENCY": "1", "ALLOWED_HOSTS": HOST, "SECURE": "false"}
    env["DEBUG"] = "false"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120
    )
    with server(env, folder / "server.log") as port:
        yield f"http://{HOST}:{port}"


def phones_at_a_table(
    site: str, new_phone: Callable[..., BrowserContext], variant: str, count: int
) -> list[Page]:
    pages = []
    for _ in range(count):
        page = new_phone().new_page()
        page.add_init_script(SEEN)
        pages.append(page)
    host = pages[0]
    host.goto(f"{site}/tables/?variant={variant}")
    host.fill("#id_host_name", "Ann")
    host.select_option("#id_grace", str(GRACE))
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


def shown_after(page: Page, version: int, timeout_ms: float = 5_000) -> float:
    """When ``page`` first showed a version past ``version`` (its own clock, ms since the epoch)."""
    page.wait_for_function(
        "(version) => Object.keys(window.__seen).some((v) => +v > version)", arg=version, timeout=timeout_ms
    )
    return float(page.evaluate(FIRST_SEEN_AFTER, version))


def play_hand(pages: list[Page], *, on_card: Callable[[Page, int], None] | None = None) -> list[float]:
    """Every decision of the hand on the phone asked; each card's time to the other phones (ms)."""
    latencies: list[float] = []
    bid_once: set[int] = set()
    cards = 0
    while (page := deciding_phone(pages)) is not None:
        seat = pages.index(page)
        version = version_of(page)
        kind = decide(page, bid_once, seat)
        if kind != "card":
            for other in pages:
                shown_after(other, version)
            continue
        clicked = float(page.evaluate("window.__clicked"))
        for other in pages:
            if other is not page:
                latencies.append(shown_after(other, version) - clicked)
        cards += 1
        if on_card is not None:
            on_card(page, cards)
    return latencies


def test_a_classic_hand_with_four_phones_one_reloading_and_one_away_past_the_grace(site, new_phone):
    pages = phones_at_a_table(site, new_phone, "classic", 4)
    table_url = pages[0].url
    events: dict[str, object] = {}

    def disturb(page: Page, cards: int) -> None:
        if cards == 2 and "reloaded" not in events:  # mid-trick: a phone reloads
            phone = next(p for p in pages if p is not page)
            version = version_of(pages[0]) if pages[0] is not phone else version_of(pages[1])
            started = time.monotonic()
            phone.reload()
            phone.wait_for_function(AT_LEAST, arg=version)
            events["reloaded"] = time.monotonic() - started
            assert phone.locator(".trick.now .played").count() == 2  # the trick as it stood
        if cards == 6 and "away" not in events:
            away_index = (pages.index(page) + 1) % 4  # next to play: away when their turn comes
            away = pages[away_index]
            away.goto("about:blank")
            watcher = pages[(away_index + 1) % 4]
            version = version_of(watcher)
            started = time.monotonic()
            watcher.wait_for_function(AT_LEAST, arg=version + 1, timeout=(GRACE + 20) * 1000)
            events["away"] = time.monotonic() - started
            note = watcher.locator(f".table-seats [data-seat='{away_index}'] .seat-note").text_content() or ""
            assert "a bot plays for now" in note
            away.goto(table_url)  # back: the seat is theirs again at once, no tap
            away.wait_for_selector("#screen")
            watcher.wait_for_function(NO_NOTE, arg=away_index, timeout=2_000)

    latencies = play_hand(pages, on_card=disturb)
    assert pages[0].locator("button:has-text('Next hand')").count() == 1
    assert events["reloaded"] < 1.0  # seconds to the exact table again, with no tap
    # Waited for the grace before a bot played for them: the server's clock started when the turn
    # came, a moment before this test's (it sent the phone away after seeing the card played).
    assert events["away"] >= GRACE - 1
    p50, p95 = percentile(latencies, 50), percentile(latencies, 95)
    print(f"\ncard to the other phones: n={len(latencies)} p50={p50:.0f} ms p95={p95:.0f} ms")
    assert p95 <= 300


def test_a_six_handed_hand_with_six_phones(site, new_phone):
    pages = phones_at_a_table(site, new_phone, "six-handed", 6)
    latencies = play_hand(pages)
    assert pages[0].locator("button:has-text('Next hand')").count() == 1
    p95 = percentile(sorted(latencies), 95)
    print(f"\nsix phones, card to the others: n={len(latencies)} p95={p95:.0f} ms")
    assert p95 <= 300

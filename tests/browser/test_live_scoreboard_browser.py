"""Two (and three) phones at one table, in chromium at 375×812: a hand recorded on one shows on the others.

The shared scoreboard (no account) and a second scorekeeper's game page both follow a hand recorded
on the first phone, without a reload and without wiping a form being typed into. The issue promises
2 s; that is a speed target, so it is measured, not asserted (a shared CI machine is too noisy for a
timed test): the delays (from the tap on "Record hand" to the new totals on the other phone, so they
include recording the hand) are printed (run with ``-s``) and written to
``test-results/live-delay.json``.
"""

import json
import statistics
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorepad.services.scoreboards import scoreboard_link_create
from tests.browser.test_scorepad_browser import tap_bidder, tap_trump
from tests.helpers import watch_console, with_session
from tests.sample_games import import_game, make_household, make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESULTS = Path(__file__).resolve().parents[2] / "test-results"
PROMISED_SECONDS = 2.0  # reported beside the measured delays
EMPTY_CLASSIC = {"variant": "classic", "settings": {}, "hands": []}  # target 150, minimum bid 20


def watch_totals(page: Page, selector: str) -> None:
    """Note the time (the page's clock) at which each new set of totals first shows on ``page``."""
    page.evaluate(
        """(selector) => {
            window.totalsSeenAt = {};
            const note = () => {
                const totals = [...document.querySelectorAll(selector)].map((e) => e.textContent.trim());
                window.totalsSeenAt[totals.join(",")] ??= Date.now();
            };
            const changes = {subtree: true, childList: true, characterData: true};
            new MutationObserver(note).observe(document.body, changes);
        }""",
        selector,
    )


def seconds_until_totals(page: Page, expected: list[str], tapped_ms: float) -> float:
    """How long after the tap ``page`` first showed ``expected`` (waiting at most 10 s to find out)."""
    key = ",".join(expected)
    page.wait_for_function("(key) => key in window.totalsSeenAt", arg=key, timeout=10_000)
    return (page.evaluate("(key) => window.totalsSeenAt[key]", key) - tapped_ms) / 1000


def enter_hand(page: Page) -> None:
    """Ann bids 20 in hearts; meld 10 and 5; Ann & Cy take 15 of the 25 trick points: +25 and +15."""
    tap_bidder(page, "Ann")
    tap_trump(page, "hearts")
    page.locator("#id_meld_0").fill("10")
    page.locator("#id_meld_1").fill("5")
    page.locator("#id_tricks_0").fill("15")


def test_a_hand_recorded_on_one_phone_shows_on_the_others_without_a_reload(live_server, new_phone):
    ann = make_user("ann")
    game = import_game(make_household(ann), EMPTY_CLASSIC, ("Ann", "Bo", "Cy", "Di"))
    link = scoreboard_link_create(game=game, user=ann)
    keeper = with_session(new_phone(), live_server, ann).new_page()
    other_keeper = with_session(new_phone(), live_server, ann).new_page()
    watcher = new_phone().new_page()  # no account
    errors = [watch_console(page) for page in (keeper, other_keeper, watcher)]
    for page in (keeper, other_keeper):
        page.goto(f"{live_server.url}/games/{game.pk}/")
    watcher.goto(f"{live_server.url}/s/{link.token}/")
    expect(watcher.locator("#board .points")).to_have_text(["0", "0"])
    watcher.evaluate("window.stillTheSamePage = true")  # a reload would lose it

    # The second scorekeeper is halfway through typing the same hand: polling must not wipe it.
    other_keeper.locator("#id_meld_0").fill("24")

    watch_totals(watcher, "#board .points")
    watch_totals(other_keeper, "#scoreboard .points")
    delays: dict[str, list[float]] = {"scoreboard link": [], "other scorekeeper": []}
    for hand in range(1, 4):
        enter_hand(keeper)
        tapped_ms = keeper.evaluate("Date.now()")  # one browser, one clock for all three phones
        keeper.get_by_role("button", name="Record hand").click()
        expected = [str(25 * hand), str(15 * hand)]
        delays["scoreboard link"].append(seconds_until_totals(watcher, expected, tapped_ms))
        delays["other scorekeeper"].append(seconds_until_totals(other_keeper, expected, tapped_ms))
        expect(keeper.locator("#scoreboard .points")).to_have_text(expected)
        expect(watcher.locator(".next-deal")).to_contain_text(f"Hand {hand + 1}")

    expect(other_keeper.locator("#id_meld_0")).to_have_value("24")  # still what was typed
    expect(other_keeper.locator("#live-game")).to_contain_text(
        "Updated from another phone. The form below is for hand 1, but the next hand is 4."
    )
    expect(other_keeper.locator("#hands tbody tr")).to_have_count(3)
    expect(watcher.locator(".recent-hands tbody tr")).to_have_count(3)
    expect(watcher.locator("form")).to_have_count(0)  # read-only: no undo, no log out
    assert watcher.evaluate("window.stillTheSamePage") is True
    assert errors == [[], [], []]

    measured = {
        where: {
            "samples": [round(d, 3) for d in ds],
            "p50": round(statistics.median(ds), 3),
            "max": round(max(ds), 3),
        }
        for where, ds in delays.items()
    }
    report = {"promised_seconds": PROMISED_SECONDS, **measured}
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "live-delay.json").write_text(json.dumps(report, indent=2))
    print(f"\nlive update delay, tap to other phone (s): {json.dumps(report)}")

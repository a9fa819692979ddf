"""axe-core on the main pages, light and dark, at 375×812: no serious or critical violation.

axe-core is vendored (tests/browser/vendor/axe-core, from its npm package): no CDN, no network.
Each page is screenshotted into ``test-results/screenshots/`` (gitignored, kept by CI) on every run,
and every violation of any impact is written to ``test-results/axe.json`` for a person to read.
"""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorepad.selectors.club_director import standings_token_of
from scorepad.selectors.puzzles import shipped
from scorepad.services.practice import practice_start
from scorepad.services.scoreboards import scoreboard_link_create
from scorepad.services.seasons import event_season_set, season_create
from tests.helpers import watch_console, with_session
from tests.sample_games import (
    CLASSIC_WON,
    DOUBLE_DECK_SET,
    club_night,
    import_game,
    make_household,
    make_user,
)
from tests.services.test_practice import play_out_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
RESULTS = Path(__file__).resolve().parents[2] / "test-results"
SHOTS = RESULTS / "screenshots"
BLOCKING = {"serious", "critical"}


def page_urls(live_server) -> dict[str, tuple[str, bool]]:
    """name: (URL, seen logged in), for every main page, with games that have hands."""
    ann = make_user("ann")
    household = make_household(ann)
    playing = import_game(household, DOUBLE_DECK_SET, ("Ann", "Bo", "Cy", "Di"))
    won = import_game(household, CLASSIC_WON, ("Ann", "Bo", "Cy", "Di"))
    token = scoreboard_link_create(game=playing, user=ann).token
    practice = practice_start(user=ann, variant_id="classic", seed=1)
    played = play_out_hand(practice_start(user=ann, variant_id="classic", seed=4))
    table_hand = club_night(household, ann)
    event, table = table_hand.table.round.event, table_hand.table
    season = season_create(household=household, name="Autumn")
    event_season_set(event=event, version=event.version, season=season)
    puzzle = shipped("six-handed")[0].key
    base, h = live_server.url, household.pk
    return {
        "home": (f"{base}/", False),
        "login": (f"{base}/accounts/login/", False),
        "signup": (f"{base}/accounts/signup/", False),
        "meld-calculator": (f"{base}/meld/?variant=classic&trump=H&cards=AH+TH+KH+QH+JH+9H+KS+QS", False),
        # a hand of twelve: every key it can't take any more is dimmed, and must still read at AA
        "meld-calculator-full": (
            f"{base}/meld/?variant=classic&trump=S&cards=AS+TS+KS+QS+JS+9S+9H+9D+JC+TC+9C+QH",
            False,
        ),
        "scoreboard": (f"{base}/s/{token}/", False),
        "scoreboard-big": (f"{base}/s/{token}/?big=1", False),
        "offline": (f"{base}/offline/", False),
        "households": (f"{base}/", True),
        "household": (f"{base}/households/{h}/", True),
        "new-game": (f"{base}/households/{h}/games/new/?variant=classic", True),
        "game": (f"{base}/games/{playing.pk}/", True),
        "game-over": (f"{base}/games/{won.pk}/", True),
        "hand-correction": (f"{base}/games/{playing.pk}/hands/0/edit/", True),
        "share-scoreboard": (f"{base}/games/{playing.pk}/share/", True),
        "history": (f"{base}/households/{h}/games/", True),
        "statistics": (f"{base}/households/{h}/statistics/", True),
        "import": (f"{base}/households/{h}/import/", True),
        "practice": (f"{base}/practice/", True),
        "practice-game": (f"{base}/practice/{practice.pk}/", True),
        "practice-review": (f"{base}/practice/{played.pk}/hands/0/review/", True),
        "practice-step": (f"{base}/practice/{played.pk}/hands/0/step/?trick=3", True),
        "daily": (f"{base}/daily/", False),
        "puzzles": (f"{base}/puzzles/", False),
        "puzzle": (f"{base}/puzzles/{puzzle}/", False),
        "club-event": (f"{base}/club/{event.pk}/", True),
        "club-director": (f"{base}/club/{event.pk}/director/", True),
        "club-table-pin": (f"{base}/club/t/{table.token}/", False),
        "club-standings-big": (f"{base}/club/s/{standings_token_of(event)}/?big=1", False),
        "club-seasons": (f"{base}/households/{h}/club/seasons/", True),
        "club-season": (f"{base}/club/seasons/{season.pk}/", True),
    }, ann


def axe_violations(page: Page) -> list[dict]:
    page.evaluate(AXE)  # evaluated by the DevTools protocol, so the page's CSP does not refuse it
    return page.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then((result) => result.violations.map((v) =>"
        " ({id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' '))})))"
    )


SCHEMES = ("light", "dark")


def in_each_scheme(page: Page) -> Iterator[str]:
    """The page loaded once, shown in light then in dark colours (the phone's own setting)."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        yield scheme


def test_main_pages_have_no_serious_accessibility_violations(live_server, new_phone):
    """Every main page, light and dark: axe finds nothing serious."""
    urls, ann = page_urls(live_server)
    contexts = {False: new_phone(), True: with_session(new_phone(), live_server, ann)}
    SHOTS.mkdir(parents=True, exist_ok=True)

    found: dict[str, dict[str, list[dict]]] = {scheme: {} for scheme in SCHEMES}
    for name, (url, logged_in) in urls.items():
        page = contexts[logged_in].new_page()
        errors = watch_console(page)
        page.goto(url)
        for scheme in in_each_scheme(page):
            found[scheme][name] = axe_violations(page)
            # caret="initial": hiding the caret injects a style tag, which the CSP (rightly) refuses.
            page.screenshot(path=SHOTS / f"{name}-{scheme}.png", full_page=True, caret="initial")
        assert errors == [], (name, errors)
        page.close()

    for scheme in SCHEMES:
        (RESULTS / f"axe-{scheme}.json").write_text(json.dumps(found[scheme], indent=2))
    blocking = {
        f"{name}-{scheme}": [v for v in violations if v["impact"] in BLOCKING]
        for scheme in SCHEMES
        for name, violations in found[scheme].items()
    }
    assert {name: v for name, v in blocking.items() if v} == {}


def test_help_pages_have_no_serious_accessibility_violations(live_server, new_phone):
    """Every help page, as a visitor reads it at 375×812, light and dark: axe finds nothing
    serious, nothing is wider than the phone."""
    from scorepad.views.help import HELP_TOPICS

    phone = new_phone()
    SHOTS.mkdir(parents=True, exist_ok=True)
    found: dict[str, list[dict]] = {}
    for path in ["/help/", *(f"/help/{topic.slug}/" for topic in HELP_TOPICS)]:
        page = phone.new_page()
        errors = watch_console(page)
        page.goto(live_server.url + path)
        name = "help-" + (path.strip("/").split("/")[-1] if path != "/help/" else "index")
        for scheme in in_each_scheme(page):
            found[f"{name}-{scheme}"] = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
            page.screenshot(path=SHOTS / f"{name}-{scheme}.png", full_page=True, caret="initial")
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, (name, scheme)
        assert errors == [], (name, errors)
        page.close()

    assert {name: v for name, v in found.items() if v} == {}


def tab_to(page: Page, selector: str, presses: int = 40) -> None:
    """Press Tab until the focused element matches ``selector``, as a keyboard user would."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement.matches(selector)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_hand_is_recorded_with_the_keyboard_alone(live_server, new_phone):
    ann = make_user("ann")
    game = import_game(make_household(ann), {"variant": "classic", "hands": []}, ("Ann", "Bo", "Cy", "Di"))
    page = with_session(new_phone(is_mobile=False, has_touch=False), live_server, ann).new_page()
    page.goto(f"{live_server.url}/games/{game.pk}/")

    page.keyboard.press("Tab")  # the first stop skips the top bar
    skip = page.get_by_role("link", name="Skip to the page")
    expect(skip).to_be_focused()
    assert skip.bounding_box()["y"] >= 0  # shown while focused
    page.keyboard.press("Enter")
    tab_to(page, "input[name=bidder]")
    page.keyboard.press("Space")  # Ann, the first seat
    tab_to(page, "input[name=trump]")
    page.keyboard.press("ArrowRight")  # spades, then hearts
    outline = page.evaluate("getComputedStyle(document.activeElement.nextElementSibling).outlineStyle")
    tab_to(page, "#id_tricks_0")
    page.keyboard.type("15")  # complete (no third digit fits in 25), but Tab, not the page, moves on
    expect(page.locator("#id_tricks_0")).to_be_focused()
    tab_to(page, "#id_meld_0")
    page.keyboard.type("10")
    tab_to(page, "#id_meld_1")
    page.keyboard.type("5")
    page.keyboard.press("Enter")  # the last box: submits the form as "Record hand", not the bid stepper's −

    expect(page.locator("#scoreboard .points")).to_have_text(["25", "15"])
    expect(page.locator(".last-hand")).to_contain_text("Ann bid 20")
    assert outline != "none"  # the chosen suit showed where the focus was

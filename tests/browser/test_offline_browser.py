"""A dropped connection loses nothing: hands recorded with no signal wait on the phone, survive a
reload (the game page opens from the phone's copy), and are stored exactly once when it returns."""

import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, expect

from scorepad.engine.cards import SUITS
from scorepad.engine.scoring import HandEntry, RecordError, score_hand, took_tricks, validate_hand
from scorepad.engine.variants import Settings, Variant, get_variant
from scorepad.forms.games import HandForm
from scorepad.models import Hand
from scorepad.services.games import hand_record
from tests.helpers import PASSWORD, log_in_page
from tests.sample_games import import_game, make_household

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# classic, one hand played: Ann & Cy 31, Bo & Di 21.
ONE_HAND = {
    "variant": "classic",
    "settings": {},
    "hands": [{"bidder": 0, "bid": 30, "trump": "H", "meld": [18, 9], "tricks": [13, 12]}],
}


@pytest.fixture
def game(django_user_model):
    user = django_user_model.objects.create_user(username="ann", password=PASSWORD)
    return import_game(make_household(user), ONE_HAND, ("Ann", "Bo", "Cy", "Di"))


def unexpected(errors: list[str]) -> list[str]:
    """Console errors other than the network's own: a request with no connection, the 409 of a conflict."""
    return [error for error in errors if "ERR_INTERNET_DISCONNECTED" not in error and "409" not in error]


# The game pages in the worker's caches, by address.
KEPT_GAME_PAGES = (
    "caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name)"
    ".then((cache) => cache.keys())))).then((lists) => lists.flat().map((request) => request.url)"
    ".filter((url) => /\\/games\\/[0-9]+\\/$/.test(url)))"
)


def kept_game_pages(page: Page) -> list[str]:
    return page.evaluate(KEPT_GAME_PAGES)


def under_the_worker(page: Page, url: str) -> None:
    """The worker is in control and has kept the game page (it keeps the pages it serves)."""
    page.wait_for_function(
        "() => navigator.serviceWorker.controller !== null"
    )  # a function: an expression is eval()ed, which the CSP refuses
    page.goto(url)  # this time through the worker, which keeps a copy
    page.wait_for_function(
        "(url) => caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name)"
        ".then((cache) => cache.match(url))))).then((found) => found.some(Boolean))",
        arg=url,
    )


def enter_hand(page: Page, bidder: str, bid: int, suit: str, tricks_0: int, meld: tuple[int, int]) -> None:
    page.locator("#hand-form .seat", has_text=re.compile(rf"^{bidder}")).click()
    page.locator("#id_bid").fill(str(bid))
    page.locator("#hand-form .suit", has_text=suit).click()
    page.locator("#id_tricks_0").fill(str(tricks_0))
    page.locator("#id_meld_0").fill(str(meld[0]))
    page.locator("#id_meld_1").fill(str(meld[1]))
    page.get_by_role("button", name="Record hand").click()


def test_hands_recorded_offline_wait_survive_a_reload_and_are_stored_once_back_online(
    live_server, page: Page, game
):
    errors = log_in_page(page, live_server.url)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    under_the_worker(page, url)
    expect(page.locator("#hand-form h2")).to_have_text("Hand 2")

    page.context.set_offline(True)
    # The bid stepper steps on the phone (classic: from 20, by 1), with no "could not reach" banner.
    page.get_by_role("button", name="Raise the bid").click()
    page.get_by_role("button", name="Raise the bid").click()
    page.get_by_role("button", name="Lower the bid").click()
    expect(page.locator("#id_bid")).to_have_value("21")
    expect(page.locator("#request-error")).to_be_hidden()
    # Ann bids 30 in hearts: Ann & Cy take 15 + 20 meld = 35, made; Bo & Di 10 + 6.
    enter_hand(page, "Ann", 30, "hearts", 15, (20, 6))
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox.locator(".outbox-hand")).to_have_count(1)
    expect(outbox).to_contain_text("Hand 2: Ann bid 30 ♥ hearts")
    expect(outbox).to_contain_text("waiting to send")
    expect(page.locator("#hand-form h2")).to_have_text("Hand 3")  # the form moved on by itself
    # Bo bids 25 in spades: Bo & Di take 5 + 12 meld = 17, set; Ann & Cy 20 + 4.
    enter_hand(page, "Bo", 25, "spades", 20, (4, 12))
    expect(outbox.locator(".outbox-hand")).to_have_count(2)
    totals = "Totals once sent (provisional): Ann & Cy 90 · Bo & Di 12"
    expect(outbox.locator(".outbox-totals")).to_have_text(totals)

    # A reload with no connection: the game page from the phone's copy, both hands still waiting.
    page.reload()
    expect(page.locator("#scoreboard")).to_be_visible()
    expect(outbox.locator(".outbox-hand")).to_have_count(2)
    expect(outbox.locator(".outbox-hand").nth(0)).to_contain_text("Hand 2: Ann bid 30")
    expect(outbox.locator(".outbox-hand").nth(1)).to_contain_text("Hand 3: Bo bid 25")
    expect(page.locator("#hand-form h2")).to_have_text("Hand 4")
    assert game.hands.count() == 1  # nothing reached the server

    page.context.set_offline(False)
    # Once both are sent the page comes back as the server has it, the outbox empty.
    expect(page.locator("#hands tbody tr")).to_have_count(3, timeout=15_000)
    expect(outbox).to_be_hidden()
    expect(page.locator("#scoreboard .points")).to_have_text(["90", "12"])  # as provisionally shown
    hands = list(Hand.objects.filter(game=game).order_by("number").values_list("number", "bid", "entry_key"))
    assert [(number, bid) for number, bid, _ in hands] == [(0, 30), (1, 30), (2, 25)]
    keys = [key for _, _, key in hands[1:]]
    assert all(keys)
    assert keys[0] != keys[1]  # each sent with its own key, each stored once
    assert unexpected(errors) == []

    # Logging out drops the phone's copies of game pages: the next person here finds none offline.
    assert kept_game_pages(page)
    page.get_by_role("button", name="Log out").click()
    page.wait_for_function(f"() => ({KEPT_GAME_PAGES}).then((pages) => pages.length === 0)")


def test_a_hand_another_phone_recorded_meanwhile_is_shown_beside_this_phones_never_merged(
    live_server, page: Page, game
):
    errors = log_in_page(page, live_server.url)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    under_the_worker(page, url)

    page.context.set_offline(True)
    enter_hand(page, "Ann", 30, "hearts", 15, (20, 6))
    expect(page.locator("#outbox")).to_contain_text("waiting to send")
    # Meanwhile the other phone, still online, records hand 2 its own way.
    other = {"bidder": 1, "bid": 25, "trump": "S", "meld": [4, 12], "tricks": [20, 5]}
    hand_record(game=game, number=1, data=other, entry_key="other-phone-0001")

    page.context.set_offline(False)
    conflict = page.locator("#outbox .outbox-hand.conflict")
    expect(conflict).to_contain_text("Hand 2 was recorded on another phone", timeout=15_000)
    expect(conflict.locator(".conflict-stored")).to_have_text(
        "Bo bid 25 ♠ spades · Ann & Cy: meld 4, trick points 20; Bo & Di: meld 12, trick points 5"
    )
    expect(conflict.locator(".conflict-yours")).to_have_text(
        "Ann bid 30 ♥ hearts · Ann & Cy: meld 20, trick points 15; Bo & Di: meld 6, trick points 10"
    )
    assert list(game.hands.values_list("number", "entry_key")) == [(0, None), (1, "other-phone-0001")]

    # A deliberate tap records this phone's hand after the other one; nothing else changed.
    page.get_by_role("button", name="Record mine as hand 3").click()
    expect(page.locator("#hands tbody tr")).to_have_count(3, timeout=15_000)
    expect(page.locator("#outbox")).to_be_hidden()
    hands = list(game.hands.order_by("number").values_list("number", "bidder", "bid"))
    assert hands == [(0, 0, 30), (1, 1, 25), (2, 0, 30)]
    assert unexpected(errors) == []


# ---- the provisional score is score_hand's ---------------------------------------------------------

PROVISIONAL = Path(__file__).resolve().parents[2] / "static" / "js" / "provisional.js"
TABLES = [
    ("classic", {}),
    ("classic", {"set_penalty": "double_bid", "meld_requires_trick": True, "bidder_may_concede": True}),
    ("double-deck", {}),
    ("double-deck", {"rule_of_20": None, "forfeit_opponents": "meld20+50", "bidder_may_concede": True}),
    ("double-deck", {"bidders_short_meld_play_out": True, "forfeit_opponents": "nothing"}),
    ("six-handed", {"set_penalty": "double_bid", "rule_of_20": [30, 10]}),
]


def random_hands(variant: Variant, settings: Settings, seed: int, count: int = 60) -> list[HandEntry]:
    """``count`` hands the rules accept, of every kind: made, set, forfeit, thrown in before play."""
    rng = random.Random(seed)
    sides, total = len(variant.sides), variant.trick_points_total(settings)
    unit, meld_unit = variant.trick_unit(settings), variant.meld_unit
    hands: list[HandEntry] = []
    for _ in range(20_000):
        tricks = None
        if rng.random() < 0.8:
            cuts = sorted(rng.randint(0, total // unit) * unit for _ in range(sides - 1))
            tricks = [high - low for low, high in zip([0, *cuts], [*cuts, total], strict=True)]
        data = {
            "bidder": rng.randrange(variant.seats),
            "bid": settings.min_bid + rng.randrange(0, 12) * settings.next_bid_step(settings.min_bid),
            "trump": rng.choice([*SUITS, None]) if rng.random() < 0.3 else rng.choice(list(SUITS)),
            "meld": [rng.randrange(0, 12) * meld_unit * rng.choice([1, 2, 5]) for _ in range(sides)],
            "tricks": tricks,
        }
        try:
            entry = HandEntry.from_json(data, 0)
        except RecordError:
            continue
        if not validate_hand(variant, settings, entry):
            hands.append(entry)
        if len(hands) == count:
            return hands
    raise AssertionError(f"only {len(hands)} hands the rules accept")


def as_outbox_hand(variant: Variant, entry: HandEntry) -> dict:
    """A hand as static/js/outbox.js reads it from the form."""
    sides = len(entry.meld)
    return {
        "side": variant.side_of(entry.bidder),
        "bid": entry.bid,
        "trump": "" if entry.trump is None else str(entry.trump),  # the form sends a letter
        "meld": list(entry.meld),
        "tricks": None if entry.tricks is None else list(entry.tricks),
        "took": list(took_tricks(entry)) if entry.tricks is not None else [False] * sides,
    }


@pytest.mark.parametrize(("variant_id", "overrides"), TABLES)
def test_the_provisional_score_of_a_kept_hand_is_the_servers(page: Page, variant_id, overrides):
    variant = get_variant(variant_id)
    settings = variant.settings(overrides)
    sides = len(variant.sides)
    form = HandForm(
        variant=variant,
        settings=settings,
        players=[SimpleNamespace(name=f"P{seat}") for seat in range(variant.seats)],
        side_names=[f"S{side}" for side in range(sides)],
    )
    hands = random_hands(variant, settings, seed=len(variant_id) + len(overrides))
    page.set_content("<!doctype html><title>provisional</title>")
    page.add_script_tag(path=str(PROVISIONAL))
    provisional = page.evaluate(
        "([rules, hands]) => hands.map((hand) => PinochleProvisional.scores(JSON.parse(rules), hand))",
        [form.offline_rules, [as_outbox_hand(variant, entry) for entry in hands]],
    )
    assert provisional == [list(score_hand(variant, settings, entry).scores) for entry in hands]

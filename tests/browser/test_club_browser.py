"""A club table's phone at 375×812 through a round: the PIN, the clock counting down, a hand entered
and countersigned, a hand disputed, and a hand entered with no signal kept on the phone and stored
once when the connection returns; the room's big screen showing a confirmed hand brought by its
event stream, with no reload, and holding 40 teams or 60 players with the round's clock and its
last update in view; and thumb-sized links and labels on the phone and the director's pages."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from scorepad.models import ClubEvent, ClubRound, ClubTable, TableHand
from scorepad.selectors.club_director import standings_token_of
from scorepad.services.clubs import entrant_check_in, round_start
from scorepad.services.households import household_create
from tests.sample_games import club_event, numbered_pairs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(django_user_model):
    director = django_user_model.objects.create_user(username="dee")
    household = household_create(user=director, name="The club")
    # seated Ann, Bo, Cy, Di: Ann & Cy against Bo & Di
    event = club_event(household, director, pairs=[["Ann", "Cy"], ["Bo", "Di"]], started=True)
    ClubRound.objects.filter(event=event).update(ends_at=timezone.now() + timedelta(minutes=20))
    return ClubTable.objects.get(round__event=event)


def enter_hand(page: Page, bidder: str, bid: int, suit: str, tricks_0: int, meld: tuple[int, int]) -> None:
    page.locator("#hand-form .seat", has_text=re.compile(rf"^{bidder}")).click()
    page.locator("#id_bid").fill(str(bid))
    page.locator("#hand-form .suit", has_text=suit).click()
    page.locator("#id_tricks_0").fill(str(tricks_0))
    page.locator("#id_meld_0").fill(str(meld[0]))
    page.locator("#id_meld_1").fill(str(meld[1]))
    page.get_by_role("button", name="Record hand").click()


def test_a_table_phone_plays_a_round_countersigns_disputes_and_keeps_a_hand_through_no_signal(
    live_server, page: Page, table
):
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(live_server.url + reverse("club_table", args=[table.token]))
    page.get_by_label("Table PIN").fill(table.pin)
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("h1")).to_contain_text("Table 1")

    clock = page.locator(".clock-left")
    expect(clock).to_have_text(re.compile(r"^(19:5\d|20:00) left$"))
    first = clock.text_content()
    expect(clock).not_to_have_text(first or "", timeout=3_000)  # clock.js counts down

    # Hand 1: Ann bids 25 in hearts and makes it; Bo & Di, reading it here, countersign.
    enter_hand(page, "Ann", 25, "hearts", 15, (20, 6))
    hand_1 = page.locator("#hand-1")
    expect(hand_1).to_contain_text("waiting for the other side to confirm")
    hand_1.get_by_role("button", name=re.compile("^Countersign")).click()
    expect(page.locator("#hand-1")).to_contain_text("confirmed")

    # Hand 2: Bo & Di say the meld was wrong: disputed, for the director.
    enter_hand(page, "Bo", 21, "spades", 15, (4, 12))
    page.locator("#hand-2").get_by_label("What is wrong?").fill("Bo melded 20, not 12")
    page.locator("#hand-2").get_by_role("button", name="Dispute").click()
    expect(page.locator("#hand-2")).to_contain_text("disputed: marked for the director")
    expect(page.locator("#hand-2")).to_contain_text("Bo melded 20, not 12")

    # Hand 3 with no signal: kept on the phone, then sent once when the connection is back.
    page.context.set_offline(True)
    enter_hand(page, "Cy", 22, "clubs", 12, (10, 4))
    outbox = page.locator("#outbox")
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("waiting to send")
    assert table.game.hands.count() == 2  # nothing reached the server
    page.context.set_offline(False)
    expect(page.locator("#hand-3")).to_contain_text("waiting for the other side", timeout=15_000)
    expect(outbox).to_be_hidden()

    hands = list(table.game.hands.order_by("number").values_list("number", "bid", "entry_key"))
    assert [(number, bid) for number, bid, _ in hands] == [(0, 25), (1, 21), (2, 22)]
    assert TableHand.objects.filter(table=table).count() == 3  # each hand once, one table hand each
    states = dict(TableHand.objects.filter(table=table).values_list("hand__number", "state"))
    assert states == {0: "confirmed", 1: "disputed", 2: "entered"}
    assert [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


def test_the_rooms_big_screen_shows_a_confirmed_hand_without_a_reload(
    live_server, page: Page, table, new_phone
):
    screen = new_phone(viewport={"width": 1280, "height": 720}).new_page()
    asked: list[str] = []
    screen.on("request", lambda request: asked.append(request.url))
    screen.goto(
        live_server.url + reverse("club_standings_live", args=[standings_token_of(table.round.event)])
    )
    standings = screen.locator("#live-standings")
    expect(standings).to_contain_text("round 1 being played")
    screen.evaluate("window.sameScreen = true")  # gone if the page were loaded again

    page.goto(live_server.url + reverse("club_table", args=[table.token]))
    page.get_by_label("Table PIN").fill(table.pin)
    page.get_by_role("button", name="Open the table").click()
    enter_hand(page, "Ann", 25, "hearts", 15, (20, 6))
    page.locator("#hand-1").get_by_role("button", name=re.compile("^Countersign")).click()
    expect(page.locator("#hand-1")).to_contain_text("confirmed")

    expect(standings.locator("tr", has_text="Ann").locator("td.num")).to_have_text("35", timeout=10_000)
    assert screen.evaluate("window.sameScreen") is True
    assert any(url.endswith("/events/") for url in asked)  # brought by the stream...
    assert not [url for url in asked if "since=" in url]  # ...not by a poll every second


SMALL_TARGETS = """() => [...document.querySelectorAll('main a, main label, main summary')]
    .filter(el => el.offsetParent !== null && !el.closest('#hand-form'))
    .map(el => [el.textContent.trim().slice(0, 40), el.getBoundingClientRect().height])
    .filter(([, height]) => height < 44)"""


def test_links_and_labels_are_thumb_sized_on_the_table_phone_and_the_directors_pages(
    live_server, page: Page, table
):
    page.goto(live_server.url + reverse("club_table", args=[table.token]))
    assert page.evaluate(SMALL_TARGETS) == []  # the PIN page
    page.get_by_label("Table PIN").fill(table.pin)
    page.get_by_role("button", name="Open the table").click()
    enter_hand(page, "Ann", 25, "hearts", 15, (20, 6))
    expect(page.locator("#hand-1")).to_be_visible()
    assert page.evaluate(SMALL_TARGETS) == []  # the table, a hand waiting to be confirmed
    director = Client()
    director.force_login(table.round.event.director)
    page.context.add_cookies(
        [{"name": "sessionid", "value": director.cookies["sessionid"].value, "url": live_server.url}]
    )
    event_id = table.round.event_id
    for name in ("club_event", "club_director", "club_tables", "club_final"):
        page.goto(live_server.url + reverse(name, args=[event_id]))
        assert page.evaluate(SMALL_TARGETS) == [], name


FITS = """() => {
    const view = {width: window.innerWidth, height: window.innerHeight};
    const inView = el => {
        const box = el.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= view.height && box.right <= view.width + 1;
    };
    const rows = [...document.querySelectorAll('#live-standings tbody tr')];
    const cells = [...document.querySelectorAll('#live-standings td, #live-standings th')];
    return {
        scrolls: document.scrollingElement.scrollHeight > view.height + 1
            || document.scrollingElement.scrollWidth > view.width + 1,
        rows: rows.length,
        rowsInView: rows.filter(inView).length,
        cellsOut: cells.filter(cell => !inView(cell)).map(cell => cell.textContent).slice(0, 5),
        smallestText: Math.min(...rows.map(row => parseFloat(getComputedStyle(row).fontSize))),
        title: inView(document.querySelector('#live-standings h1')),
        clock: inView(document.querySelector('#live-standings .clock-left')),
        updated: inView(document.querySelector('#live-standings .updated')),
    };
}"""


@pytest.mark.parametrize(
    ("kind", "entrants", "width", "height"),
    [
        ("teams", 40, 1280, 720),
        ("teams", 40, 1920, 1080),
        ("six-handed", 60, 1280, 720),
        ("teams", 14, 1280, 720),  # nearly the most rows one column takes: its type sized by the height too
        ("teams", 14, 1920, 1080),
    ],
)
def test_the_rooms_screen_holds_a_big_field_with_the_round_its_clock_and_the_last_update(
    live_server, new_phone, django_user_model, kind, entrants, width, height
):
    director = django_user_model.objects.create_user(username="dee")
    household = household_create(user=director, name="The club")
    if kind == "teams":
        event = club_event(household, director, pairs=numbered_pairs(entrants), started=True)
    else:
        event = club_event(household, director, format=kind, variant_id="six-handed", rounds=2)
        for n in range(entrants):
            fresh = ClubEvent.objects.get(pk=event.pk)
            entrant_check_in(event=fresh, version=fresh.version, newcomers=[f"Player {n + 1}"])
        fresh = ClubEvent.objects.get(pk=event.pk)
        round_start(event=fresh, version=fresh.version)
    ClubRound.objects.filter(event=event).update(ends_at=timezone.now() + timedelta(minutes=20))
    screen = new_phone(viewport={"width": width, "height": height}).new_page()
    screen.goto(live_server.url + reverse("club_standings_live", args=[standings_token_of(event)]) + "?big=1")
    expect(screen.locator(".clock-left")).to_have_text(re.compile(r"^(19:5\d|20:00) left$"))
    fits = screen.evaluate(FITS)
    assert fits["rows"] == entrants
    assert fits["rowsInView"] == entrants, fits
    assert not fits["scrolls"], fits
    assert fits["cellsOut"] == [], fits
    assert fits["smallestText"] >= 16, fits  # read from across a room
    assert fits["title"], fits
    assert fits["clock"], fits
    assert fits["updated"], fits

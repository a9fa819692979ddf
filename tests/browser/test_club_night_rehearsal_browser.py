"""A whole club night rehearsed in the browser, as a director runs it: the event made on its form
(a fixed number of hands a round, the ranking rule), round after round started and closed on the
director's page, one phone per table on the table card's link and PIN (375×812 and 320×568 in
turn), every hand entered by a side and countersigned by the opponents on the same phone, one
hand disputed and settled on the director's page, one table locked by wrong PINs and unlocked on
the tables page, and the room's screen at 1920×1080 holding everyone with the round, the last
update and the ranking rule. The final standings are checked against a tally made here from the
hands entered (RULES.md §1.7, the stay-and-move rule, the ranking rule), never by the app's scorer.

Check-in is done by the service: its page is walked by ``tests/test_club_event_proof.py`` and
``tests/views/test_clubs.py``.

The suite plays 3 tables for 3 rounds of one hand in each movement. ``CLUB_REHEARSAL=full`` plays
the full night instead, 10 tables for 6 rounds of two hands (20 teams; 40 players), and prints
its wall time (run it with ``-s``):

    CLUB_REHEARSAL=full .venv/bin/pytest tests/browser/test_club_night_rehearsal_browser.py -n0 -s
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scorepad.models import ClubEvent, ClubTable
from scorepad.selectors.club_director import standings_token_of
from scorepad.services.clubs import entrant_check_in
from scorepad.services.households import household_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FULL = os.environ.get("CLUB_REHEARSAL") == "full"
TABLES, ROUNDS = (10, 6) if FULL else (3, 3)
HANDS = 2 if FULL else 1  # a round ends after this many hands at each table
LOCKED_TABLE = 2  # its phone types wrong PINs until it is locked out, and the director unlocks it
DISPUTE = (2, 1)  # (round, table) where the opponents dispute the first hand
PHONES = ({"width": 375, "height": 812}, {"width": 320, "height": 568})
SCREEN = {"width": 1920, "height": 1080}
DEADLINE = 30_000  # ms: a phone follows the round within a second or two (poll made 1 s here)

NAMES = (
    "Ann Abbott", "Bo Baker", "Cy Clark", "Di Dunn", "Ed Evans", "Flo Ford", "Gus Gray", "Hal Hill",
    "Ida Irwin", "Jo James", "Kay King", "Lu Lane", "Max Moss", "Ned Nash", "Olga Owen", "Pat Page",
    "Quin Quay", "Roy Reed", "Sue Shaw", "Tom Todd", "Uma Usher", "Val Vane", "Wes Webb", "Xia Xu",
    "Yan Young", "Zoe Zane", "Abe Ames", "Bea Bell", "Cal Cope", "Dot Dean", "Eli Eden", "Fay Fox",
    "Gil Gage", "Hope Hale", "Ivo Ince", "Jan Jory", "Kit Kemp", "Lea Lord", "Mo Mann", "Nia Noon",
)  # fmt: skip
SUITS = (("H", "♥", "hearts"), ("S", "♠", "spades"), ("D", "♦", "diamonds"), ("C", "♣", "clubs"))
SEATS = {"teams": ("North–South", "East–West"), "progressive": ("North", "East", "South", "West")}
COUNTERS = 25  # RULES.md §1.6: 24 counters and the last trick
CARD_CODE = re.compile(r"\b(?:[AKQJT9]|10)[SHDC]\b")  # what a page never shows a player: TH, AS


# ---- the hands played, and the tally written here (RULES.md §1.7) ----------------------------------


@dataclass(frozen=True)
class Hand:
    bidder: int  # a seat, 0–3 clockwise from North
    bid: int
    suit: int  # index in SUITS
    bidders_tricks: int  # counter points the bidding side took, last trick included
    meld: tuple[int, int]  # by side: North–South, East–West

    @property
    def side(self) -> int:
        return self.bidder % 2

    @property
    def tricks(self) -> tuple[int, int]:
        other = COUNTERS - self.bidders_tricks
        return (self.bidders_tricks, other) if self.side == 0 else (other, self.bidders_tricks)

    @property
    def scores(self) -> tuple[int, int]:
        """Both sides took a trick in every hand here, so both keep their meld; the bidders score
        meld and counters if they reach the bid, else lose the bid; the opponents score theirs."""
        totals = [self.meld[side] + self.tricks[side] for side in (0, 1)]
        if totals[self.side] < self.bid:
            totals[self.side] = -self.bid
        return totals[0], totals[1]


def hand_for(round_number: int, table: int, number: int) -> Hand:
    """An easy hand to count: made (bid 21–25, 15 counters and at least 10 meld) or set (bid 30–32,
    8 counters and at most 9 meld), the bidder going round the table, the meld varying by table
    and round."""
    seat = (table + round_number + number) % 4
    suit = (table + number) % 4
    if seat < 2:  # North and East make their bids, South and West go set
        meld = 10 + (3 * table + round_number) % 7, 2 * ((table + round_number) % 5)
        bid, tricks = 21 + table % 5, 15
    else:
        meld = 4 + table % 6, (table * round_number) % 9
        bid, tricks = 30 + round_number % 3, 8
    return Hand(seat, bid, suit, tricks, meld if seat % 2 == 0 else (meld[1], meld[0]))


def expected_seats(round_number: int) -> dict[int, list[int]]:
    """Teams, stay and move: team t sits North–South at table t all night; team TABLES + 1 + j sits
    East–West at table (j + round − 1) mod TABLES + 1."""
    seats = {}
    for j in range(TABLES):
        table = (j + round_number - 1) % TABLES + 1
        seats[table] = [table, TABLES + 1 + j]
    return seats


def rank_rows(records: dict[int, tuple]) -> list[tuple[str, int]]:
    """Best record first, equal records in entrant order, competition ranks (1, 2, 2, 4) with "="."""
    order = sorted(records, key=lambda entrant: (tuple(-v for v in records[entrant]), entrant))
    rows = []
    for entrant in order:
        first = next(i for i, other in enumerate(order) if records[other] == records[entrant])
        tied = sum(records[other] == records[entrant] for other in order) > 1
        rows.append((f"{first + 1}{'=' if tied else ''}", entrant))
    return rows


def matchpoints_words(value: Fraction) -> str:
    whole, half = divmod(value * 2, 2)
    return f"{int(whole) or ''}½" if half else str(int(whole))


# ---- the people ------------------------------------------------------------------------------------


@dataclass
class Night:
    kind: str
    event: ClubEvent
    director: Page
    screen: Page
    phones: dict[int, Page]
    cards: dict[int, tuple[str, str]]  # table: (link, PIN), as printed on its card
    names: dict[int, str]  # entrant number: what the tables call it ("Team 3", "Ann Abbott")
    players: dict[int, str]  # entrant number: its players ("Ann Abbott & Bo Baker")
    points: dict[int, dict[int, tuple[int, bool]]]  # entrant: round: (points, won)
    partners: set[frozenset[int]]  # progressive: the pairs who partnered so far


def signed_in(context: BrowserContext, live_server, user) -> None:
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])


def create_event(director: Page, live_server, household, kind: str) -> ClubEvent:
    """The director's event form: the format, the rounds, a fixed number of hands, the ranking."""
    director.goto(live_server.url + reverse("club_event_new", args=[household.pk]))
    director.get_by_label("Name").fill(f"Friday {kind}")
    director.get_by_label("Teams (fixed" if kind == "teams" else "Progressive (partners").check()
    director.get_by_label("Rounds").fill(str(ROUNDS))
    director.get_by_label("A round ends").select_option(label="A fixed number of hands")
    director.get_by_label("Hands a round").fill(str(HANDS))
    ranking = "Rounds won, then total points" if kind == "teams" else "Matchpoints"
    director.get_by_label("The standings rank by").select_option(
        label=next(label for value, label in ClubEvent.Ranking.choices if label.startswith(ranking))
    )
    director.get_by_role("button", name="Create the event").click()
    expect(director.locator("h1")).to_have_text(f"Friday {kind}")
    event = ClubEvent.objects.get(name=f"Friday {kind}")
    assert (event.round_end, event.hands_per_round) == (ClubEvent.RoundEnd.HANDS, HANDS)
    return event


def check_in(event: ClubEvent, kind: str) -> tuple[dict[int, str], dict[int, str]]:
    names, players = {}, {}
    if kind == "teams":
        for n in range(1, 2 * TABLES + 1):
            fresh = ClubEvent.objects.get(pk=event.pk)
            pair = [NAMES[2 * n - 2], NAMES[2 * n - 1]]
            entrant_check_in(event=fresh, version=fresh.version, newcomers=pair)
            names[n], players[n] = f"Team {n}", " & ".join(pair)
    else:
        for n in range(1, 4 * TABLES + 1):
            fresh = ClubEvent.objects.get(pk=event.pk)
            entrant_check_in(event=fresh, version=fresh.version, newcomers=[NAMES[n - 1]])
            names[n] = players[n] = NAMES[n - 1]
    return names, players


def director_taps(night: Night, live_server, button: str, then: str) -> None:
    director = night.director
    director.goto(live_server.url + reverse("club_event", args=[night.event.pk]))
    director.get_by_role("button", name=button).click()
    expect(director.locator("#round h2")).to_have_text(then)


def make_cards(night: Night, live_server) -> None:
    """Before the first round the director makes the table cards (one per table the round seats)
    and reads each table's link and PIN off them, as printed."""
    director = night.director
    director.goto(live_server.url + reverse("club_tables", args=[night.event.pk]))
    expect(director.get_by_label("Tables")).to_have_value(str(TABLES))
    director.get_by_role("button", name="Make the cards").click()
    expect(director.locator(".club-table-card")).to_have_count(TABLES)
    for table in range(1, TABLES + 1):
        card = director.locator(f"#card-{table}")
        link = card.get_by_label(f"Table {table}'s link").input_value()
        night.cards[table] = (link, card.locator(".pin").inner_text())


def open_table(night: Night, table: int, live_server) -> None:
    phone = night.phones[table]
    link, pin = night.cards[table]
    phone.goto(link)
    expect(phone.locator("h1")).to_contain_text(f"Table {table}")
    if table == LOCKED_TABLE:
        lock_and_unlock(night, table, live_server)
    phone.get_by_label("Table PIN").fill(pin)
    phone.get_by_role("button", name="Open the table").click()
    expect(phone.locator("#club-table")).to_contain_text("No round has seated this table yet")


def lock_and_unlock(night: Night, table: int, live_server) -> None:
    """Five wrong PINs lock the phone out, the right one too; the director unlocks the table."""
    phone = night.phones[table]
    link, pin = night.cards[table]
    wrong = f"{(int(pin) + 1) % 10_000:04d}"
    for _ in range(5):
        phone.get_by_label("Table PIN").fill(wrong)
        phone.get_by_role("button", name="Open the table").click()
        expect(phone.locator(".errorlist")).to_contain_text("That is not this table's PIN")
    phone.get_by_label("Table PIN").fill(pin)
    phone.get_by_role("button", name="Open the table").click()
    expect(phone.get_by_role("alert")).to_contain_text("Too many wrong PINs from this phone")
    expect(phone.get_by_role("alert")).to_contain_text("or ask the director")

    director = night.director
    director.goto(live_server.url + reverse("club_tables", args=[night.event.pk]))
    card = director.locator(f"#card-{table}")
    card.locator("summary").click()
    card.get_by_label("Why (kept in the trail)").fill("Their phone typed the PIN of table 3")
    card.get_by_role("button", name="Unlock").click()
    expect(director.get_by_role("status").or_(director.locator(".message"))).to_contain_text("nlocked")
    expect(director.locator(f"#card-{table}")).not_to_contain_text("Locked")
    phone.goto(link)


def seating_words(night: Night, round_number: int, seats: list[int]) -> str:
    words = SEATS[night.kind]
    return f"Round {round_number}: " + ", ".join(
        f"{words[seat]} {night.names[entrant]}"
        + (f" ({night.players[entrant]})" if night.players[entrant] != night.names[entrant] else "")
        for seat, entrant in enumerate(seats)
    )


def game_players(night: Night, seats: list[int]) -> list[str]:
    """The table's four players clockwise from North (RULES.md §8: partners opposite)."""
    if night.kind == "teams":
        north_south, east_west = (night.players[e].split(" & ") for e in seats)
        return [north_south[0], east_west[0], north_south[1], east_west[1]]
    return [night.players[e] for e in seats]


def hand_words(hand: Hand, players: list[str]) -> str:
    _, symbol, suit = SUITS[hand.suit]
    sides = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"]
    return f"{players[hand.bidder]} bid {hand.bid} in {symbol} {suit} · " + " · ".join(
        f"{sides[side]}: meld {hand.meld[side]}, tricks {hand.tricks[side]}, {hand.scores[side]:+d}"
        for side in (0, 1)
    )


def enter_hand(phone: Page, hand: Hand, players: list[str]) -> None:
    form = phone.locator("#hand-form")
    form.locator(".seat", has_text=re.compile(rf"^{players[hand.bidder]}")).click()
    phone.locator("#id_bid").fill(str(hand.bid))
    form.locator(".suit", has_text=SUITS[hand.suit][2]).click()
    phone.locator("#id_tricks_0").fill(str(hand.tricks[0]))
    phone.locator("#id_meld_0").fill(str(hand.meld[0]))
    phone.locator("#id_meld_1").fill(str(hand.meld[1]))
    phone.get_by_role("button", name="Record hand").click()


def play_table(night: Night, round_number: int, table: int, seats: list[int]) -> None:
    """The table's phone through its hands: each entered by North–South's phone and countersigned
    there by East–West (or, once, disputed), then the table waits for the director."""
    phone = night.phones[table]
    seating = seating_words(night, round_number, seats)
    expect(phone.locator("#seating")).to_have_text(seating, timeout=DEADLINE)
    players = game_players(night, seats)
    # The phone enters for North–South all night: this round's North and South.
    expect(phone.get_by_text("This phone enters for")).to_have_text(
        f"This phone enters for {players[0]} & {players[2]}."
    )
    totals = [0, 0]
    for number in range(HANDS):
        hand = hand_for(round_number, table, number)
        expect(phone.locator(".next-deal")).to_contain_text(f"Hand {number + 1}")
        enter_hand(phone, hand, players)
        line = phone.locator(f"#hand-{number + 1}")
        try:
            expect(line.locator(".hand-words")).to_have_text(hand_words(hand, players))
        except AssertionError:
            # Nothing came back: the player taps again, as at a real table. The phone's entry key
            # makes a second send of the same entry harmless (it is stored once).
            record = phone.get_by_role("button", name="Record hand")
            if record.count():
                record.click()
            expect(line.locator(".hand-words")).to_have_text(hand_words(hand, players), timeout=DEADLINE)
        expect(line.locator(".state")).to_have_text("waiting for the other side to confirm")
        if (round_number, table) == DISPUTE and number == 0:
            line.get_by_label("What is wrong?").fill("East–West say North–South melded less")
            line.get_by_role("button", name="Dispute").click()
            disputed = "disputed: marked for the director"
            expect(phone.locator(f"#hand-{number + 1} .state")).to_have_text(disputed)
        else:
            line.get_by_role("button", name=re.compile("^Countersign")).click()
            expect(phone.locator(f"#hand-{number + 1} .state")).to_have_text("confirmed")
        totals = [totals[side] + hand.scores[side] for side in (0, 1)]
        expect(phone.locator("#scoreboard .points")).to_have_text([str(t) for t in totals])
    expect(phone.locator("#club-table")).to_contain_text("This table has played its hands for this round")
    assert not CARD_CODE.findall(phone.locator("main").inner_text())
    won = {side for side in (0, 1) if totals[side] > totals[1 - side]}
    for seat, entrant in enumerate(seats):
        side = seat if night.kind == "teams" else seat % 2
        night.points.setdefault(entrant, {})[round_number] = (totals[side], side in won)


def settle_dispute(night: Night, live_server, table: int) -> None:
    director = night.director
    director.goto(live_server.url + reverse("club_director", args=[night.event.pk]))
    hands = director.locator("#director-hands")
    item = hands.locator("li", has_text=f"table {table}, hand 1: disputed")
    expect(item).to_contain_text("“East–West say North–South melded less”")
    item.get_by_label("Why").fill("Counted the meld again with both sides: it stands")
    item.get_by_role("button", name="It stands as entered").click()
    expect(director.locator("#director-hands h2")).to_have_text("Hands for the director (0)")
    expect(director.locator("#trail")).to_contain_text("stands as entered")
    phone = night.phones[table]
    expect(phone.locator("#hand-1 .state")).to_have_text("confirmed", timeout=DEADLINE)


BIG_SCREEN = """() => {
    const view = {width: window.innerWidth, height: window.innerHeight};
    const inView = el => {
        if (!el) return false;
        const box = el.getBoundingClientRect();
        return box.height > 0 && box.top >= 0 && box.bottom <= view.height && box.right <= view.width + 1;
    };
    const rows = [...document.querySelectorAll('#live-standings tbody tr')];
    return {
        rows: rows.length,
        rowsInView: rows.filter(inView).length,
        scrolls: document.scrollingElement.scrollHeight > view.height + 1
            || document.scrollingElement.scrollWidth > view.width + 1,
        title: inView(document.querySelector('#live-standings h1')),
        updated: inView(document.querySelector('#live-standings .updated')),
        rule: inView(document.querySelector('#live-standings .ranking-rule')),
    };
}"""


ROWS = """() => [...document.querySelectorAll('#live-standings tbody tr')]
    .map(row => [...row.cells].map(cell => cell.textContent.replace(/\\s+/g, ' ').trim()))"""


FINAL_ROWS = ROWS.replace("#live-standings", "#final-standings")


def check_screen(night: Night, title: str) -> None:
    screen = night.screen
    expect(screen.locator("#live-standings h1")).to_contain_text(title, timeout=DEADLINE)
    fits = screen.evaluate(BIG_SCREEN)
    entrants = len(night.names)
    assert fits == {
        "rows": entrants,
        "rowsInView": entrants,
        "scrolls": False,
        "title": True,
        "updated": True,
        "rule": True,
    }, fits
    expect(screen.locator(".updated")).to_have_text(re.compile(r"^updated \d\d:\d\d:\d\d$"))
    rule = (
        "Ranked by rounds won, then by total points"
        if night.kind == "teams"
        else "Ranked by matchpoints (each round, 1 for every entrant scoring fewer, ½ for a tie"
    )
    expect(screen.locator(".ranking-rule")).to_contain_text(rule)


def tallied_rows(night: Night, after: int) -> list[list[str]]:
    """The standings after round ``after`` from the tally, each row's cells as the screen shows them."""
    played = {e: {r: v for r, v in rounds.items() if r <= after} for e, rounds in night.points.items()}
    points = {e: sum(p for p, _ in rounds.values()) for e, rounds in played.items()}
    if night.kind == "teams":
        wins = {e: sum(w for _, w in rounds.values()) for e, rounds in played.items()}
        records: dict[int, tuple] = {e: (wins[e], points[e]) for e in night.points}
        ranked = rank_rows(records)
        return [
            [rank, f"{night.names[e]} {night.players[e]}", str(wins[e]), str(points[e])] for rank, e in ranked
        ]
    earned: dict[int, Fraction] = dict.fromkeys(night.points, Fraction(0))
    for round_number in range(1, after + 1):
        scored = {e: rounds[round_number][0] for e, rounds in played.items()}
        for e, mine in scored.items():
            fewer = sum(other < mine for other in scored.values())
            same = sum(other == mine for other in scored.values()) - 1
            earned[e] += fewer + Fraction(same, 2)
    ranked = rank_rows({e: (earned[e], points[e]) for e in night.points})
    return [[rank, night.names[e], matchpoints_words(earned[e]), str(points[e])] for rank, e in ranked]


# ---- the night -------------------------------------------------------------------------------------


@pytest.fixture
def fast_phones(monkeypatch):
    """A waiting phone asks every second, not every ten: the rehearsal waits for each of them."""
    monkeypatch.setattr("scorepad.views.clubs.TABLE_POLL_SECONDS", 1)


def seated(night: Night, round_number: int) -> dict[int, list[int]]:
    """Each table's entrants (by number) in seat order, as the round was started, checked against
    the movement's rule: teams by stay and move; players all seated, never with a partner twice."""
    numbers = {entrant.pk: entrant.number for entrant in night.event.entrants.all()}
    tables = ClubTable.objects.filter(round__event=night.event, round__number=round_number)
    seats = {table.number: [numbers[pk] for pk in table.seats] for table in tables}
    if night.kind == "teams":
        assert seats == expected_seats(round_number)
    else:
        assert sorted(e for table in seats.values() for e in table) == list(night.names)
        for table in seats.values():
            for pair in (frozenset(table[0::2]), frozenset(table[1::2])):
                assert pair not in night.partners, (round_number, pair)
                night.partners.add(pair)
    return seats


def where_they_go(night: Night, round_number: int) -> dict[str, str]:
    """What each phone says at the end of a round, once the director closed it: where its players
    go next (a line each, "Team 5: table 2, East–West"), or that the night is over."""
    lines = {}
    for phone in night.phones.values():
        where = phone.locator("#where-next")
        expect(where.locator("h2")).to_have_text(f"Round {round_number} is over", timeout=DEADLINE)
        if round_number == ROUNDS:
            expect(where).to_contain_text("That was the last round: thank you for playing.")
            expect(where).not_to_have_attribute("hx-get", re.compile(".*"))  # the phone asks no more
        for line in where.locator("li").all_inner_texts():
            lines[line.split(":")[0]] = line
    return lines


def the_promised_seats(night: Night, promised: dict[str, str], seats: dict[int, list[int]]) -> None:
    """Everyone sits where their phone said at the end of the last round."""
    words = SEATS[night.kind]
    expected = {
        night.names[entrant]: f"{night.names[entrant]}: table {table}, {words[seat]}"
        for table, entrants in seats.items()
        for seat, entrant in enumerate(entrants)
    }
    assert promised == expected


@pytest.mark.parametrize("kind", ["teams", "progressive"])
def test_a_club_night_rehearsed_by_its_director_and_one_phone_per_table(
    live_server, new_phone, django_user_model, fast_phones, kind
):
    started = time.monotonic()
    user = django_user_model.objects.create_user(username="dee")
    household = household_create(user=user, name="The club")
    director_context = new_phone()
    signed_in(director_context, live_server, user)
    director = director_context.new_page()
    event = create_event(director, live_server, household, kind)
    names, players = check_in(event, kind)
    phones = {table: new_phone(viewport=PHONES[(table - 1) % 2]).new_page() for table in range(1, TABLES + 1)}
    screen = new_phone(viewport=SCREEN, is_mobile=False, has_touch=False).new_page()
    errors: list[str] = []
    # Not the screen's: under the tests' WSGI live server its event stream answers once and the
    # browser asks again (a poll by design, views.club_director), each end logged by htmx.
    pages = {"the director": director} | {f"table {n}": p for n, p in phones.items()}
    for who, page in pages.items():
        page.on(
            "console",
            lambda message, who=who: (
                errors.append(f"{who}: {message.text} {message.location}")
                if message.type == "error"
                else None
            ),
        )
    night = Night(kind, event, director, screen, phones, {}, names, players, {}, set())
    promised: dict[str, str] = {}

    for round_number in range(1, ROUNDS + 1):
        if round_number == 1:  # the cards on the tables, a phone opened on each, the room's screen on
            make_cards(night, live_server)
            for table in range(1, TABLES + 1):
                open_table(night, table, live_server)
            room = reverse("club_standings_live", args=[standings_token_of(event)])
            screen.goto(f"{live_server.url}{room}?big=1")
            expect(screen.locator("#live-standings h1")).to_contain_text("no round played yet")
        being_played = f"Round {round_number} is being played"
        director_taps(night, live_server, f"Start round {round_number}", being_played)
        seats = seated(night, round_number)
        if promised:
            the_promised_seats(night, promised, seats)
        for table in sorted(seats, reverse=True):  # table 1's phone follows the round by itself meanwhile
            play_table(night, round_number, table, seats[table])
        if round_number == DISPUTE[0]:
            settle_dispute(night, live_server, DISPUTE[1])
        check_screen(night, f"round {round_number} being played")
        last = round_number == ROUNDS
        then = "The event is over" if last else f"Round {round_number + 1}: the seating"
        director_taps(night, live_server, f"Close round {round_number}", then)
        promised = where_they_go(night, round_number)
        check_screen(night, f"after round {round_number}")
        assert screen.evaluate(ROWS) == tallied_rows(night, round_number)

    director.goto(live_server.url + reverse("club_final", args=[event.pk]))
    expect(director.locator("h1")).to_contain_text("final standings")
    final = director.evaluate(FINAL_ROWS)
    assert [row[:-1] for row in final] == tallied_rows(night, ROUNDS)
    assert {row[-1] for row in final} == {str(ROUNDS)}  # everyone played every round
    # The locked phone's refusals are its only failed requests (429: too many wrong PINs).
    assert [e for e in errors if "status of 429" not in e] == []
    took = time.monotonic() - started
    print(f"\nclub night rehearsal, {kind}: {TABLES} tables × {ROUNDS} rounds × {HANDS} hands: {took:.0f} s")

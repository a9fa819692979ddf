"""A club night under load: ``manage.py loadtest --event N``.

One event of ``N`` tables (2N teams, round 1 started), each table's phone opening its table with
the PIN, then at table pace entering a hand with the table's own form (read from the page as a
browser would) and countersigning it; and ``watchers`` phones (the room's big screen and the
players' phones) opening the room's standings page, then holding its event stream open as the
page does, noting each standings event as it arrives.

The tables first play alone, then with the watchers, on the same server: the hand POST's times of
both are reported. "Standings after a confirmed hand" is, for every countersign acknowledged and
every watcher, the time from that acknowledgement until the watcher's screen shows the hand: the
first standings event whose points for that table's two teams are what they are after that hand
(0 if the screen already showed it then). A hand a screen still did not show 5 s later, with the
run still going, is counted as missed.

Afterwards every table's acknowledged hands must be stored as acknowledged, none twice; every hand
must have one table hand, confirmed; and the standings must hold each table's points once.
"""

from __future__ import annotations

import asyncio
import bisect
import html
import random
import re
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, connections
from django.urls import reverse

from scorepad.models import ClubEntrant, ClubEvent, ClubTable, Game, Household, TableHand
from scorepad.selectors.club_director import live_standings, standings_token_of
from scorepad.selectors.games import game_score
from scorepad.services.clubs import entrant_check_in, event_create, round_start
from scorepad.services.households import household_create

from . import run as base
from .browser import Browser, BrowserError, read_forms
from .streams import EventStream

HOST = base.HOST
TABLE_PAGE, CONFIRM_POST, STANDINGS_PAGE = "table page", "confirm POST", "standings page"
# A standings row: "Team 7 <span ...>T6a &amp; T6b</span>", its wins, its points.
TEAM_ROW = re.compile(
    r'<td>Team (\d+)(?: <span[^>]*>[^<]*</span>)?</td><td>\d+</td><td class="num">(-?\d+)</td>'
)
EVENT_RULES = {"target": 50_000}  # a table's game never ends within a run
MISSED_SECONDS = 5.0  # a hand a screen has not shown this long after its confirmation: missed


@dataclass
class EventOptions:
    tables: int = 40
    watchers: int = 100
    seconds: float = 60.0
    warmup: float = 3.0
    pace: float = 5.0  # mean seconds between a table's hands (a real table: minutes)
    workers: int | None = None
    seed: int = 1
    keep: bool = False


@dataclass(frozen=True)
class Confirmation:
    at: float  # when the countersign was acknowledged
    table: int  # the ClubTable's id
    count: int  # the table's confirmations so far, this one included (both runs)


@dataclass
class EventStats(base.Stats):
    confirmations: list[Confirmation] = field(default_factory=list)
    # Each watcher's standings events as they arrived: (when, the event's id, its fingerprint).
    shown: dict[int, list[tuple[float, str]]] = field(default_factory=lambda: defaultdict(list))
    pages: dict[str, str] = field(default_factory=dict)  # fingerprint: the standings sent with it


@dataclass
class EventReport:
    tables: int
    watchers: int
    seconds: float
    database: str
    workers: str
    percentiles_ms: dict[str, dict[str, float]]
    alone_ms: dict[str, float]
    slowdown: float  # hand POST p95 with the watchers / alone
    standings_ms: dict[str, float]  # confirmed hand -> a watcher's screen shows it
    standings_missed: int  # (confirmed hand, screen) not shown within MISSED_SECONDS
    standings_events: int  # standings events received by all the screens
    errors: int
    alone_errors: int
    first_errors: list[str]
    acknowledged: int
    stored: int
    lost: int
    duplicates: int
    unacknowledged: int
    unconfirmed: int
    standings_differ: list[str]
    first_problems: list[str]
    client_cpu_seconds: float  # the load client's own share of the machine, with the watchers
    server_log: str

    @property
    def ok(self) -> bool:
        return (
            self.errors == self.alone_errors == self.lost == self.duplicates == self.unacknowledged == 0
            and self.unconfirmed == 0
            and not self.standings_differ
        )


@dataclass
class Setup:
    director: User
    household: Household
    event: ClubEvent
    tables: list[ClubTable]
    token: str
    confirmed: dict[int, int] = field(default_factory=lambda: defaultdict(int))  # per table, both runs


def prepare(options: EventOptions, run_id: str) -> Setup:
    director = User(username=f"loadtest-{run_id}-director")
    director.set_unusable_password()
    director.save()
    household = household_create(user=director, name=f"Load test club {run_id}")
    event = event_create(
        household=household,
        director=director,
        name=f"Load test night {run_id}",
        variant_id="classic",
        overrides=EVENT_RULES,
        format=ClubEvent.Format.TEAMS,
        rounds=1,
    )
    for team in range(2 * options.tables):
        event = ClubEvent.objects.get(pk=event.pk)
        entrant_check_in(event=event, version=event.version, newcomers=[f"T{team}a", f"T{team}b"])
    event = ClubEvent.objects.get(pk=event.pk)
    round_start(event=event, version=event.version)
    tables = list(
        ClubTable.objects.filter(round__event=event).select_related("round", "card").order_by("number")
    )
    connections.close_all()  # SQLite: hold no lock while the server writes
    return Setup(director, household, event, tables, standings_token_of(event))


def clean_up(setup: Setup) -> None:
    games = [table.game_id for table in setup.tables]
    ClubEvent.objects.filter(pk=setup.event.pk).delete()
    Game.objects.filter(pk__in=games).delete()
    setup.household.delete()
    setup.director.delete()


async def _open_table(browser: Browser, stats: EventStats, table: ClubTable) -> bool:
    url = reverse("club_table", args=[table.token])
    page = await base._timed(stats, TABLE_PAGE, browser.get(url), (200,))
    form = next((f for f in read_forms(page.text) if "pin" in f.names), None) if page else None
    if form is None:
        return False
    data = [(c.name, c.value) for c in form.controls if c.type == "hidden" and c.name]
    data += [("pin", table.pin), ("side", "0")]
    answer = await base._timed(stats, "PIN POST", browser.post(url, data), (302,))
    return answer is not None and answer.status == 302


async def table_phone(
    table: ClubTable,
    port: int,
    stats: EventStats,
    deadline: float,
    options: EventOptions,
    confirmed: dict[int, int],
) -> None:
    """One table's phone: a hand at table pace, recorded, then countersigned on the same phone."""
    rng = random.Random(options.seed * 10_007 + table.number)
    browser = Browser(HOST, port)
    url = reverse("club_table", args=[table.token])
    try:
        if not await _open_table(browser, stats, table):
            return
        while stats.now() < deadline:
            page = await base._timed(stats, TABLE_PAGE, browser.get(url), (200,))
            form = base.hand_form(page.text) if page else None
            if form is None:
                await asyncio.sleep(1)
                continue
            data, entry = base.fill_hand(form, rng, base.TRICK_TOTALS["classic"])
            answer = await base._timed(stats, base.HAND_POST, browser.post(form.action, data), (302,))
            if answer is None or answer.status != 302:
                continue
            stats.acked[table.game_id].append(entry)
            after = await base._timed(stats, TABLE_PAGE, browser.get(url), (200,))
            confirm = (
                next((f for f in read_forms(after.text) if f.action.endswith("/confirm/")), None)
                if after
                else None
            )
            if confirm is not None:
                fields = [(c.name, c.value) for c in confirm.controls if c.name and c.type != "submit"]
                done = await base._timed(stats, CONFIRM_POST, browser.post(confirm.action, fields), (302,))
                if done is not None and done.status == 302:
                    confirmed[table.pk] += 1
                    stats.confirmations.append(Confirmation(stats.now(), table.pk, confirmed[table.pk]))
            pause = rng.expovariate(1 / options.pace) if options.pace > 0 else 0.0
            await asyncio.sleep(min(pause, max(0.0, deadline - stats.now())))
    finally:
        await browser.close()


async def watcher(index: int, token: str, port: int, stats: EventStats, deadline: float) -> None:
    """A screen in the room: the standings page, then its event stream held open as the page does,
    each standings event noted as it arrives (opened again, as a browser would, if it drops)."""
    address = {"X-Forwarded-For": f"203.0.113.{index % 254 + 1}"}
    browser = Browser(HOST, port, extra_headers=address)
    await asyncio.sleep(random.Random(index).random())  # screens were not all switched on at once
    try:
        await base._timed(
            stats, STANDINGS_PAGE, browser.get(reverse("club_standings_live", args=[token])), (200,)
        )
    finally:
        await browser.close()
    path = reverse("club_standings_events", args=[token])
    shown = ""
    while stats.now() < deadline:
        stream = EventStream(HOST, port, path, {}, {**address, **({"Last-Event-ID": shown} if shown else {})})
        try:
            await stream.open()
            while True:
                event = await stream.next_event(max(0.0, deadline - stats.now()))
                if event.name == "standings":
                    shown = event.id
                    stats.shown[index].append((stats.now(), shown))
                    stats.pages.setdefault(shown, event.data)
        except TimeoutError:
            return  # the run is over
        except (BrowserError, OSError) as error:
            stats.errors.append((stats.now(), stats.now(), f"standings stream: {error}"))
            await asyncio.sleep(1)  # the page's retry
        finally:
            await stream.close()


async def drive(setup: Setup, port: int, options: EventOptions, *, watchers: int) -> EventStats:
    stats = EventStats(warmup=options.warmup)
    cpu = time.process_time()
    end = options.warmup + options.seconds
    tasks = [table_phone(table, port, stats, end, options, setup.confirmed) for table in setup.tables]
    tasks += [watcher(index, setup.token, port, stats, end) for index in range(watchers)]
    await asyncio.gather(*tasks)
    stats.ended = stats.now()
    stats.cpu = time.process_time() - cpu
    return stats


def standings_latency(
    confirmations: list[Confirmation],
    shown: dict[int, list[tuple[float, str]]],
    shows: Callable[[str, Confirmation], bool],
    warmup: float,
    ended: float,
) -> tuple[list[float], int]:
    """For every confirmed hand and every screen, the seconds from its acknowledgement until the
    screen showed it (``shows``: whether the standings sent as that id hold it): 0 if the screen's
    standings held it already; and how many a screen still did not show ``MISSED_SECONDS`` later.
    Hands confirmed in the warm-up, or too near the end to tell, are left out."""
    seconds: list[float] = []
    missed = 0
    for events in shown.values():
        arrived = [at for at, _ in events]
        for confirmation in confirmations:
            if confirmation.at < warmup:
                continue
            first = max(0, bisect.bisect_right(arrived, confirmation.at) - 1)  # what it showed then
            found = next(
                (at for at, ident in events[first:] if shows(ident, confirmation)),
                None,
            )
            if found is not None and found - confirmation.at <= MISSED_SECONDS:
                seconds.append(max(0.0, found - confirmation.at))
            elif ended - confirmation.at > MISSED_SECONDS:
                missed += 1
    return seconds, missed


def team_points(page: str) -> dict[int, int]:
    """Each team's points in a standings partial, by the team's number."""
    return {int(number): int(points) for number, points in TEAM_ROW.findall(html.unescape(page))}


def standings_shown(setup: Setup, pages: dict[str, str]) -> Callable[[str, Confirmation], bool]:
    """Whether the standings sent as an id hold a confirmed hand: its table's two teams have the
    points they have after that hand (or after a later one of that table's)."""
    numbers = dict(ClubEntrant.objects.filter(event=setup.event).values_list("pk", "number"))
    teams: dict[int, tuple[int, int]] = {}
    after: dict[int, list[tuple[int, ...]]] = {}
    for table in setup.tables:
        teams[table.pk] = (numbers[table.seats[0]], numbers[table.seats[1]])
        after[table.pk] = [hand.totals for hand in game_score(Game.objects.get(pk=table.game_id)).hands]
    points = {ident: team_points(page) for ident, page in pages.items()}

    def shows(ident: str, confirmation: Confirmation) -> bool:
        shown = points.get(ident, {})
        pair = tuple(shown.get(team) for team in teams[confirmation.table])
        return any(
            pair == tuple(totals[:2]) for totals in after[confirmation.table][confirmation.count - 1 :]
        )

    return shows


def check(setup: Setup, acked: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    connections.close_all()
    games = [table.game_id for table in setup.tables]
    found = base.compare(acked, {game: None for game in games} | base.stored_hands(games))
    unconfirmed = (
        TableHand.objects.filter(table__in=setup.tables).exclude(state=TableHand.State.CONFIRMED).count()
    )
    hands_without = sum(
        Game.objects.get(pk=game).hands.count() - TableHand.objects.filter(hand__game_id=game).count()
        for game in games
    )
    event = ClubEvent.objects.get(pk=setup.event.pk)
    shown = sum(row.points for row in live_standings(event).rows)
    scored = sum(sum(game_score(game).totals) for game in Game.objects.filter(pk__in=games))
    differ = [] if shown == scored else [f"standings hold {shown} points, the tables scored {scored}"]
    if hands_without:
        differ.append(f"{hands_without} hands stored without their table hand")
    return {"comparison": found, "unconfirmed": unconfirmed, "differ": differ}


def _merge(alone: EventStats, stats: EventStats) -> dict[int, list[dict[str, Any]]]:
    acked: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for run in (alone, stats):
        for game, hands in run.acked.items():
            acked[game] += hands
    return acked


def run_event(options: EventOptions) -> EventReport:
    """The tables alone, then with the watchers, on one server; then the check."""
    setup = prepare(options, uuid.uuid4().hex[:8])
    try:
        with base.production_server(options.workers) as (port, log):
            alone = asyncio.run(drive(setup, port, options, watchers=0))
            stats = asyncio.run(drive(setup, port, options, watchers=options.watchers))
        checked = check(setup, _merge(alone, stats))
        latency, missed = standings_latency(
            stats.confirmations, stats.shown, standings_shown(setup, stats.pages), stats.warmup, stats.ended
        )
        found: base.Comparison = checked["comparison"]
        kinds = (base.HAND_POST, CONFIRM_POST, TABLE_PAGE, STANDINGS_PAGE)
        percentiles = {kind: base._percentiles(stats.times[kind]) for kind in kinds}
        alone_ms = base._percentiles(alone.times[base.HAND_POST])
        db = connection.settings_dict
        return EventReport(
            tables=options.tables,
            watchers=options.watchers,
            seconds=round(stats.ended - stats.warmup, 1),
            database=f"{connection.vendor} {db['NAME']}",
            workers=f"{options.workers or base.gunicorn_conf.workers} workers",
            percentiles_ms=percentiles,
            alone_ms=alone_ms,
            slowdown=round(percentiles[base.HAND_POST]["p95"] / alone_ms["p95"], 2)
            if alone_ms["p95"]
            else 0.0,
            standings_ms=base._percentiles(latency),
            standings_missed=missed,
            standings_events=sum(len(events) for events in stats.shown.values()),
            errors=len(stats.errors),
            alone_errors=len(alone.errors),
            first_errors=[
                f"{t - stats.warmup:.1f} s {what}" for t, _, what in [*alone.errors, *stats.errors][:5]
            ],
            acknowledged=sum(len(hands) for hands in _merge(alone, stats).values()),
            stored=found.stored,
            lost=len(found.lost),
            duplicates=len(found.duplicates),
            unacknowledged=len(found.unacknowledged),
            unconfirmed=checked["unconfirmed"],
            standings_differ=checked["differ"],
            first_problems=[*found.lost, *found.duplicates, *found.unacknowledged][:5],
            client_cpu_seconds=round(stats.cpu, 1),
            server_log=str(log),
        )
    finally:
        if not options.keep:
            connections.close_all()
            clean_up(setup)


def describe(r: EventReport) -> list[str]:
    def line(kind: str, p: dict[str, float]) -> str:
        return (
            f"  {kind:<15} n={p['n']:<7} p50 {p['p50']:>7} ms   p95 {p['p95']:>7} ms   "
            f"p99 {p['p99']:>7} ms   max {p['max']:>7} ms"
        )

    return [
        f"club night: {r.tables} tables, {r.watchers} standings watchers, {r.seconds} s on {r.database}, "
        f"gunicorn {r.workers}",
        "the tables alone, just before:",
        line(base.HAND_POST, r.alone_ms),
        f"  errors: {r.alone_errors}",
        "the tables with the watchers:",
        *(line(kind, p) for kind, p in r.percentiles_ms.items()),
        f"hand POST p95 with the watchers / alone = {r.slowdown} (target ≤ 2)",
        line("standings after a confirmed hand", r.standings_ms).replace("  standings", "standings", 1)
        + " (target p95 ≤ 2000 ms)",
        f"  standings events received: {r.standings_events}; (hand, screen) not shown within "
        f"{MISSED_SECONDS:g} s: {r.standings_missed}",
        f"errors: {r.errors}",
        *(f"  {error}" for error in r.first_errors),
        f"hands: {r.acknowledged} acknowledged, {r.stored} stored, {r.lost} lost or changed, "
        f"{r.unacknowledged} stored unacknowledged, {r.duplicates} twice, {r.unconfirmed} not confirmed",
        *(f"  {problem}" for problem in r.first_problems),
        *(f"standings: {problem}" for problem in r.standings_differ),
        f"the load client used {r.client_cpu_seconds} CPU s; server log: {r.server_log}",
    ]

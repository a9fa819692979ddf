"""Drive the production server with simulated players, then check nothing was lost.

Each player has an account (a session made here, no password), a household and a game, played
to its variant's target (a game won is followed by a new one). In a loop it opens the game page
(the scoreboard), reads the hand form from the HTML as a browser would (its action, hidden inputs
such as the hand number and CSRF token, the choices offered), taps a bidder and a trump, keeps the
offered bid, types meld and trick points, and records the hand; then it asks for the bare
``/health/`` view, whose time is the yardstick for the rest. A hand counts as acknowledged when
the server answers its POST with the redirect a browser follows.

With ``practice_players`` anonymous visitors also play practice games against the bots (tapping
the bids, trumps and cards the page offers), the run is made twice on the same server: the
players alone, then with the visitors (each run starting new games, so both time games of one
length), and the hand POST's times of both are reported. With a ``practice_mix`` the visitors
also ask for hints and open hand reviews in the given proportions, and answer the bidder's
throw-in offer (the expert's weighing) where it appears.

Afterwards every game must be read back; each acknowledged hand must be stored as it was
acknowledged (same game, number, dealer, bidder, bid, trump, meld and tricks), with no stored
hand that nobody acknowledged and none twice; and each game page's totals, and the stored game's
finished flag, must be what the engine scores from its record.
"""

from __future__ import annotations

import asyncio
import ipaddress
import multiprocessing
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.core import signing
from django.db import connection, connections
from django.urls import reverse

from pinochle_site import gunicorn_conf
from scorepad.engine.match import percentile
from scorepad.engine.variants import VARIANTS
from scorepad.models import Game, Household, PracticeGame, PrivateTable
from scorepad.selectors.games import game_score
from scorepad.services.games import game_start
from scorepad.services.households import household_create, player_create
from scorepad.services.tables import GRACE_CHOICES, SeatPlan, table_open, table_take_seat
from scorepad.views.tables import SEAT_SALT

from .browser import Browser, BrowserError, Form, Response, read_forms
from .idle import IdleSeat, IdleStats, streams_held
from .tables import TableStats, server_cpu_seconds, tables_apart

HOST = "127.0.0.1"
# Real games, to each variant's own target: a game that is won is followed by a new one (``play``).
# Endless games made every hand's POST slower as the run went on (it scores its whole game), so a
# run's figures depended on its length (DEPLOYMENT.md, "Load").
GAME_RULES: dict[str, Any] = {}
# Worked out once: the load client shares the cores with the server it measures.
TRICK_TOTALS = {vid: v.trick_points_total(v.settings(GAME_RULES)) for vid, v in VARIANTS.items()}
MAX_SEATS = max(variant.seats for variant in VARIANTS.values())
TRUMPS = {"S", "H", "D", "C"}
GUESSER_ADDRESS = "198.51.100.7"  # TEST-NET: the guessers' lockout never touches a real address
HAND_POST, GAME_PAGE, BARE = "hand POST", "game page", "bare view"
PRACTICE_POST, PRACTICE_PAGE = "practice POST", "practice page"
PRACTICE_HINT, PRACTICE_REVIEW = "practice hint", "practice review"
# What a practice visitor does on its turn: tap a move, ask for a hint, open a hand's review.
MOVES, HINTS, REVIEWS = "moves", "hints", "reviews"
MIX_KINDS = (MOVES, HINTS, REVIEWS)
ONLY_MOVES: tuple[tuple[str, float], ...] = ((MOVES, 1.0),)
REVIEW_POLL_SECONDS = 1.0  # the review page's htmx poll ("load delay:1s") while it says "working…"
REVIEW_POLLS = 30  # at most, then the visitor goes back to its game
STILL_WORKING = 'hx-trigger="load delay:1s"'
HINT_LINK = re.compile(r'href="([^"]*\?hint=1)"')
REVIEW_LINK = re.compile(r'href="(/practice/\d+/hands/\d+/review/)"')
HTMX = {"HX-Request": "true"}
ASKED = (MOVES, HINTS, REVIEWS, "review polls", "concede offers")  # counted with a mix, in this order
TAPPED = ("bid", "trump", "card", "concede")  # the practice page's buttons a visitor taps
TURNED_AWAY = (429, 503)  # a practice request over a limit, or while the bots are busy
# What an acknowledged hand must be stored as: RULES §9.3's fields, and where it sits.
CHECKED_FIELDS = ("number", "dealer", "bidder", "bid", "trump", "meld", "tricks")
IDLE_VARIANT = "six-handed"  # the most seats: the most idle streams per table within the per-seat cap
IDLE_FIRST_ADDRESS = ipaddress.IPv4Address("198.18.0.1")  # RFC 2544's benchmarking range


@dataclass
class Options:
    users: int = 50
    seconds: float = 60.0
    warmup: float = 3.0  # first seconds, not timed: workers start, templates compile
    variants: tuple[str, ...] = tuple(VARIANTS)
    think: float = 0.0  # mean pause between a player's rounds, seconds
    workers: int | None = None
    disrupt: str = ""  # a shell command run during the run (a database restart)
    disrupt_at: float = 0.0
    guessers: int = 0  # tasks posting wrong passwords all along
    practice_players: int = 0  # anonymous visitors playing practice games meanwhile
    practice_strength: str = "expert"
    # What the visitors do on their turns, and how often: (kind, weight) of ``MIX_KINDS``.
    practice_mix: tuple[tuple[str, float], ...] = ONLY_MOVES
    tables: int = 0  # private tables meanwhile: people's phones on event streams, bots in the other seats
    table_people: int = 2  # people (phones) at each table
    table_think: float = 3.0  # mean seconds a person at a table takes to read the screen and tap
    idle_streams: int = 0  # private tables' event streams held open, idle, through the run beside them
    pause_redis: float = 0.0  # seconds the local Redis is stopped (SIGSTOP) at ``disrupt_at``
    redis_pids: tuple[int, ...] = ()  # the processes to stop
    seed: int = 1
    keep: bool = False


@dataclass
class Player:
    index: int
    user: User
    household: Household
    variant: str
    session: str
    games: list[int] = field(default_factory=list)

    @property
    def trick_total(self) -> int:
        """The trick points in one hand of this player's games, which players at the table know."""
        return TRICK_TOTALS[self.variant]


@dataclass
class Stats:
    started: float = field(default_factory=time.perf_counter)
    warmup: float = 0.0
    ended: float = 0.0
    cpu: float = 0.0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    hand_posts: list[tuple[float, float]] = field(default_factory=list)  # (sent, seconds) after warm-up
    answered: list[tuple[float, bool]] = field(default_factory=list)  # (start, ok) of every request
    errors: list[tuple[float, float, str]] = field(default_factory=list)  # (sent, answered, what)
    acked: dict[int, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    guesses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    disrupted: tuple[float, float] | None = None
    practice_games: list[int] = field(default_factory=list)  # to remove afterwards
    practice_sessions: list[str] = field(default_factory=list)
    # Practice requests turned away, by status: 429 (over a limit), 503 (the bots are busy).
    practice_turned_away: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    # What the practice visitors asked for (with a mix): moves, hints, reviews, review polls,
    # concede offers seen.
    practice_asked: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    tables: TableStats = field(default_factory=TableStats)
    server_cpu: float = 0.0  # the server's CPU seconds over the timed run (with --tables)
    idle_cpu: float = 0.0  # the server's CPU seconds while the tables' phones sat idle
    idle: IdleStats | None = None  # what the idle streams saw (with --idle-streams)

    def now(self) -> float:
        return time.perf_counter() - self.started


@dataclass
class Report:
    users: int
    seconds: float
    database: str
    workers: str
    requests: int
    requests_per_second: float
    percentiles_ms: dict[str, dict[str, float]]
    ratio: float
    errors: int
    errors_outside_window: int
    window: tuple[float, float] | None
    first_errors: list[str]
    acknowledged: int
    stored: int
    lost: int
    unacknowledged: int
    duplicates: int
    unreadable: int
    first_problems: list[str]  # the first lost, unacknowledged, duplicate and unreadable, in words
    games: int
    totals_checked: int
    totals_differ: list[str]
    guesses: dict[int, int]
    client_cpu_seconds: float  # this process's share of the machine during the run
    server_log: str
    practice_players: int = 0
    practice_strength: str = ""
    practice_turned_away: dict[int, int] = field(default_factory=dict)
    practice_mix: str = ""  # "moves:1,hints:1,reviews:1"; empty for moves only
    practice_asked: dict[str, int] = field(default_factory=dict)
    # The same players alone on the same server just before (only with practice players):
    # the hand POST's percentiles and the errors, and the hand POST p95 with / without.
    alone_ms: dict[str, float] | None = None
    alone_errors: int = 0
    slowdown: float = 0.0
    # Private tables (--tables): phones, a card's time until every other person's phone shows it, writes
    # acknowledged and lost, errors, and the server's CPU per connected phone (playing: beyond what
    # the scorekeepers use alone; idle: after the run, nobody else there).
    tables: int = 0
    table_think: float = 0.0
    table_people: int = 0
    table_phones: int = 0
    card_to_phones_ms: dict[str, float] | None = None
    table_post_ms: dict[str, float] | None = None
    table_writes: int = 0
    table_lost: list[str] = field(default_factory=list)
    table_errors: list[str] = field(default_factory=list)
    cpu_ms_per_phone_second: float = 0.0
    idle_cpu_ms_per_phone_second: float = 0.0
    # Idle event streams (--idle-streams): asked for, held at once at the most and at the end,
    # answers refused in words (by cap), streams never held, held streams the server ended, errors.
    idle_streams: int = 0
    idle_held: int = 0
    idle_held_at_end: int = 0
    idle_refused: int = 0
    idle_refused_by: dict[str, int] = field(default_factory=dict)
    idle_never_held: int = 0
    idle_dropped: int = 0
    idle_opening_seconds: float = 0.0
    idle_errors: list[str] = field(default_factory=list)
    # A disruption (--disrupt, --pause-redis): the hand POSTs sent inside its window, and their
    # p95 against the players' alone.
    pause_redis: float = 0.0
    window_ms: dict[str, float] | None = None
    window_slowdown: float = 0.0

    @property
    def ok(self) -> bool:
        """Nothing lost, changed, unreadable or twice; a stored hand nobody acknowledged only when a
        disruption may have lost its answer; no error outside the disruption, none alone."""
        return (
            self.lost == self.duplicates == self.unreadable == self.alone_errors == 0
            and (self.unacknowledged == 0 or self.window is not None)
            and self.errors_outside_window == 0
            and not self.totals_differ
            and not self.table_lost
            and not self.table_errors
            and not self.idle_errors
        )


# ---- setting up and cleaning up (in this process, straight to the database) -------------------


def prepare(options: Options, run: str) -> list[Player]:
    players = []
    for index in range(options.users):
        user = User(username=f"loadtest-{run}-{index}")
        user.set_unusable_password()  # no password hashing: the session is made below
        user.save()
        household = household_create(user=user, name=f"Load test {run} #{index}")
        for seat in range(MAX_SEATS):
            player_create(household=household, name=f"Player {seat + 1}")
        variant = options.variants[index % len(options.variants)]
        player = Player(index, user, household, variant, _session_for(user))
        player.games.append(new_game(player))
        players.append(player)
    connections.close_all()  # SQLite: hold no lock while the server writes
    return players


def _session_for(user: User) -> str:
    """A logged-in session, as Django's login() would store it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def new_game(player: Player) -> int:
    seats = VARIANTS[player.variant].seats
    game = game_start(
        household=player.household,
        variant_id=player.variant,
        overrides=GAME_RULES,
        players=list(player.household.players.all()[:seats]),
        first_dealer=0,
    )
    return game.pk


def start_new_games(players: list[Player]) -> None:
    """Each player on a new game, so that the next run times hands of games as long as the last
    run's were: a hand's POST reads the whole game (its totals), so it grows with the game's hands,
    and a second run on the same games would be slower with nothing else on the server."""
    for player in players:
        player.games.append(new_game(player))
    connections.close_all()  # SQLite: hold no lock while the server writes


def _new_game_in_thread(player: Player) -> int:
    try:
        return new_game(player)
    finally:
        connection.close()


def idle_seats(count: int) -> tuple[list[IdleSeat], list[int]]:
    """Seats for ``count`` idle streams (``idle``), and the tables opened for them, to remove
    afterwards. Each table is six-handed with a person in every seat (no bots think; the table waits
    for a person), opened through the services: each seat takes streams up to the per-seat cap,
    each address up to the per-address cap."""
    per_seat = settings.STREAMS_PER_SEAT
    seats = VARIANTS[IDLE_VARIANT].seats
    passes: list[tuple[int, str, str]] = []
    tables: list[int] = []
    while len(passes) * per_seat < count:
        index = len(tables)
        table, host = table_open(
            host_user=None,
            host_name=f"Idle {index}",
            variant_id=IDLE_VARIANT,
            seats=[SeatPlan()] * seats,
            grace_seconds=max(GRACE_CHOICES),
        )
        tables.append(table.pk)
        claims = [host]
        for seat in range(1, seats):
            claims.append(
                table_take_seat(table=table, seat=seat, name=f"Idle {index}-{seat}", user=None, holding=None)
            )
        for claim in claims:
            value = signing.dumps(
                {"t": claim.table_id, "s": claim.seat, "k": claim.claim_key}, salt=SEAT_SALT
            )
            passes.append((claim.table_id, f"table-{claim.table_id}", value))
    per_address = settings.STREAMS_PER_ADDRESS
    idle = [
        IdleSeat(*passes[n // per_seat], address=str(IDLE_FIRST_ADDRESS + n // per_address))
        for n in range(count)
    ]
    connections.close_all()  # SQLite: hold no lock while the server writes
    return idle, tables


def clean_up(players: list[Player], stats: list[Stats], idle_tables: list[int]) -> None:
    users = [player.user.pk for player in players]
    PrivateTable.objects.filter(pk__in=idle_tables).delete()
    Game.objects.filter(household__members__in=users).delete()
    Household.objects.filter(members__in=users).delete()
    PracticeGame.objects.filter(
        user__isnull=True, pk__in=[g for s in stats for g in s.practice_games]
    ).delete()
    PrivateTable.objects.filter(pk__in=[t for s in stats for t in s.tables.acknowledged]).delete()
    sessions = [p.session for p in players] + [key for s in stats for key in s.practice_sessions]
    SessionStore.get_model_class().objects.filter(session_key__in=sessions).delete()
    User.objects.filter(pk__in=users).delete()


# ---- the server ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def production_server(workers: int | None) -> Iterator[tuple[int, Path]]:
    """gunicorn as the README starts it, on a free loopback port, with this process's database."""
    port = _free_port()
    env = {**os.environ, "ALLOWED_HOSTS": HOST, "SECURE": "false", "DEBUG": "false", "BEHIND_PROXY": "true"}
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    log = Path(tempfile.mkstemp(prefix="loadtest-gunicorn-", suffix=".log")[1])
    command = [sys.executable, "-m", "gunicorn", "-c", "python:pinochle_site.gunicorn_conf"]
    with log.open("w") as out:
        server = subprocess.Popen(
            [*command, "--bind", f"{HOST}:{port}"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_up(server, port, log)
        yield port, log
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_until_up(server: subprocess.Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped at start-up:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer within 60 s:\n{log.read_text()[-2000:]}")


# ---- the players --------------------------------------------------------------------------------


def hand_form(html: str) -> Form | None:
    """The page's form for a hand: the POST form that asks for the bidder and the bid.

    Only forms that mention the bidder are parsed (a long game's page is mostly its hand table,
    and this process shares the cores with the server); the whole page if that finds none.
    """
    likely = "".join(f"<form{part}" for part in html.split("<form")[1:] if 'name="bidder"' in part)
    for text in (likely, html):
        forms = read_forms(text)
        found = next((f for f in forms if f.method == "post" and {"bidder", "bid"} <= f.names), None)
        if found:
            return found
    return None


def fill_hand(
    form: Form, rng: random.Random, trick_total: int
) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    """What a player taps and types into ``form``, and the hand it means, to check later: its
    number, dealer and §9.3 fields (``CHECKED_FIELDS``).

    Hidden inputs go back as they came, and so does the dealer the form offers; the bid stays at
    what the form offers (the minimum). Every side's meld is typed, in tens from 20 (valid in
    every variant, rule of 20 included), and the trick points of all sides but the last, in tens
    within the hand's ``trick_total`` (the form works out the last: the rest of the total).
    """
    data: list[tuple[str, str]] = []
    choices: dict[str, list[str]] = defaultdict(list)
    melds = sorted((c.name for c in form.controls if c.name.startswith("meld_")), key=_side)
    tricks = sorted((c.name for c in form.controls if c.name.startswith("tricks_")), key=_side)
    share = trick_total // (10 * max(1, len(tricks)))
    typed = {name: str(10 * rng.randint(2, 6)) for name in melds}
    typed |= {name: str(10 * rng.randint(0, share)) for name in tricks[:-1]}
    typed |= dict.fromkeys(tricks[-1:], "")
    for control in form.controls:
        if not control.name or control.type in ("submit", "button", "reset", "image", "checkbox"):
            continue
        if control.type == "radio":
            choices[control.name].append(control.value)
        else:
            data.append((control.name, typed.get(control.name, control.value)))
    chosen = {name: rng.choice(values) for name, values in choices.items()}
    chosen["trump"] = rng.choice([v for v in choices["trump"] if v in TRUMPS] or choices["trump"])
    data += chosen.items()
    data.append(_submit_button(form))
    sent = dict(data)
    trick_points = [int(typed[name]) for name in tricks[:-1]]
    entry = {
        "number": int(sent["number"]),
        "dealer": int(sent["dealer"]),
        "bidder": int(chosen["bidder"]),
        "bid": int(sent["bid"]),
        "trump": chosen["trump"],
        "meld": [int(typed[name]) for name in melds],
        "tricks": [*trick_points, trick_total - sum(trick_points)],
    }
    return data, entry


def _side(name: str) -> int:
    return int(name.rsplit("_", 1)[1])


def _submit_button(form: Form) -> tuple[str, str]:
    """The button that records the hand: not the bid stepper's, not "count it"."""
    buttons = [c for c in form.controls if c.type == "submit" and c.name not in ("bid_step", "count_meld")]
    button = next((b for b in buttons if b.name == "save"), buttons[0] if buttons else None)
    return (button.name, button.value) if button and button.name else ("save", "1")


async def _timed(stats: Stats, kind: str, call: Awaitable[Response], ok: tuple[int, ...]) -> Response | None:
    start = stats.now()
    try:
        response = await call
    except BrowserError as error:
        stats.errors.append((start, stats.now(), f"{kind}: {error}"))
        stats.answered.append((start, False))
        return None
    if start >= stats.warmup:
        stats.times[kind].append(response.seconds)
        if kind == HAND_POST:
            stats.hand_posts.append((start, response.seconds))
    good = response.status in ok
    stats.answered.append((start, good))
    if not good:
        stats.errors.append((start, stats.now(), f"{kind}: status {response.status}"))
    return response


async def play(player: Player, port: int, stats: Stats, deadline: float, options: Options) -> None:
    rng = random.Random(options.seed * 100_003 + player.index)
    browser = Browser(HOST, port, cookies={settings.SESSION_COOKIE_NAME: player.session})
    try:
        while stats.now() < deadline:
            game_id = player.games[-1]
            page = await _timed(stats, GAME_PAGE, browser.get(reverse("game", args=[game_id])), (200,))
            form = hand_form(page.text) if page and page.status == 200 else None
            if page and page.status == 200 and form is None:  # the game is over: start another
                player.games.append(await asyncio.to_thread(_new_game_in_thread, player))
                continue
            if form:
                data, entry = fill_hand(form, rng, player.trick_total)
                answer = await _timed(stats, HAND_POST, browser.post(form.action, data), (302,))
                if answer and answer.status == 302:
                    stats.acked[game_id].append(entry)
                elif answer and answer.status == 200:
                    sent, answered, _ = stats.errors[-1]
                    stats.errors[-1] = (sent, answered, f"{HAND_POST}: refused: {_refusal(answer.text)}")
            await _timed(stats, BARE, browser.get(reverse("health")), (200,))
            if options.think:
                await asyncio.sleep(rng.expovariate(1 / options.think))
    finally:
        await browser.close()


def _refusal(html: str) -> str:
    start = html.find('class="errorlist')
    return " ".join(html[start : start + 300].split()) if start >= 0 else "no message found"


async def practise(index: int, port: int, stats: Stats, deadline: float, options: Options) -> None:
    """An anonymous visitor playing practice games against the bots, the variants in turn.

    Between taps a visitor pauses ``think`` seconds on average, as the players do between rounds.
    Each visitor comes from its own address (TEST-NET-3, through the proxy header the server is
    told to trust), as visitors at their own tables do. A game that ends, or that asks for what
    this client cannot choose from the page, is followed by a new one. A request turned away (429
    over a limit, 503 bots busy) is counted apart, not as an error, and waited out as its
    ``Retry-After`` says (at most 5 s).

    With a ``practice_mix``, each turn is a move, a hint or a review, drawn in its proportions; a
    hint the page does not offer (not the visitor's decision) or a review with no hand over yet
    is a move instead. Its games are started with the bidder's throw-in allowed, so the throw-in
    offer (weighed by the expert) appears where the visitor's bid is made after meld, and a move
    turned away is tried again in the same game (without a mix, a new game is started), so that
    hands end and can be reviewed.
    """
    rng = random.Random(options.seed * 7_919 + index)
    variant = options.variants[index % len(options.variants)]
    browser = Browser(HOST, port, extra_headers={"X-Forwarded-For": f"203.0.113.{index % 254 + 1}"})
    mixed = options.practice_mix != ONLY_MOVES
    game: str | None = None
    try:
        while stats.now() < deadline:
            if game is None:
                answer = await _practice_start(
                    browser, stats, variant, options.practice_strength, concede=mixed
                )
            else:
                page = await _timed(stats, PRACTICE_PAGE, browser.get(game), (200,))
                html = page.text if page and page.status == 200 else ""
                if mixed and await _hint_or_review(browser, stats, html, rng, options):
                    continue
                move = practice_move(read_forms(html), rng) if html else None
                if move is None:  # the game is over (or unreadable): start another
                    game = None
                    continue
                if mixed:
                    stats.practice_asked[MOVES] += 1
                    stats.practice_asked["concede offers"] += 'name="concede"' in html
                answer = await _timed(stats, PRACTICE_POST, browser.post(*move), (302, *TURNED_AWAY))
            if answer is None or answer.status != 302:  # an error (recorded) or over a limit
                turned_away = answer is not None and answer.status in TURNED_AWAY
                if not (mixed and turned_away):  # with a mix, the same game again: its hands are reviewed
                    game = None
                if answer is not None and turned_away:
                    stats.practice_turned_away[answer.status] += 1
                await asyncio.sleep(min(5.0, float(answer.header("retry-after") or 1) if answer else 1.0))
                continue
            game = answer.header("location")
            if (number := _practice_id(game)) and number not in stats.practice_games:
                stats.practice_games.append(number)
            if options.think:  # a visitor looks at the bots' moves before the next tap
                await asyncio.sleep(rng.expovariate(1 / options.think))
    finally:
        if session := browser.cookies.get(settings.SESSION_COOKIE_NAME):
            stats.practice_sessions.append(session)
        await browser.close()


async def _hint_or_review(
    browser: Browser, stats: Stats, html: str, rng: random.Random, options: Options
) -> bool:
    """A turn of the mix that is not a move: a hint (the page's Hint link, asked as htmx asks) or
    a hand's review (the newest the page links, polled as htmx polls it while it says "working…");
    whether one was asked for. Turned away, it is waited out as its ``Retry-After`` says."""
    kinds, weights = zip(*options.practice_mix, strict=True)
    kind = rng.choices(kinds, weights)[0]
    hints, reviews = HINT_LINK.findall(html), REVIEW_LINK.findall(html)
    if kind == HINTS and hints:
        stats.practice_asked[HINTS] += 1
        answer = await _timed(stats, PRACTICE_HINT, browser.get(hints[0], HTMX), (200, *TURNED_AWAY))
    elif kind == REVIEWS and reviews:
        stats.practice_asked[REVIEWS] += 1
        answer = await _review(browser, stats, reviews[-1])
    else:
        return False
    if answer is not None and answer.status in TURNED_AWAY:
        stats.practice_turned_away[answer.status] += 1
        await asyncio.sleep(min(5.0, float(answer.header("retry-after") or 1)))
    elif options.think:  # a visitor reads the hint or the review before the next tap
        await asyncio.sleep(rng.expovariate(1 / options.think))
    return True


async def _review(browser: Browser, stats: Stats, url: str) -> Response | None:
    """A hand's review page, then its htmx polls until it is worked out (at most ``REVIEW_POLLS``)."""
    answer = await _timed(stats, PRACTICE_REVIEW, browser.get(url), (200, *TURNED_AWAY))
    for _ in range(REVIEW_POLLS):
        if answer is None or answer.status != 200 or STILL_WORKING not in answer.text:
            break
        await asyncio.sleep(REVIEW_POLL_SECONDS)
        stats.practice_asked["review polls"] += 1
        answer = await _timed(stats, PRACTICE_REVIEW, browser.get(url, HTMX), (200, *TURNED_AWAY))
    return answer


async def _practice_start(
    browser: Browser, stats: Stats, variant: str, strength: str, *, concede: bool = False
) -> Response | None:
    """The start form as the page offers it, with these bots; passing off where it is offered
    (the cards to pass are a choice this client does not make); with ``concede``, the bidder
    may throw the hand in."""
    start = f"{reverse('practice')}?variant={variant}"
    page = await _timed(stats, PRACTICE_PAGE, browser.get(start), (200,))
    form = next((f for f in read_forms(page.text) if "strength" in f.names), None) if page else None
    if form is None:
        return None
    data = [(name, value) for name, value in as_sent(form) if name not in ("strength", "pass_cards")]
    data += [("strength", strength), *([("pass_cards", "0")] if "pass_cards" in form.names else [])]
    if concede and "bidder_may_concede" not in dict(data):
        data.append(("bidder_may_concede", "on"))
    return await _timed(stats, PRACTICE_POST, browser.post(form.action, data), (302, *TURNED_AWAY))


def as_sent(form: Form) -> list[tuple[str, str]]:
    """What a browser sends for ``form`` when nobody changes anything (no button)."""
    sent = []
    for control in form.controls:
        if not control.name or control.disabled or control.type in ("submit", "button", "reset", "image"):
            continue
        if control.type in ("radio", "checkbox") and not control.checked:
            continue
        sent.append((control.name, control.value or ("on" if control.type == "checkbox" else "")))
    return sent


def practice_move(forms: list[Form], rng: random.Random) -> tuple[str, list[tuple[str, str]]] | None:
    """What a visitor taps on the practice page, as (action, data): one of the bids, trumps,
    playable cards or throw-in answers the page offers, else "Next hand"; None when it offers
    neither."""
    taps = [
        (form, button)
        for form in forms
        if form.method == "post" and form.action.endswith("/act/")
        for button in form.controls
        if button.type == "submit" and button.name in TAPPED and not button.disabled
    ]
    nexts = [(form, None) for form in forms if form.method == "post" and form.action.endswith("/next/")]
    if not (taps or nexts):
        return None
    form, button = rng.choice(taps) if taps else nexts[0]
    data = [(c.name, c.value) for c in form.controls if c.type == "hidden" and c.name]
    return form.action, data + ([(button.name, button.value)] if button else [])


def _practice_id(url: str) -> int | None:
    parts = [part for part in url.split("/") if part]
    return int(parts[-1]) if len(parts) >= 2 and parts[-2] == "practice" and parts[-1].isdigit() else None


async def guess(index: int, port: int, stats: Stats, deadline: float) -> None:
    """Wrong passwords in a loop, as in the report that asked for log-in limits."""
    browser = Browser(HOST, port, extra_headers={"X-Forwarded-For": GUESSER_ADDRESS})
    login = reverse("login")
    try:
        while stats.now() < deadline:
            page = await browser.get(login)
            form = next((f for f in read_forms(page.text) if "password" in f.names), None)
            if form is None:
                break
            data = [(c.name, c.value) for c in form.controls if c.type == "hidden"]
            data += [("username", f"loadtest-guess-{index}"), ("password", uuid.uuid4().hex)]
            answer = await browser.post(login, data)
            stats.guesses[answer.status] += 1
    except BrowserError:
        pass  # a guesser's trouble is not the players'
    finally:
        await browser.close()


async def disrupt(command: str, at: float, stats: Stats) -> None:
    await asyncio.sleep(max(0.0, at - stats.now()))
    began = stats.now()
    process = await asyncio.create_subprocess_shell(command)
    await process.wait()
    stats.disrupted = (began, stats.now())


async def pause_redis(pids: tuple[int, ...], seconds: float, at: float, stats: Stats) -> None:
    """The local Redis stopped (SIGSTOP: its connections stay open, nothing answers) for
    ``seconds``, then let go on whatever happens meanwhile (``redis_let_go`` too, around the run)."""
    await asyncio.sleep(max(0.0, at - stats.now()))
    began = stats.now()
    try:
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        await asyncio.sleep(seconds)
    finally:
        redis_let_go(pids)
    stats.disrupted = (began, stats.now())


def redis_let_go(pids: tuple[int, ...]) -> None:
    for pid in pids:
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)


def redis_pids() -> tuple[int, ...]:
    """The redis-server processes on this machine."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with suppress(OSError):
                if Path(f"/proc/{entry}/comm").read_text().strip() == "redis-server":
                    found.append(int(entry))
    return tuple(found)


async def drive(players: list[Player], port: int, options: Options, *, alone: bool = False) -> Stats:
    """One timed run; ``alone``: the players only (no visitors, guessers or disruption)."""
    stats = Stats(warmup=options.warmup)
    cpu = time.process_time()
    end = options.warmup + options.seconds
    tasks = [play(player, port, stats, end, options) for player in players]
    if not alone:
        tasks += [guess(index, port, stats, end) for index in range(options.guessers)]
        tasks += [practise(index, port, stats, end, options) for index in range(options.practice_players)]
    if options.disrupt and not alone:
        tasks.append(disrupt(options.disrupt, options.warmup + options.disrupt_at, stats))
    if options.pause_redis and not alone:
        at = options.warmup + options.disrupt_at
        tasks.append(pause_redis(options.redis_pids, options.pause_redis, at, stats))
    if options.tables:  # the server's CPU alone too: what the tables cost is the difference
        tasks.append(_server_cpu(port, stats, end, then_idle=not alone))
    if options.tables and not alone:
        tasks.append(_tables(port, options, stats, end))
    await asyncio.gather(*tasks)
    stats.ended = min(stats.now(), end) if options.tables and not alone else stats.now()
    stats.cpu = time.process_time() - cpu
    return stats


TABLES_IDLE_SECONDS = 10.0  # after the run, the tables' phones stay connected this long, idle


async def _tables(port: int, options: Options, stats: Stats, end: float) -> None:
    """The tables' phones, in a process of their own (``tables_apart``) on the same timeline."""
    finish = time.monotonic() + end - stats.now()  # the run's end on the clock every process shares
    ends = (finish, finish + TABLES_IDLE_SECONDS)
    variants = tuple(options.variants)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as apart:
        stats.tables = await asyncio.get_running_loop().run_in_executor(
            apart,
            tables_apart,
            HOST,
            port,
            options.tables,
            ends,
            options.table_think,
            variants,
            options.table_people,
        )


async def _server_cpu(port: int, stats: Stats, end: float, *, then_idle: bool) -> None:
    """The server's CPU over the timed run, then (``then_idle``) over the tables' idle seconds."""
    await asyncio.sleep(max(0.0, stats.warmup - stats.now()))
    started = server_cpu_seconds(port)
    await asyncio.sleep(max(0.0, end - stats.now()))
    ended = server_cpu_seconds(port)
    stats.server_cpu = ended - started
    if not then_idle:
        return
    await asyncio.sleep(1.0)  # the last answers go out
    idle = server_cpu_seconds(port)
    await asyncio.sleep(TABLES_IDLE_SECONDS - 2.0)
    stats.idle_cpu = (server_cpu_seconds(port) - idle) / (TABLES_IDLE_SECONDS - 2.0)


async def final_totals(players: list[Player], port: int) -> dict[int, list[int] | None]:
    """Each game's totals as its page shows them (None when the page shows none it can read)."""
    shown: dict[int, list[int] | None] = {}
    for player in players:
        browser = Browser(HOST, port, cookies={settings.SESSION_COOKIE_NAME: player.session})
        for game_id in player.games:
            try:
                page = await browser.get(reverse("game", args=[game_id]))
            except BrowserError:
                page = None
            shown[game_id] = page_totals(page.text) if page and page.status == 200 else None
        await browser.close()
    return shown


class _Totals(HTMLParser):
    """The numbers of the scoreboard's ``data-side`` elements, in side order."""

    def __init__(self) -> None:
        super().__init__()
        self.sides: dict[int, str] = {}
        self._side: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        side = dict(attrs).get("data-side")
        if side is not None and side.isdigit() and int(side) not in self.sides:
            self._side = int(side)
            self.sides[self._side] = ""

    def handle_data(self, data: str) -> None:
        if self._side is not None:
            self.sides[self._side] += data

    def handle_endtag(self, tag: str) -> None:
        self._side = None


def page_totals(html: str) -> list[int] | None:
    reader = _Totals()
    reader.feed(html)
    try:
        return [int(reader.sides[side].strip()) for side in sorted(reader.sides)] or None
    except ValueError:
        return None


# ---- checking and reporting ------------------------------------------------------------------


@dataclass
class Comparison:
    """What the database holds against what the server acknowledged, each problem in words."""

    stored: int = 0
    lost: list[str] = field(default_factory=list)  # acknowledged, then not stored as acknowledged
    unacknowledged: list[str] = field(default_factory=list)  # stored, never acknowledged
    duplicates: list[str] = field(default_factory=list)  # one game's hand number twice
    unreadable: list[str] = field(default_factory=list)  # games that could not be read back


def compare(
    acked: Mapping[int, list[dict[str, Any]]], stored: Mapping[int, list[dict[str, Any]] | None]
) -> Comparison:
    """Every acknowledged hand against the stored hand of its game and number, field by field
    (``CHECKED_FIELDS``); every stored hand nobody acknowledged, and any number twice.

    ``stored`` maps each game to its hands as read back (``number`` and ``dealer`` with the §9.3
    fields), or to None when the game could not be read; a game missing from it was not found.
    """
    found = Comparison()
    for game in sorted(set(acked) | set(stored)):
        hands = stored.get(game)
        if hands is None:
            found.unreadable.append(f"game {game} could not be read back")
            found.lost += [f"game {game} hand {h['number']}: its game is gone" for h in acked.get(game, [])]
            continue
        found.stored += len(hands)
        by_number: dict[int, dict[str, Any]] = {}
        for hand in hands:
            if hand["number"] in by_number:
                found.duplicates.append(f"game {game} hand {hand['number']}: stored twice")
            by_number.setdefault(hand["number"], hand)
        acked_numbers = set()
        for hand in acked.get(game, []):
            number = hand["number"]
            if number in acked_numbers:
                found.duplicates.append(f"game {game} hand {number}: acknowledged twice")
            acked_numbers.add(number)
            kept = by_number.get(number)
            differ = [key for key in CHECKED_FIELDS if kept is not None and kept.get(key) != hand[key]]
            if kept is None:
                found.lost.append(f"game {game} hand {number}: not stored")
            elif differ:
                changes = ", ".join(f"{key} {kept.get(key)} not {hand[key]}" for key in differ)
                found.lost.append(f"game {game} hand {number}: stored with {changes}")
        found.unacknowledged += [
            f"game {game} hand {number}: stored, never acknowledged"
            for number in sorted(set(by_number) - acked_numbers)
        ]
    return found


def stored_hands(game_ids: list[int]) -> dict[int, list[dict[str, Any]] | None]:
    """Each game's hands as stored (number, dealer and §9.3 fields); a game not found is left out."""
    games = Game.objects.filter(pk__in=game_ids).prefetch_related("hands")
    return {
        game.pk: [{"number": h.number, "dealer": h.dealer, **h.entry()} for h in game.hands.all()]
        for game in games
    }


def check(players: list[Player], stats: Stats, shown: dict[int, list[int] | None]) -> dict[str, Any]:
    connections.close_all()  # a database restarted mid-run broke this process's connection
    game_ids = [g for p in players for g in p.games]
    found = compare(stats.acked, {game: None for game in game_ids} | stored_hands(game_ids))
    checked = 0
    differ = []
    for game in Game.objects.filter(pk__in=game_ids).prefetch_related("hands"):
        score = game_score(game)
        if game.finished != score.finished or list(game.winner_sides) != list(score.winners):
            differ.append(f"game {game.pk}: stored result {game.finished}, engine {score.finished}")
        if shown.get(game.pk) is None:
            found.unreadable.append(f"game {game.pk}: its page shows no totals")
        else:
            checked += 1
            if shown[game.pk] != list(score.totals):
                differ.append(f"game {game.pk}: page shows {shown[game.pk]}, engine {list(score.totals)}")
    return {"comparison": found, "totals_checked": checked, "totals_differ": differ}


def _percentiles(times: list[float]) -> dict[str, float]:
    if not times:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    at = {f"p{share}": round(percentile(times, share) * 1000, 1) for share in (50, 95, 99)}
    return {"n": len(times), **at, "max": round(max(times) * 1000, 1)}


def disruption_window(stats: Stats) -> tuple[float, float] | None:
    """From the disruption's start to the first success of a request sent after it ended."""
    if stats.disrupted is None:
        return None
    began, ended = stats.disrupted
    back = min((start for start, ok in stats.answered if ok and start >= ended), default=stats.now())
    return began, back


def errors_outside(
    errors: list[tuple[float, float, str]], window: tuple[float, float] | None
) -> list[tuple[float, float, str]]:
    """The errors of requests that were not in flight at any time in the window."""
    return [e for e in errors if window is None or e[1] < window[0] or e[0] > window[1]]


def report(
    options: Options,
    players: list[Player],
    stats: Stats,
    checked: dict[str, Any],
    log: Path,
    alone: Stats | None = None,
) -> Report:
    elapsed = stats.ended - stats.warmup
    mixed = options.practice_mix != ONLY_MOVES
    measured = sum(1 for start, _ in stats.answered if start >= stats.warmup)
    window = disruption_window(stats)
    outside = errors_outside(stats.errors, window)
    kinds = (
        HAND_POST,
        GAME_PAGE,
        BARE,
        *((PRACTICE_POST, PRACTICE_PAGE) if options.practice_players else ()),
        *((PRACTICE_HINT, PRACTICE_REVIEW) if options.practice_players and mixed else ()),
    )
    percentiles = {kind: _percentiles(stats.times[kind]) for kind in kinds}
    bare = percentiles[BARE]["p95"]
    alone_ms = _percentiles(alone.times[HAND_POST]) if alone else None
    in_window = [s for sent, s in stats.hand_posts if window and window[0] <= sent <= window[1]]
    window_ms = _percentiles(in_window) if window else None
    found: Comparison = checked["comparison"]
    problems = [*found.unreadable, *found.lost, *found.duplicates, *found.unacknowledged]
    db = connection.settings_dict
    return Report(
        users=options.users,
        seconds=round(elapsed, 1),
        database=f"{connection.vendor} {db['NAME']}",
        # --workers wins over WEB_CONCURRENCY (production_server), which wins over the default.
        workers=f"{options.workers or gunicorn_conf.workers} workers",
        requests=measured,
        requests_per_second=round(measured / elapsed, 1),
        percentiles_ms=percentiles,
        ratio=round(percentiles[HAND_POST]["p95"] / bare, 2) if bare else 0.0,
        errors=len(stats.errors),
        errors_outside_window=len(outside),
        window=None
        if window is None
        else (round(window[0] - stats.warmup, 1), round(window[1] - stats.warmup, 1)),
        first_errors=[
            f"{t - stats.warmup:.1f} s {what}"
            for t, _, what in [*(alone.errors if alone else []), *(outside or stats.errors)][:5]
        ],
        acknowledged=sum(len(hands) for hands in stats.acked.values()),
        stored=found.stored,
        lost=len(found.lost),
        unacknowledged=len(found.unacknowledged),
        duplicates=len(found.duplicates),
        unreadable=len(found.unreadable),
        first_problems=problems[:5],
        games=sum(len(player.games) for player in players),
        totals_checked=checked["totals_checked"],
        totals_differ=checked["totals_differ"][:5],
        guesses=dict(stats.guesses),
        client_cpu_seconds=round(stats.cpu, 1),
        server_log=str(log),
        practice_players=options.practice_players,
        practice_strength=options.practice_strength if options.practice_players else "",
        practice_turned_away=dict(stats.practice_turned_away),
        practice_mix=",".join(f"{kind}:{weight:g}" for kind, weight in options.practice_mix) if mixed else "",
        practice_asked={kind: stats.practice_asked.get(kind, 0) for kind in ASKED} if mixed else {},
        alone_ms=alone_ms,
        alone_errors=len(alone.errors) if alone else 0,
        slowdown=round(percentiles[HAND_POST]["p95"] / alone_ms["p95"], 2)
        if alone_ms and alone_ms["p95"]
        else 0.0,
        pause_redis=options.pause_redis,
        window_ms=window_ms,
        window_slowdown=round(window_ms["p95"] / alone_ms["p95"], 2)
        if window_ms and alone_ms and alone_ms["p95"]
        else 0.0,
        **_tables_report(options, stats, elapsed, alone),
        **_idle_report(options, stats),
    )


def _idle_report(options: Options, stats: Stats) -> dict[str, Any]:
    if not options.idle_streams:
        return {}
    idle = stats.idle or IdleStats(asked=options.idle_streams, errors=["the idle streams never reported"])
    return {
        "idle_streams": idle.asked,
        "idle_held": idle.held,
        "idle_held_at_end": idle.held_at_end,
        "idle_refused": idle.refused,
        "idle_refused_by": idle.refused_by,
        "idle_never_held": idle.never_held,
        "idle_dropped": idle.dropped,
        "idle_opening_seconds": idle.opening_seconds,
        "idle_errors": idle.errors[:5],
    }


def _tables_report(options: Options, stats: Stats, elapsed: float, alone: Stats | None) -> dict[str, Any]:
    if not options.tables:
        return {}
    tables, phones = stats.tables, max(1, stats.tables.phones)
    # The server's CPU a second with the tables, less the scorekeepers' own (their run alone).
    alone_rate = alone.server_cpu / max(alone.ended - alone.warmup, 0.001) if alone else 0.0
    tables_rate = stats.server_cpu / max(elapsed, 0.001) - alone_rate
    stored = dict(PrivateTable.objects.filter(pk__in=tables.acknowledged).values_list("pk", "person_writes"))
    # The table counts the people's writes in the statement that stores each: one acknowledged and
    # not counted was lost, one counted twice was applied twice.
    lost = [
        f"table {pk}: {count} writes acknowledged, {stored.get(pk)} stored"
        for pk, count in tables.acknowledged.items()
        if stored.get(pk) != count
    ]
    return {
        "tables": options.tables,
        "table_think": options.table_think,
        "table_phones": tables.phones,
        "table_people": options.table_people,
        "card_to_phones_ms": _percentiles(tables.card_to_phones),
        "table_post_ms": _percentiles(tables.post),
        "table_writes": sum(tables.acknowledged.values()),
        "table_lost": lost[:5],
        "table_errors": tables.errors[:5],
        "cpu_ms_per_phone_second": round(tables_rate * 1000 / phones, 2),
        "idle_cpu_ms_per_phone_second": round(stats.idle_cpu * 1000 / phones, 3),
    }


def run(options: Options) -> Report:
    """With practice players, the players first play alone on the same server, then with them;
    their hands of both runs are checked."""
    run_id = uuid.uuid4().hex[:8]
    players = prepare(options, run_id)
    runs: list[Stats] = []
    idle_tables: list[int] = []
    try:
        with production_server(options.workers) as (port, log):
            if options.practice_players or options.tables or options.idle_streams:
                runs.append(asyncio.run(drive(players, port, options, alone=True)))
                start_new_games(players)
            if options.idle_streams:
                seats, idle_tables = idle_seats(options.idle_streams)
                with streams_held(HOST, port, seats) as held:
                    runs.append(asyncio.run(drive(players, port, options)))
                runs[-1].idle = held.stats
            else:
                runs.append(asyncio.run(drive(players, port, options)))
            shown = asyncio.run(final_totals(players, port))
        *alone, stats = runs
        for before in alone:  # one check over every hand of both runs
            for game, hands in before.acked.items():
                stats.acked[game] = [*hands, *stats.acked.get(game, [])]
        return report(options, players, stats, check(players, stats, shown), log, *alone)
    finally:
        redis_let_go(options.redis_pids)  # never left stopped, whatever stopped the run
        if not options.keep:
            connections.close_all()
            clean_up(players, runs, idle_tables)

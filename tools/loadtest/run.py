"""Drive the production server with simulated players, then check nothing was lost.

Each player has an account (a session made here, no password), a household and a game. In a
loop it opens the game page (the scoreboard), reads the hand form from the HTML as a browser
would (its action, hidden inputs such as the hand number and CSRF token, the choices offered),
taps a bidder and a trump, keeps the offered bid, types meld and trick points, and records the
hand; then it asks for the bare ``/health/`` view, whose time is the yardstick for the rest. A
hand counts as acknowledged when the server answers its POST with the redirect a browser follows.

Afterwards the database must hold every acknowledged hand of every game, and each game page's
totals, and the stored game's finished flag, must be what the engine scores from its record.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, connections
from django.urls import reverse

from pinochle_site import gunicorn_conf
from scorepad.engine.match import percentile
from scorepad.engine.variants import VARIANTS
from scorepad.models import Game, Household
from scorepad.selectors.games import game_score
from scorepad.services.games import game_start
from scorepad.services.households import household_create, player_create

from .browser import Browser, BrowserError, Form, Response, read_forms

HOST = "127.0.0.1"
# Games that never end within a run (a game that does is replaced by a new one).
GAME_RULES = {"target": 50_000}
# Worked out once: the load client shares the cores with the server it measures.
TRICK_TOTALS = {vid: v.trick_points_total(v.settings(GAME_RULES)) for vid, v in VARIANTS.items()}
MAX_SEATS = max(variant.seats for variant in VARIANTS.values())
TRUMPS = {"S", "H", "D", "C"}
GUESSER_ADDRESS = "198.51.100.7"  # TEST-NET: the guessers' lockout never touches a real address
HAND_POST, GAME_PAGE, BARE = "hand POST", "game page", "bare view"


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
    answered: list[tuple[float, bool]] = field(default_factory=list)  # (start, ok) of every request
    errors: list[tuple[float, float, str]] = field(default_factory=list)  # (sent, answered, what)
    acked: dict[int, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    guesses: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    disrupted: tuple[float, float] | None = None

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
    games: int
    totals_checked: int
    totals_differ: list[str]
    guesses: dict[int, int]
    client_cpu_seconds: float  # this process's share of the machine during the run
    server_log: str

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.errors_outside_window == 0 and not self.totals_differ


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


def _new_game_in_thread(player: Player) -> int:
    try:
        return new_game(player)
    finally:
        connection.close()


def clean_up(players: list[Player]) -> None:
    users = [player.user.pk for player in players]
    Game.objects.filter(household__members__in=users).delete()
    Household.objects.filter(members__in=users).delete()
    SessionStore.get_model_class().objects.filter(session_key__in=[p.session for p in players]).delete()
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
    """What a player taps and types into ``form``, and the §9.3 fields it means, to check later.

    Hidden inputs go back as they came; the bid stays at what the form offers (the minimum).
    Every side's meld is typed, in tens from 20 (valid in every variant, rule of 20 included),
    and the trick points of all sides but the last, in tens within the hand's ``trick_total``
    (the last is worked out by the form).
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
        elif control.tag == "select":
            data.append((control.name, control.value or next(iter(control.options), "")))
        else:
            data.append((control.name, typed.get(control.name, control.value)))
    chosen = {name: rng.choice(values) for name, values in choices.items()}
    chosen["trump"] = rng.choice([v for v in choices["trump"] if v in TRUMPS] or choices["trump"])
    data += chosen.items()
    data.append(_submit_button(form))
    entry = {
        "bidder": int(chosen["bidder"]),
        "bid": int(dict(data)["bid"]),
        "trump": chosen["trump"],
        "meld": [int(typed[name]) for name in melds],
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


async def drive(players: list[Player], port: int, options: Options) -> Stats:
    stats = Stats(warmup=options.warmup)
    cpu = time.process_time()
    end = options.warmup + options.seconds
    tasks = [play(player, port, stats, end, options) for player in players]
    tasks += [guess(index, port, stats, end) for index in range(options.guessers)]
    if options.disrupt:
        tasks.append(disrupt(options.disrupt, options.warmup + options.disrupt_at, stats))
    await asyncio.gather(*tasks)
    stats.ended = stats.now()
    stats.cpu = time.process_time() - cpu
    return stats


async def final_totals(players: list[Player], port: int) -> dict[int, list[int] | None]:
    """Each game's totals as its page shows them (None when the page shows none it can read)."""
    shown: dict[int, list[int] | None] = {}
    for player in players:
        browser = Browser(HOST, port, cookies={settings.SESSION_COOKIE_NAME: player.session})
        for game_id in player.games:
            page = await browser.get(reverse("game", args=[game_id]))
            shown[game_id] = page_totals(page.text)
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


def unmatched(acked: list[dict[str, Any]], stored: list[dict[str, Any]]) -> int:
    """Acknowledged hands missing from the stored ones, in order (a hand stored whose answer
    was lost in a restart may sit between them)."""
    position = missing = 0
    for hand in acked:
        found = next((i for i in range(position, len(stored)) if _same(hand, stored[i])), None)
        if found is None:
            missing += 1
        else:
            position = found + 1
    return missing


def _same(acked: dict[str, Any], stored: dict[str, Any]) -> bool:
    return all(stored[key] == acked[key] for key in ("bidder", "bid", "trump", "meld"))


def check(players: list[Player], stats: Stats, shown: dict[int, list[int] | None]) -> dict[str, Any]:
    connections.close_all()  # a database restarted mid-run broke this process's connection
    lost = stored = checked = 0
    differ = []
    for game in Game.objects.filter(pk__in=[g for p in players for g in p.games]).prefetch_related("hands"):
        hands = [hand.entry() for hand in game.hands.all()]
        stored += len(hands)
        lost += unmatched(stats.acked.get(game.pk, []), hands)
        score = game_score(game)
        if game.finished != score.finished or list(game.winner_sides) != list(score.winners):
            differ.append(f"game {game.pk}: stored result {game.finished}, engine {score.finished}")
        if shown.get(game.pk) is not None:
            checked += 1
            if shown[game.pk] != list(score.totals):
                differ.append(f"game {game.pk}: page shows {shown[game.pk]}, engine {list(score.totals)}")
    return {"lost": lost, "stored": stored, "totals_checked": checked, "totals_differ": differ}


def _percentiles(times: list[float]) -> dict[str, float]:
    if not times:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0}
    at = {f"p{share}": round(percentile(times, share) * 1000, 1) for share in (50, 95, 99)}
    return {"n": len(times), **at}


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
    options: Options, players: list[Player], stats: Stats, checked: dict[str, Any], log: Path
) -> Report:
    elapsed = stats.ended - stats.warmup
    measured = sum(1 for start, _ in stats.answered if start >= stats.warmup)
    window = disruption_window(stats)
    outside = errors_outside(stats.errors, window)
    percentiles = {kind: _percentiles(stats.times[kind]) for kind in (HAND_POST, GAME_PAGE, BARE)}
    bare = percentiles[BARE]["p95"]
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
        first_errors=[f"{t - stats.warmup:.1f} s {what}" for t, _, what in (outside or stats.errors)[:5]],
        acknowledged=sum(len(hands) for hands in stats.acked.values()),
        stored=checked["stored"],
        lost=checked["lost"],
        games=sum(len(player.games) for player in players),
        totals_checked=checked["totals_checked"],
        totals_differ=checked["totals_differ"][:5],
        guesses=dict(stats.guesses),
        client_cpu_seconds=round(stats.cpu, 1),
        server_log=str(log),
    )


def run(options: Options) -> Report:
    run_id = uuid.uuid4().hex[:8]
    players = prepare(options, run_id)
    try:
        with production_server(options.workers) as (port, log):
            stats = asyncio.run(drive(players, port, options))
            shown = asyncio.run(final_totals(players, port))
        return report(options, players, stats, check(players, stats, shown), log)
    finally:
        if not options.keep:
            connections.close_all()
            clean_up(players)

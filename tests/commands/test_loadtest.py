"""The load benchmark: its player fills the real hand form like a browser, its practice visitor
taps only what the practice page offers, its check catches every planted loss, and a short run
against gunicorn loses nothing (speed itself is for the command to print)."""

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from pinochle_site.tools.loadtest import run as run_module
from pinochle_site.tools.loadtest.browser import read_forms
from pinochle_site.tools.loadtest.run import (
    MIX_KINDS,
    ONLY_MOVES,
    PRACTICE_HINT,
    PRACTICE_REVIEW,
    Options,
    Player,
    Stats,
    _session_for,
    compare,
    disruption_window,
    errors_outside,
    fill_hand,
    hand_form,
    new_game,
    page_totals,
    practice_move,
    practise,
    stored_hands,
)
from pinochle_site.tools.loadtest.tables import people_seats
from scorepad import bot_pool
from scorepad.engine.game import from_json
from scorepad.engine.variants import VARIANTS
from scorepad.management.commands.loadtest import practice_mix
from scorepad.models import Game, PracticeGame
from scorepad.selectors.games import game_score
from scorepad.selectors.practice import SESSION_KEY
from scorepad.services.households import household_create, player_create
from scorepad.services.practice import practice_start

ROOT = Path(__file__).resolve().parents[2]


def loadtest_report(var_dir: Path, *arguments: str, timeout: float = 180) -> dict[str, Any]:
    """``manage.py loadtest ARGUMENTS --json`` run from the shell on its own SQLite in ``var_dir``
    (as a user runs it: no DATABASE_URL, a secret key of its own), which must exit 0: its report."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    env["VAR_DIR"] = str(var_dir)
    run = subprocess.run(
        [sys.executable, "manage.py", "loadtest", *arguments, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


@pytest.fixture
def player(db):
    def make(variant: str) -> Player:
        user = User.objects.create_user(f"lt-{variant}")
        household = household_create(user=user, name="Load")
        for seat in range(6):
            player_create(household=household, name=f"P{seat}")
        made = Player(0, user, household, variant, _session_for(user))
        made.games.append(new_game(made))
        return made

    return make


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_simulated_player_records_valid_hands_from_the_page_in_every_variant(client, player, variant):
    """Read from the page and posted as a browser would: hidden inputs kept, choices from the page."""
    someone = player(variant)
    client.force_login(someone.user)
    game_url = reverse("game", args=[someone.games[0]])
    rng = random.Random(3)
    posted = []
    for _ in range(5):
        form = hand_form(client.get(game_url).content.decode())
        if form is None:  # won (a real game, to its target): the page offers no next hand
            assert Game.objects.get(pk=someone.games[0]).finished
            break
        data, entry = fill_hand(form, rng, someone.trick_total)
        assert ("save", "1") in data
        assert any(name == "csrfmiddlewaretoken" for name, _ in data)
        response = client.post(form.action, dict(data))
        assert response.status_code == 302, response.content.decode()[:2000]
        posted.append(entry)
    game = Game.objects.get(pk=someone.games[0])
    found = compare({game.pk: posted}, stored_hands([game.pk]))  # every field: dealer and tricks too
    assert len(posted) >= 3
    assert (found.stored, found.lost, found.unacknowledged, found.duplicates) == (len(posted), [], [], [])
    assert page_totals(client.get(game_url).content.decode()) == list(game_score(game).totals)


def hand(number: int, **changes) -> dict:
    entry = {"number": number, "dealer": number % 4, "bidder": 1, "bid": 25, "trump": "H"}
    return entry | {"meld": [20, 30], "tricks": [120, 130]} | changes


def test_the_check_finds_each_planted_loss():
    acked = {1: [hand(0), hand(1), hand(2)], 2: [hand(n) for n in range(4)], 3: [hand(0), hand(1)]}
    stored = {
        1: None,  # three acknowledged hands sat in a game since deleted
        2: [hand(0), hand(1, tricks=[100, 150]), hand(2, tricks=[130, 120]), hand(3)],  # changed since
        3: [hand(0), hand(2, bid=hand(1)["bid"], dealer=hand(1)["dealer"])],  # one lost, a look-alike later
    }
    found = compare(acked, stored)
    assert found.unreadable == ["game 1 could not be read back"]
    assert found.lost == [
        "game 1 hand 0: its game is gone",
        "game 1 hand 1: its game is gone",
        "game 1 hand 2: its game is gone",
        "game 2 hand 1: stored with tricks [100, 150] not [120, 130]",
        "game 2 hand 2: stored with tricks [130, 120] not [120, 130]",
        "game 3 hand 1: not stored",
    ]
    assert found.unacknowledged == ["game 3 hand 2: stored, never acknowledged"]
    assert found.duplicates == []


def test_the_check_flags_hands_nobody_acknowledged_and_duplicates():
    assert compare({4: [hand(0), hand(1)]}, {4: [hand(0), hand(1)]}).lost == []
    found = compare({4: [hand(0), hand(0), hand(1)]}, {4: [hand(0), hand(1), hand(1), hand(2)], 5: []})
    assert found.duplicates == ["game 4 hand 1: stored twice", "game 4 hand 0: acknowledged twice"]
    assert found.unacknowledged == ["game 4 hand 2: stored, never acknowledged"]
    assert found.lost == found.unreadable == []
    assert compare({6: [hand(0)]}, {}).unreadable == ["game 6 could not be read back"]  # not found


def test_the_practice_visitor_plays_a_hand_tapping_only_what_the_page_offers(client, db):
    """Every tap is accepted (the version moves on each time) until the hand ends and "Next hand"."""
    game = practice_start(user=None, variant_id="six-handed", strength="easy", seed=4)
    session = client.session
    session[SESSION_KEY] = [game.pk]
    session.save()
    rng, url = random.Random(1), reverse("practice_game", args=[game.pk])
    while from_json(game.state).result is None:
        action, data = practice_move(read_forms(client.get(url).content.decode()), rng)
        assert action == reverse("practice_act", args=[game.pk])
        version = game.version
        assert client.post(action, dict(data)).status_code == 302
        game = PracticeGame.objects.get(pk=game.pk)
        assert game.version == version + 1, f"refused: {data}"
    action, data = practice_move(read_forms(client.get(url).content.decode()), rng)
    assert action == reverse("practice_next", args=[game.pk])


def test_only_requests_in_flight_during_a_restart_may_fail():
    stats = Stats(disrupted=(30.0, 34.0))  # the restart command ran from 30 s to 34 s
    stats.answered = [(33.0, False), (34.5, False), (35.0, True), (36.0, True)]
    window = disruption_window(stats)
    assert window == (30.0, 35.0)  # until the first success of a request sent after it
    errors = [(29.0, 30.5, "sent before, answered during"), (34.5, 34.9, "sent after, still down")]
    errors += [(28.0, 29.5, "answered before"), (36.0, 36.2, "after the first success")]
    assert [what for _, _, what in errors_outside(errors, window)] == [
        "answered before",
        "after the first success",
    ]
    assert errors_outside(errors, None) == errors


@pytest.mark.server
def test_a_short_run_of_every_kind_of_load_on_gunicorn_loses_nothing(migrated_var_dir):
    """One run of the production server under each load the command makes, at a small size: two
    scorekeepers and a password guesser, a practice visitor, a six-handed private table with a
    person at every seat (each card timed until the five other phones show it), and idle tables'
    event streams held open beside them. The scorekeepers play alone first, then with the rest."""
    practice = ["--practice-players", "1", "--practice-strength", "easy"]
    tables = ["--tables", "1", "--table-people", "6", "--table-think", "0", "--variants", "six-handed"]
    report = loadtest_report(
        migrated_var_dir,
        "--users",
        "2",
        "--seconds",
        "6",  # long enough for a visitor's retry after a 503 (bots busy) on a loaded machine
        "--warmup",
        "0",  # every answer timed, the server's first too: the counts below need no warm server
        "--guessers",
        "1",
        *practice,
        *tables,
        "--idle-streams",
        "30",
        timeout=240,
    )
    assert report["ok"] is True
    assert report["acknowledged"] > 0
    assert report["lost"] == report["errors"] == report["unacknowledged"] == report["unreadable"] == 0
    assert report["duplicates"] == 0
    # Each run starts on games of its own (and a game won is followed by another), all checked:
    assert report["totals_checked"] == report["games"] >= 4
    assert sum(report["guesses"].values()) > 0  # wrong passwords were posted alongside
    assert {"n", "p95"} <= set(report["alone_ms"])  # how many answers each: the machine's
    assert report["percentiles_ms"]["practice POST"]["n"] > 0
    # The private table:
    assert report["table_phones"] == 6
    assert report["table_writes"] > 0
    assert report["table_lost"] == report["table_errors"] == []
    assert report["card_to_phones_ms"]["n"] > 0  # a card played on one phone was timed to the others
    # The idle streams: each held (none over a cap at this size), and what they saw reported.
    assert report["idle_streams"] == 30
    assert report["idle_held"] > 0
    assert report["idle_held_at_end"] + report["idle_never_held"] <= 30
    assert report["idle_errors"] == []
    assert {"idle_refused", "idle_refused_by", "idle_dropped", "idle_opening_seconds"} <= set(report)


@pytest.mark.parametrize(
    ("variants", "words"),
    [("classic,bridge", r"--variants: unknown \['bridge'\]"), (",", "--variants: unknown none given")],
)
def test_bad_variants_are_named_in_one_line(variants, words):
    with pytest.raises(CommandError, match=words):
        call_command("loadtest", "--variants", variants)


@pytest.mark.parametrize(
    ("variants", "people", "words"),
    [
        (
            "classic,six-handed",
            "5",
            r"--table-people must be 1 to 4: the seats at a table of classic, six-handed",
        ),
        ("six-handed", "0", "--table-people must be 1 to 6"),
    ],
)
def test_more_people_than_seats_at_a_table_are_refused_in_one_line(variants, people, words):
    with pytest.raises(CommandError, match=words):
        call_command("loadtest", "--tables", "1", "--variants", variants, "--table-people", people)


def test_people_sit_spread_round_a_table_and_two_at_four_seats_are_partners():
    assert people_seats(4, 2) == [0, 2]
    assert people_seats(6, 2) == [0, 3]
    assert people_seats(6, 6) == [0, 1, 2, 3, 4, 5]
    assert people_seats(4, 1) == [0]


@pytest.mark.parametrize(
    ("mix", "words"),
    [
        ("moves,jumps", r"--practice-mix: cannot read 'jumps'"),
        ("moves,hints:0", r"--practice-mix: cannot read 'hints:0'"),
        ("moves,hints:x", r"--practice-mix: cannot read 'hints:x'"),
        ("moves,moves", r"--practice-mix: cannot read 'moves'"),
        ("hints,reviews", "--practice-mix: moves must be in it"),
    ],
)
def test_a_practice_mix_that_cannot_be_read_is_named_in_one_line(mix, words):
    with pytest.raises(CommandError, match=words):
        call_command("loadtest", "--practice-players", "1", "--practice-mix", mix)


def test_a_practice_mix_is_read_as_kinds_and_weights_and_needs_visitors():
    assert practice_mix("moves,hints,reviews", MIX_KINDS) == (
        ("moves", 1.0),
        ("hints", 1.0),
        ("reviews", 1.0),
    )
    assert practice_mix("moves:6, reviews:0.5", MIX_KINDS) == (("moves", 6.0), ("reviews", 0.5))
    assert practice_mix("moves", MIX_KINDS) == ONLY_MOVES
    with pytest.raises(CommandError, match="--practice-mix needs --practice-players"):
        call_command("loadtest", "--practice-mix", "moves,hints")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_visitors_with_a_mix_ask_for_hints_and_reviews_and_the_server_works_them(live_server, monkeypatch):
    """One visitor against the live server until a hand of theirs is reviewed (seconds): hints and
    reviews asked for and answered (no errors), and worked on by the server."""
    monkeypatch.setattr(run_module, "REVIEW_POLL_SECONDS", 0.0)
    port = int(live_server.url.rsplit(":", 1)[1])
    options = Options(
        variants=("classic",),
        practice_players=1,
        practice_strength="easy",
        practice_mix=(("moves", 3.0), ("hints", 1.0), ("reviews", 1.0)),
        warmup=0.0,
    )
    stats = Stats()
    asyncio.run(_practise_until_reviewed(port, stats, options))

    assert stats.errors == []
    assert stats.practice_asked["hints"] > 0
    assert stats.practice_asked["reviews"] > 0
    assert len(stats.times[PRACTICE_HINT]) >= stats.practice_asked["hints"]
    assert len(stats.times[PRACTICE_REVIEW]) >= stats.practice_asked["reviews"]
    games = PracticeGame.objects.filter(pk__in=stats.practice_games)
    assert any(game.reviews for game in games)  # the server worked on the reviews asked for
    assert all(game.settings.get("bidder_may_concede") for game in games)


async def _practise_until_reviewed(port: int, stats: Stats, options: Options) -> None:
    """The visitor plays until its first review is answered (a hand must end first), at most 60 s."""
    visitor = asyncio.create_task(practise(0, port, stats, 60.0, options))
    while not visitor.done() and not (stats.times[PRACTICE_REVIEW] and stats.times[PRACTICE_HINT]):
        await asyncio.sleep(0.05)
    visitor.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await visitor
    # The request the visitor gave up on goes on in the server's thread and may reach its bot only
    # now: wait until no bot has thought for a second, so none is left thinking into the next test.
    quiet_since, give_up = time.monotonic(), time.monotonic() + 30
    while time.monotonic() - quiet_since < 1.0 and time.monotonic() < give_up:
        if bot_pool.thinking_now():
            quiet_since = time.monotonic()
        await asyncio.sleep(0.05)


def test_a_redis_pause_is_refused_in_one_line_without_a_local_redis(monkeypatch):
    monkeypatch.setenv("CACHE_URL", "redis://cache.example.net:6379/0")
    with pytest.raises(CommandError, match="--pause-redis needs CACHE_URL naming a Redis on this machine"):
        call_command("loadtest", "--pause-redis", "20")


def test_a_paused_redis_is_let_go_when_the_run_fails_inside_the_pause():
    """The pause's own ``finally`` sends SIGCONT: a run cancelled mid-pause never leaves it stopped."""
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:

        async def cancelled_mid_pause() -> None:
            pause = asyncio.create_task(run_module.pause_redis((sleeper.pid,), 30.0, 0.0, Stats()))
            deadline = time.monotonic() + 10
            while _state(sleeper.pid) != "T" and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
            assert _state(sleeper.pid) == "T"  # stopped
            pause.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pause

        asyncio.run(cancelled_mid_pause())
        assert _state(sleeper.pid) in {"S", "R"}  # let go
    finally:
        sleeper.kill()
        sleeper.wait()


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


# A server's master and two workers, forked (each keeps the master's command line); each worker
# spends 0.3 s of CPU, then all wait to be measured.
FAKE_SERVER = """
import os, sys, time
for _ in range(2):
    if os.fork() == 0:
        began = time.process_time()
        while time.process_time() - began < 0.3:
            pass
        os.write(1, b"spent\\n")  # one write: two workers' prints had interleaved ("spentspent")
        time.sleep(30)
        sys.exit()
time.sleep(30)
"""


def test_the_servers_cpu_is_every_workers_not_one_of_theirs():
    from pinochle_site.tools.loadtest.tables import server_cpu_seconds

    port = 64999
    command = [sys.executable, "-c", FAKE_SERVER, "gunicorn", "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert [server.stdout.readline().strip() for _ in range(2)] == ["spent", "spent"]
        assert server_cpu_seconds(port) >= 0.55
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the master and its workers
        server.wait()

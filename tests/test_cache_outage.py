"""The cache is a helper, never a dependency: with the Redis named by ``CACHE_URL`` stopped or
paused, a hand is stored once and answered as stored, the household's pages read from the
database, a member logs in from a browser they used before, and the limits still hold (each
process counts on its own meanwhile); with the Redis back, the counts are shared again.

Each test starts its own ``redis-server`` (never the one other tests or servers share), so it can
stop and pause it. Without ``redis-server`` the tests skip on a laptop and fail in CI.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from pinochle_site.settings import cache_settings
from scorepad import throttle
from scorepad.models import Hand
from scorepad.selectors import games
from scorepad.services.games import game_start
from scorepad.services.households import household_create, player_create
from tests.helpers import PASSWORD, log_in
from tests.views.test_practice import start as start_practice

pytestmark = pytest.mark.django_db(transaction=True)  # a hand's tally is written on commit

PAUSED_ANSWER_SECONDS = 1.0  # a paused cache costs a request a short timeout, never seconds
RETRY_SECONDS = 1.0


class RedisServer:
    """A ``redis-server`` of this test's own, in memory only, on a free port."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as connection:
                    connection.sendall(b"PING\r\n")
                    if connection.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)  # a paused server cannot stop
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process = None

    def pause(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)  # connections are accepted and never answered

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def keys(self) -> int:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as connection:
            connection.sendall(b"DBSIZE\r\n")
            return int(connection.recv(64).strip().lstrip(b":"))


@pytest.fixture
def redis_server(settings, monkeypatch) -> Iterator[RedisServer]:
    binary = shutil.which("redis-server")
    if binary is None:
        if os.getenv("CI"):
            pytest.fail("CI must test a cache outage: apt-get install redis-server")
        pytest.skip("redis-server is not installed")
    server = RedisServer(binary)
    server.start()
    settings.CACHES = {"default": cache_settings(server.url)}
    # After a failure the cache is left alone a while: a second here, so the test sees it come back.
    monkeypatch.setattr(throttle, "SHARED_CACHE_RETRY_SECONDS", RETRY_SECONDS)
    monkeypatch.setattr(games, "CACHE_REST_SECONDS", RETRY_SECONDS)
    try:
        yield server
    finally:
        if server.process is not None:
            server.stop()


@pytest.fixture
def table(client):
    """Ann's household and a classic game; ``client`` is Ann on a browser she logged in from before."""
    ann = User.objects.create_user("ann", password=PASSWORD)
    assert log_in(client, "ann").status_code == 302  # the browser is remembered (a signed cookie)
    household = household_create(user=ann, name="Smiths")
    players = [player_create(household=household, name=name) for name in ("Ann", "Bob", "Cat", "Dan")]
    game = game_start(
        household=household, variant_id="classic", overrides={}, players=players, first_dealer=0
    )
    return household, game


HAND = {"number": 0, "bidder": 1, "bid": 25, "trump": "H", "meld_0": 10, "meld_1": 12, "tricks_0": 15}


def pages(household, game) -> list[str]:
    return [
        reverse("home"),
        reverse("household", args=[household.pk]),
        reverse("history", args=[household.pk]),
        reverse("statistics", args=[household.pk]),
        reverse("game", args=[game.pk]),
    ]


def check_the_table_goes_on(client: Client, household, game) -> None:
    """A hand is stored once and answered as stored, every page reads, the member logs in again."""
    began = time.monotonic()
    recorded = client.post(reverse("hand_create", args=[game.pk]), HAND)
    assert time.monotonic() - began < PAUSED_ANSWER_SECONDS
    assert recorded.status_code == 302, recorded.content.decode()[:500]
    assert Hand.objects.filter(game=game).count() == 1
    for url in pages(household, game):
        began = time.monotonic()
        assert client.get(url).status_code == 200, url
        assert time.monotonic() - began < PAUSED_ANSWER_SECONDS, url
    client.post(reverse("logout"))
    assert log_in(client, "ann").status_code == 302  # a member on a browser she used before
    assert client.get(reverse("statistics", args=[household.pk])).status_code == 200


def check_limits_hold_in_this_process(settings) -> None:
    """A guesser still meets the lock while the cache is away (counted in this process)."""
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = (3, 900)
    guesser = Client()
    for _ in range(3):
        assert log_in(guesser, "ann", "guess", REMOTE_ADDR="10.0.0.7").status_code == 200
    assert log_in(guesser, "ann", REMOTE_ADDR="10.0.0.7").status_code == 429


def check_counts_are_shared_again(client: Client, redis_server: RedisServer, household, game) -> None:
    time.sleep(RETRY_SECONDS)
    assert client.get(reverse("statistics", args=[household.pk])).status_code == 200
    guesser = Client()
    assert log_in(guesser, "ann", "guess", REMOTE_ADDR="10.0.0.8").status_code == 200
    assert redis_server.keys() > 0  # the attempt and the tallies are in Redis again


@pytest.mark.slow  # a redis-server of its own
def test_a_stopped_cache_stops_no_hand_no_page_and_no_member(client, settings, redis_server, table):
    household, game = table
    redis_server.stop()
    check_the_table_goes_on(client, household, game)
    check_limits_hold_in_this_process(settings)
    redis_server.start()  # an empty Redis, as after a restart
    check_counts_are_shared_again(client, redis_server, household, game)


@pytest.mark.slow  # a redis-server of its own
def test_a_paused_cache_costs_a_short_timeout_not_the_table(client, settings, redis_server, table):
    household, game = table
    redis_server.pause()
    try:
        check_the_table_goes_on(client, household, game)
        check_limits_hold_in_this_process(settings)
    finally:
        redis_server.resume()
    check_counts_are_shared_again(client, redis_server, household, game)


def test_practice_budgets_still_hold_while_the_cache_is_stopped(client, settings, redis_server):
    settings.CPU_BUDGETS = {name: (2, 3, 600) for name in settings.CPU_BUDGETS}
    practice = start_practice(client)
    redis_server.stop()
    hints = [
        client.get(reverse("practice_game", args=[practice.pk]), {"hint": "1"}).status_code for _ in range(3)
    ]
    assert hints == [200, 200, 429]

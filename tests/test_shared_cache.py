"""Limits shared by every server: with ``CACHE_URL`` each server builds its own connection to one
Redis (``pinochle_site.settings.cache_settings``), and what one counts the others see. And a cache
that does not answer: no unlimited guessing, no 500.

Runs against a real ``redis-server`` (CI starts one and sets ``CACHE_URL``); in CI a missing
``CACHE_URL`` fails rather than skips, so the shared limits can never go untested.
"""

import os
import threading
import uuid

import pytest
from django.contrib.auth.models import User
from django.core.cache import CacheHandler
from django.test import Client
from django.urls import reverse
from django.utils.connection import ConnectionProxy

from pinochle_site.settings import cache_settings, database_namespace
from scorepad import throttle
from scorepad.live import bus
from tests.helpers import PASSWORD, log_in
from tests.views.test_practice import answer_of, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_settings():
    url = os.getenv("CACHE_URL", "").strip()
    if not url:
        if os.getenv("CI"):
            pytest.fail("CI must test the shared limits: start redis-server and set CACHE_URL")
        pytest.skip("CACHE_URL is not set: start redis-server and set CACHE_URL=redis://127.0.0.1:6379/0")
    # A prefix of its own: the Redis may be shared, and this test must neither see nor clear other keys.
    return {**cache_settings(url), "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}


def server(config):
    """One app server's cache connection, built from the settings as each server builds its own."""
    return CacheHandler({"default": config})["default"]


def test_two_servers_count_one_accounts_log_ins_together(client, settings, monkeypatch, redis_settings):
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = (3, 900)
    User.objects.create_user("ann", password=PASSWORD)
    first, second = server(redis_settings), server(redis_settings)
    assert first is not second
    assert type(first).__name__ == "RedisCache"
    try:
        monkeypatch.setattr(throttle, "cache", first)
        for _ in range(2):
            assert log_in(client, "ann", "guess").status_code == 200
        monkeypatch.setattr(throttle, "cache", second)  # the next guesses reach the other server
        assert log_in(client, "ann", "guess").status_code == 200
        refused = log_in(client, "ann")
        assert refused.status_code == 429
        assert "Too many wrong passwords for ann" in refused.content.decode()
        monkeypatch.setattr(throttle, "cache", first)
        assert log_in(client, "ann").status_code == 429  # and the first knows it too
    finally:  # only this test's keys, never FLUSHDB (cache.clear()) on a shared Redis
        redis = first._cache.get_client(write=True)
        if keys := redis.keys(f"{redis_settings['KEY_PREFIX']}:*"):
            redis.delete(*keys)


def test_a_cache_that_does_not_answer_lets_members_in_and_still_limits_guessers(
    client, monkeypatch, settings
):
    """Redis restarting: no unlimited guessing, no 500, no member refused, and the practice table
    keeps playing: each limit is counted in the process meanwhile."""
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = (3, 900)
    User.objects.create_user("ann", password=PASSWORD)
    game = start(client)
    monkeypatch.setattr(throttle, "cache", server(cache_settings("redis://127.0.0.1:1/0")))  # nobody there
    assert log_in(client, "ann").status_code == 302
    assert client.post(reverse("practice_act", args=[game.pk]), answer_of(game)).status_code == 302
    guesser = Client()
    for _ in range(3):
        assert log_in(guesser, "ann", "guess", REMOTE_ADDR="10.0.0.7").status_code == 200
    assert log_in(guesser, "ann", REMOTE_ADDR="10.0.0.7").status_code == 429


def test_servers_counting_at_the_same_moment_lose_no_attempt(monkeypatch, redis_settings):
    """Four threads, each with its own connection (as ``django.core.cache.cache`` gives each thread),
    fifty uses each, all at once: every use sees its own count, up to two hundred."""
    monkeypatch.setattr(
        throttle, "cache", ConnectionProxy(CacheHandler({"default": redis_settings}), "default")
    )
    limit = throttle.Limit("test-burst", 10_000, 60)
    counts: list[int] = []
    start_together = threading.Barrier(4)

    def count() -> None:
        start_together.wait()
        counts.extend(throttle.count_attempt(limit, "10.0.0.9") for _ in range(50))

    threads = [threading.Thread(target=count) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(counts) == list(range(1, 201))
    finally:
        redis = server(redis_settings)._cache.get_client(write=True)
        if keys := redis.keys(f"{redis_settings['KEY_PREFIX']}:*"):
            redis.delete(*keys)


def test_two_installations_on_one_redis_never_read_each_others_keys(redis_settings):
    """A staging and a production database (or two test runs) share one Redis: their events and
    tables have the same ids, so a cached standings of one must never be the other's."""
    databases = [
        {"ENGINE": "django.db.backends.sqlite3", "NAME": f"/srv/{name}/pinochle.sqlite3"}
        for name in ("staging", "production")
    ]
    namespaces = [f"{redis_settings['KEY_PREFIX']}-{database_namespace(db)}" for db in databases]
    staging, production = (server(cache_settings(redis_settings["LOCATION"], ns)) for ns in namespaces)
    assert database_namespace(databases[0]) == database_namespace(dict(databases[0]))
    try:
        staging.set("club-standings:v2:1:same-fingerprint", "staging's standings")
        assert production.get("club-standings:v2:1:same-fingerprint") is None
        production.set("club-standings:v2:1:same-fingerprint", "production's standings")
        assert staging.get("club-standings:v2:1:same-fingerprint") == "staging's standings"
    finally:
        redis = staging._cache.get_client(write=True)
        if keys := redis.keys(f"{redis_settings['KEY_PREFIX']}-*"):
            redis.delete(*keys)


def test_each_installation_hears_only_its_own_table_changes(settings):
    """The bus's one Redis channel is named after the installation too."""
    settings.CACHE_NAMESPACE = "staging"
    staging = bus.redis_channel()
    settings.CACHE_NAMESPACE = "production"
    assert bus.redis_channel() != staging

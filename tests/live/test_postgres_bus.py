"""The bus's way round a Redis that fails, through PostgreSQL: while a publish through Redis fails
(and while Redis rests after it) the change is notified through the database as well as told to
this process's streams, and each process's relay hands what it hears to its streams, its
connection closed when it ends."""

from __future__ import annotations

import asyncio
import os
import re

import pytest
from django.db import connection

from pinochle_site.settings import cache_settings
from scorepad.live import bus, postgres_bus
from tests.live.test_bus import run_alone

DEADLINE = 10  # for anything a step needs: a fraction of a second
LISTENING_NOW = (
    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %%'"
)
needs_postgres = pytest.mark.skipif(
    not os.getenv("DATABASE_URL", "").startswith("postgres"),
    reason="the database's notifications need the suite on PostgreSQL (DATABASE_URL=postgres://…)",
)


def test_while_redis_fails_on_postgresql_each_change_goes_through_the_database_too(settings, monkeypatch):
    settings.CACHES = {"default": cache_settings("redis://127.0.0.1:1/0")}  # nothing listens there
    monkeypatch.setattr(bus, "_failed_at", {})
    monkeypatch.setattr(postgres_bus, "available", lambda: True)
    notified: list[str] = []
    told: list[str] = []
    monkeypatch.setattr(postgres_bus, "notify", notified.append)
    monkeypatch.setattr(bus, "deliver", told.append)
    bus.publish(bus.table_channel(1))  # Redis refuses it
    bus.publish(bus.table_channel(2))  # Redis rests: not asked
    assert notified == told == ["table:1", "table:2"]


def test_while_the_redis_subscription_fails_a_new_stream_waits_for_the_database_alone(settings, monkeypatch):
    url = "redis://127.0.0.1:1/0"  # nothing listens there
    settings.CACHES = {"default": cache_settings(url)}
    monkeypatch.setattr(bus, "_failed_at", {})
    monkeypatch.setattr(bus, "_relays", {})
    monkeypatch.setattr(postgres_bus, "available", lambda: True)

    async def database(deliver: object, listening: asyncio.Event) -> None:
        listening.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(postgres_bus, "relay", database)

    async def two_streams() -> bool:
        first = await bus.listen(bus.table_channel(1))  # its relays start: Redis's fails
        while not bus._resting("subscribe", url):
            await asyncio.sleep(0.05)
        monkeypatch.setattr(bus, "SUBSCRIBE_WAIT_SECONDS", DEADLINE * 6)  # far past the deadline
        second = await bus.listen(bus.table_channel(1))
        first.close()
        second.close()
        return True

    assert run_alone(asyncio.wait_for(two_streams(), DEADLINE))


def test_the_channel_is_a_short_identifier_of_the_installation(settings):
    settings.CACHE_NAMESPACE = "staging-" + "x" * 80
    staging = postgres_bus.channel_name()
    assert re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", staging)
    settings.CACHE_NAMESPACE = "production"
    assert postgres_bus.channel_name() != staging


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_a_notified_change_reaches_the_relay_whose_connection_closes_when_it_is_cancelled():
    def listening_connections() -> int:
        try:
            with connection.cursor() as cursor:
                cursor.execute(LISTENING_NOW)
                return int(cursor.fetchone()[0])
        finally:  # each thread's connection closed: the test database is dropped after
            connection.close()

    def notified(channel: str) -> bool:
        try:
            return postgres_bus.notify(channel)
        finally:
            connection.close()

    async def relayed() -> list[str]:
        told: list[str] = []
        listening = asyncio.Event()
        relay = asyncio.create_task(postgres_bus.relay(told.append, listening))
        await listening.wait()
        assert await asyncio.to_thread(notified, bus.table_channel(7))
        while not told:
            await asyncio.sleep(0.05)
        relay.cancel()
        with pytest.raises(asyncio.CancelledError):
            await relay
        while listening_connections():  # the server sees it go
            await asyncio.sleep(0.05)
        return told

    assert run_alone(asyncio.wait_for(relayed(), DEADLINE)) == ["table:7"]

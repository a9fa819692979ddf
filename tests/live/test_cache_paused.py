"""A Redis paused or gone never stops a worker's event loop: a phone's stream that closes says its
goodbye to the cache (the presence mark) in a thread, while the loop goes on serving; the marks
stop asking a cache that just failed; the subscription's client is closed when it ends.

The paused cache here is a stand-in that blocks until the test resumes it (or a deadline far past
what any step needs), so nothing measures a time: a close that waited for it would still be
waiting, and the thread it waits in is named.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import pytest
from django.test import AsyncClient
from django.urls import reverse
from django.utils import timezone
from redis.exceptions import TimeoutError as RedisTimeout

from pinochle_site.settings import cache_settings
from scorepad.live import bus
from scorepad.models import TableSeat
from tests.live.test_bus import run_alone
from tests.views.test_tables import open_table

pytestmark = pytest.mark.django_db(transaction=True)

PAUSE_SECONDS = 30  # the stand-in's pause ends by itself after this, so a failing test still ends
DEADLINE = 10  # for anything a step needs: a fraction of a second


class PausedCache:
    """A cache that answers until ``pause``, then blocks each call until ``resume`` (and fails it,
    as Redis's client does after its timeout)."""

    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}
        self.paused = False
        self.entered = threading.Event()  # a call reached the paused cache
        self.resumed = threading.Event()
        self.returned = threading.Event()  # a call that reached the paused cache came back
        self.threads: list[str] = []  # the threads of the calls that reached it paused
        self.callers: set[str] = set()  # the threads of every call

    def pause(self) -> None:
        self.paused = True

    def _wait(self) -> None:
        self.callers.add(threading.current_thread().name)
        if self.paused:
            self.threads.append(threading.current_thread().name)
            self.entered.set()
            self.resumed.wait(PAUSE_SECONDS)
            self.returned.set()
            raise RedisTimeout("Timeout reading from socket")

    def get(self, key: str, default: Any = None) -> Any:
        self._wait()
        return self.kept.get(key, default)

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        self._wait()
        return {key: self.kept[key] for key in keys if key in self.kept}

    def set(self, key: str, value: Any, timeout: float | None = None) -> None:
        self._wait()
        self.kept[key] = value

    def delete(self, key: str) -> None:
        self._wait()
        self.kept.pop(key, None)


@pytest.fixture
def paused_cache(monkeypatch) -> Iterator[PausedCache]:
    cache = PausedCache()
    monkeypatch.setattr(bus, "cache", cache)
    monkeypatch.setattr(bus, "_failed_at", {})
    yield cache
    cache.resumed.set()
    bus._presence_thread.submit(lambda: None).result(DEADLINE)  # its goodbyes done, with this cache


def test_a_stream_closing_while_the_cache_is_paused_leaves_the_event_loop_free(paused_cache):
    table, phones = open_table(bots=2)
    cookie = phones[0].cookies[f"table-{table.pk}"].value
    key = f"table:{table.pk}:seat:0:seen"

    async def open_then_drop() -> tuple[str, bool, bool]:
        client = AsyncClient()
        client.cookies[f"table-{table.pk}"] = cookie
        response = await client.get(reverse("table_events", args=[table.pk]))
        shown = asyncio.Event()

        async def watch() -> None:
            async for chunk in response.streaming_content:
                if b"event: screen" in bytes(chunk):
                    shown.set()

        watching = asyncio.create_task(watch())
        await asyncio.wait_for(shown.wait(), DEADLINE)
        marked = paused_cache.kept.get(key) is not None
        paused_cache.pause()
        watching.cancel()  # the phone went away: the server cancels its stream, as Django's handler does
        with suppress(asyncio.CancelledError):
            await watching
        # The close is over and the goodbye not back from the paused cache: this loop did not wait...
        still_paused = not paused_cache.returned.is_set()
        # ...and the goodbye reached it, from another thread.
        loop = asyncio.get_running_loop()
        reached = await loop.run_in_executor(None, paused_cache.entered.wait, DEADLINE)
        return threading.current_thread().name, marked and reached, still_paused

    loop_thread, reached, closed_before_the_cache_answered = run_alone(open_then_drop())
    assert reached, "the stream marked its seat, and forgot it when it closed"
    assert closed_before_the_cache_answered
    assert paused_cache.threads
    assert loop_thread not in paused_cache.callers  # nor did the stream's mark, or anything else


def test_after_a_mark_fails_the_marks_go_to_the_seats_rows_without_asking_the_cache(paused_cache):
    table, _ = open_table()
    paused_cache.pause()
    paused_cache.resumed.set()  # each call fails at once now, as with a Redis that refuses
    bus.mark_present(table.pk, 0, "first")
    asked = len(paused_cache.threads)
    bus.mark_present(table.pk, 1, "second")
    bus.forget_present(table.pk, 0, "first")
    assert len(paused_cache.threads) == asked == 1
    assert TableSeat.objects.filter(table=table, seen_at__isnull=False).count() == 2


def test_the_subscription_to_a_redis_that_does_not_answer_gives_up_and_closes_its_client(settings):
    """A Redis that accepts connections and never answers (paused): the first stream waits a
    moment at most for the subscription, and each attempt's client is closed, not left to the
    garbage collector."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        settings.CACHES = {"default": cache_settings(url)}
        closed: list[object] = []

        async def listen_then_stop() -> bool:
            import redis.asyncio as aioredis

            close = aioredis.Redis.aclose

            async def counted(client: Any, *args: Any, **kwargs: Any) -> None:
                closed.append(client)
                await close(client, *args, **kwargs)

            aioredis.Redis.aclose = counted  # type: ignore[method-assign]
            try:
                listener = await asyncio.wait_for(bus.listen(bus.table_channel(1)), DEADLINE)
                listener.close()
                relay, _ = bus._relays["redis"]
                while not closed:  # the first attempt's subscription times out, its client closed
                    await asyncio.sleep(0.05)
                relay.cancel()
                with suppress(asyncio.CancelledError):
                    await relay
                return True
            finally:
                aioredis.Redis.aclose = close  # type: ignore[method-assign]

        assert run_alone(asyncio.wait_for(listen_then_stop(), DEADLINE * 3))
        assert closed


def test_after_a_publish_fails_the_changes_go_to_this_servers_streams_without_asking_redis(
    settings, monkeypatch
):
    settings.CACHES = {"default": cache_settings("redis://127.0.0.1:1/0")}
    monkeypatch.setattr(bus, "_failed_at", {})
    asked: list[str] = []

    class Paused:
        def publish(self, channel: str, message: str) -> None:
            asked.append(message)
            raise RedisTimeout("Timeout reading from socket")

    told: list[str] = []
    monkeypatch.setattr(bus, "_redis_client", lambda url: Paused())
    monkeypatch.setattr(bus, "deliver", told.append)
    bus.publish(bus.table_channel(1))
    bus.publish(bus.table_channel(2))
    assert asked == ["table:1"]
    assert told == ["table:1", "table:2"]


def test_after_the_cache_fails_the_clock_asks_it_once_whose_phones_are_there(paused_cache, monkeypatch):
    """The clock asks for every seat of every due table: a cache that does not answer must cost one
    timeout, not one per seat. Meanwhile everyone counts as there (their phones have not marked
    their rows yet); after the grace, a seat's row says."""
    table, _ = open_table()
    paused_cache.pause()
    paused_cache.resumed.set()  # each call fails at once now, as with a Redis that refuses
    monkeypatch.setattr(bus, "_cache_down_since", None)
    assert all(bus.present(table.pk, seat) for seat in range(4))
    assert len(paused_cache.threads) == 1
    monkeypatch.setattr(bus, "_cache_down_since", time.monotonic() - bus.CACHE_DOWN_GRACE_SECONDS)
    TableSeat.objects.filter(table=table, seat=2).update(seen_at=timezone.now())
    assert [bus.present(table.pk, seat) for seat in range(4)] == [False, False, True, False]
    assert len(paused_cache.threads) == 1


def test_a_phones_goodbye_tells_the_table_unless_a_newer_stream_marked_the_seat(monkeypatch):
    table, _ = open_table()
    told: list[str] = []
    monkeypatch.setattr(bus, "publish", told.append)
    bus.mark_present(table.pk, 1, "old")
    bus.mark_present(table.pk, 1, "reloaded")  # the reload's stream opened before the old closed
    bus.forget_present(table.pk, 1, "old")
    assert told == []
    assert bus.away_seats(table.pk, [1]) == frozenset()
    bus.forget_present(table.pk, 1, "reloaded")
    assert told == [bus.table_channel(table.pk)]
    assert bus.away_seats(table.pk, [1]) == {1}


def test_while_the_cache_does_not_answer_the_seats_away_are_read_from_the_rows(paused_cache, monkeypatch):
    table, _ = open_table()
    monkeypatch.setattr(bus, "_cache_down_since", None)
    paused_cache.pause()
    paused_cache.resumed.set()  # each call fails at once
    assert bus.away_seats(table.pk, [1, 2, 3]) == frozenset()  # the first moments: everyone there
    monkeypatch.setattr(bus, "_cache_down_since", bus._cache_down_since - bus.CACHE_DOWN_GRACE_SECONDS)
    bus.mark_present(table.pk, 2, "stream")  # to the seat's row
    assert bus.away_seats(table.pk, [1, 2, 3]) == {1, 3}

"""The one machine's file cache: room is looked for now and then, not at every set. The Redis
cache: one connection pool per process, whatever thread or task asks."""

from __future__ import annotations

import contextvars
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.cache import CacheHandler

from pinochle_site.cache import FileCache
from pinochle_site.settings import cache_settings


@pytest.fixture
def small_cache(tmp_path, monkeypatch):
    monkeypatch.setattr(FileCache, "_culled_at", -math.inf)
    return FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 4, "CULL_FREQUENCY": 2}})


def test_a_set_lists_the_directory_at_most_once_a_minute(small_cache, monkeypatch):
    listed = []
    real = small_cache._list_cache_files
    monkeypatch.setattr(small_cache, "_list_cache_files", lambda: listed.append(1) or real())
    for n in range(20):
        small_cache.set(f"counter-{n}", n)
    assert len(listed) == 1  # Django's own lists the whole directory at each of the 20
    assert small_cache.get("counter-19") == 19


def test_room_is_still_made_once_the_minute_has_passed(small_cache, monkeypatch):
    for n in range(20):
        small_cache.set(f"counter-{n}", n)
    assert len(small_cache._list_cache_files()) == 20  # looked at the first set only, when empty
    monkeypatch.setattr(FileCache, "_culled_at", -math.inf)  # a minute later
    small_cache.set("one-more", 1)
    assert len(small_cache._list_cache_files()) == 11  # half the 20 removed, then the new one
    assert small_cache.get("one-more") == 1


def test_every_cache_object_of_a_process_shares_one_redis_connection_pool():
    """Django makes a cache object per thread and per asyncio task: a stream's task's must not
    open a connection pool (and hold a connection) of its own."""
    config = cache_settings("redis://127.0.0.1:1/0")

    def pool() -> Any:
        return CacheHandler({"default": config})["default"]._cache._get_connection_pool(True)

    in_another_context = contextvars.copy_context().run(pool)
    with ThreadPoolExecutor(1) as thread:
        in_another_thread = thread.submit(pool).result()
    assert pool() is in_another_context is in_another_thread

"""The cache: on one machine (no ``CACHE_URL``) Django's file cache, made room in now and then;
with a Redis, Django's Redis cache with one connection pool per process.

Django's ``FileBasedCache.set`` lists the whole cache directory to count its files, on every set.
Every visitor's counters (``scorepad/throttle.py``: a file per address, limit and window, left
behind when the window passes) and every table phone's presence mark are files there, so that
listing grew with the machine's traffic and was paid by each request that counts something: it was
a few percent of the server's time under ``manage.py loadtest --tables 50``, and would be far more
near the ``MAX_ENTRIES`` the directory may grow to.

Django keeps a cache object per thread and per asyncio task, and its Redis cache gives each object a
connection pool of its own, never closed (its ``close`` does nothing): every event stream that
touched the cache from its own task held a Redis connection until the garbage collector found it,
thousands of them on a busy night. ``RedisCache`` shares one pool per process and Redis instead.
"""

from __future__ import annotations

import math
import os
import threading
import time
from typing import Any

from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class FileCache(FileBasedCache):
    """Django's file cache, looking for room at most every ``CULL_EVERY_SECONDS`` per process
    (until then a directory may hold a few more files than ``MAX_ENTRIES``)."""

    CULL_EVERY_SECONDS = 60.0
    _culled_at = -math.inf  # per process: shared by the cache objects of all its threads

    def _cull(self) -> None:
        now = time.monotonic()
        if now - FileCache._culled_at < self.CULL_EVERY_SECONDS:
            return
        FileCache._culled_at = now
        super()._cull()  # type: ignore[misc]  # private in the stubs, there since Django 1.x


_pools: dict[tuple[str, str, int], Any] = {}  # by Redis URL and process: redis-py's pools are thread-safe
_pools_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    """Django's Redis client, taking its connection pool from the process's one per Redis (and per
    set of options: a test's cache with other timeouts has its own)."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._options_key = repr(sorted(options.items()))

    def _get_connection_pool(self, write: bool) -> Any:
        # The attributes are private in the stubs; Django's own, there since its Redis cache (4.0).
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        url = self._servers[index]  # type: ignore[attr-defined]
        key = (url, self._options_key, os.getpid())
        with _pools_lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = self._pool_class.from_url(url, **self._pool_options)  # type: ignore[attr-defined]
            return pool


class RedisCache(DjangoRedisCache):
    """Django's Redis cache, every cache object of a process on one connection pool per Redis."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = SharedPoolClient

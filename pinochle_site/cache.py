"""The cache on one machine (no ``CACHE_URL``): Django's file cache, made room in now and then.

Django's ``FileBasedCache.set`` lists the whole cache directory to count its files, on every set.
Every visitor's counters (``scorepad/throttle.py``: a file per address, limit and window, left
behind when the window passes) and every table phone's presence mark are files there, so that
listing grew with the machine's traffic and was paid by each request that counts something: it was
a few percent of the server's time under ``manage.py loadtest --tables 50``, and would be far more
near the ``MAX_ENTRIES`` the directory may grow to.
"""

from __future__ import annotations

import math
import time

from django.core.cache.backends.filebased import FileBasedCache


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

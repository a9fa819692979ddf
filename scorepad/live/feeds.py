"""A reading shared by every stream of a server process that shows the same thing (a club night's
standings on every screen in the room): read once per change of its channel, not once per screen.

A ``Feed`` listens on its channel (``bus``), reads at most every ``reads_seconds`` (a burst of
changes is one read) and every ``check_seconds`` anyway (a message lost with Redis down), and wakes
its streams when the reading changed; a reading of None says the thing is gone. Every feed of a
process reads in one thread, as a request would (its connection kept for ``CONN_MAX_AGE``): one
database connection for them all, and none of the request threads the pages need. A stream waits
on its feed as on a channel (``streams.event_stream``). The feed stops with its last stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import bus
from .request_threads import as_a_request

__all__ = ["Feed", "shared_feed"]

log = logging.getLogger(__name__)
_feed_thread = ThreadPoolExecutor(1, thread_name_prefix="feeds")


class Feed[T]:
    """One channel's reading in this server process, for all its streams."""

    def __init__(
        self,
        channel: str,
        read: Callable[[], T | None],
        *,
        changed: Callable[[T | None, T], bool],
        reads_seconds: float,
        check_seconds: float,
    ) -> None:
        self.channel, self._read, self._changed = channel, read, changed
        self.reads_seconds, self.check_seconds = reads_seconds, check_seconds
        self.loop = asyncio.get_running_loop()
        self.streams = 0
        self.value: T | None = None
        self.missing = False
        self.first = asyncio.Event()  # set once the first reading is in
        self.news = self.loop.create_future()  # done when the reading changes: then replaced
        self.task = self.loop.create_task(self._follow())

    async def _follow(self) -> None:
        listener = await bus.listen(self.channel)
        try:
            while True:
                started = time.monotonic()
                try:
                    read = await self.loop.run_in_executor(_feed_thread, as_a_request, self._read)
                except Exception:  # the database restarting: the streams keep what they show
                    log.exception("%s: could not be read", self.channel)
                else:
                    self._show(read)
                self.first.set()
                await listener.wait(self.check_seconds)
                await asyncio.sleep(max(0.0, self.reads_seconds - (time.monotonic() - started)))
        finally:
            listener.close()

    def _show(self, read: T | None) -> None:
        """Wake the streams if the reading changed (as ``changed`` judges) or the thing is gone."""
        if read is None:
            self.missing = True
        elif not self._changed(self.value, read):
            return
        else:
            self.value = read
        news, self.news = self.news, self.loop.create_future()
        news.set_result(None)

    async def wait(self, timeout: float) -> bool:
        """Whether the reading changed (or the thing went) within ``timeout`` seconds."""
        try:
            await asyncio.wait_for(asyncio.shield(self.news), timeout)
        except TimeoutError:
            return False
        return True


_feeds: dict[str, Feed[Any]] = {}  # by channel


@contextlib.asynccontextmanager
async def shared_feed[T](
    channel: str,
    read: Callable[[], T | None],
    *,
    changed: Callable[[T | None, T], bool],
    reads_seconds: float,
    check_seconds: float,
) -> AsyncIterator[Feed[T]]:
    """This process's feed of ``channel`` (started by its first stream with ``read``), read once."""
    feed: Feed[T] | None = _feeds.get(channel)
    if feed is None or feed.task.done() or feed.loop is not asyncio.get_running_loop():
        feed = Feed(channel, read, changed=changed, reads_seconds=reads_seconds, check_seconds=check_seconds)
        _feeds[channel] = feed
    feed.streams += 1
    try:
        await feed.first.wait()
        yield feed
    finally:
        feed.streams -= 1
        if not feed.streams:
            feed.task.cancel()
            if _feeds.get(channel) is feed:
                del _feeds[channel]

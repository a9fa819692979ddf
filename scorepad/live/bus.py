"""How open event streams hear that something changed: one message per change, naming a channel
only: a private table (``table_channel``: its phones) or a club night's standings
(``standings_channel``: the room's screens).

A message carries no card and no seat's view: each phone's event stream, on hearing it, reads the
table and draws its own seat's view (``views.tables``), so nothing of another seat's hand can
travel in it; the standings' streams read the standings again (``views.club_director``). On one
server the message goes straight to this process's listening streams, and to the other web
workers' through a datagram socket each keeps in VAR_DIR (nothing else to run).
With ``CACHE_URL`` set to a Redis (several app servers), it is published on a Redis channel and
every process, this one included, hands it to its own streams from one subscription per process:
a card played through server A reaches a phone connected to server B. While Redis fails, on
PostgreSQL, the message goes through the database instead (``postgres_bus``: NOTIFY and LISTEN).

Presence (whether a seat's phone is connected now) is kept in the cache, which every server shares
when there are several: each stream marks its seat every ``PRESENCE_SECONDS``. While the cache does
not answer (Redis down) the mark goes to the seat's row instead (``TableSeat.seen_at``) and is read
from there, so the tables' clock still tells a player away from one who is there. A stream that
closes forgets its mark and tells the table (``forget_present``), and the other phones draw that
seat away (``away_seats``); a mark that ran out is seen by their streams' next quiet look.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import suppress
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError
from django.utils import timezone

from ..models import TableSeat
from ..throttle import CACHE_ERRORS
from . import postgres_bus

__all__ = [
    "PRESENCE_SECONDS",
    "Listener",
    "away_seats",
    "forget_present_soon",
    "listen",
    "mark_present",
    "present",
    "publish",
    "standings_channel",
    "table_channel",
]


CHANNEL_NAME = re.compile(r"[a-z-]{1,40}:[0-9]{1,18}")
PRESENCE_SECONDS = 10  # a stream marks its seat this often; a seat unmarked for 2× that is away
# The cache just stopped answering: everyone is taken for there this long, while the phones that
# are mark their seats' rows instead.
CACHE_DOWN_GRACE_SECONDS = PRESENCE_SECONDS * 2
log = logging.getLogger(__name__)


def redis_channel() -> str:
    """The one Redis channel of this installation (each message names its own channel in it)."""
    return f"pinochle:{settings.CACHE_NAMESPACE}:tables"


_lock = threading.Lock()
_listeners: dict[str, set[Listener]] = defaultdict(set)


def table_channel(table_id: int) -> str:
    """The channel of a private table's changes."""
    return f"table:{table_id}"


def standings_channel(event_id: int) -> str:
    """The channel of a club night's standings: a hand entered, confirmed or corrected, a round."""
    return f"club-standings:{event_id}"


class Listener:
    """One stream's mailbox: set when its channel had a change since the stream last looked."""

    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()

    def tell(self) -> None:
        self.loop.call_soon_threadsafe(self.changed.set)

    async def wait(self, timeout: float) -> bool:
        """Whether the channel had a change within ``timeout`` seconds (then ready for the next one)."""
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        self.changed.clear()
        return True

    def close(self) -> None:
        with _lock:
            _listeners[self.channel].discard(self)
            if not _listeners[self.channel]:
                del _listeners[self.channel]


def redis_url() -> str:
    location = settings.CACHES["default"].get("LOCATION", "")
    return location if isinstance(location, str) and location.startswith(("redis", "unix")) else ""


async def listen(channel: str) -> Listener:
    """A mailbox for ``channel``'s changes (``close`` it when the stream ends)."""
    if not CHANNEL_NAME.fullmatch(channel):
        raise ValueError(f"not a channel name: {channel!r}")
    listener = Listener(channel)
    with _lock:
        _listeners[channel].add(listener)
    if url := redis_url():
        listening = asyncio.gather(*(ready.wait() for ready in _start_relays(url)))
        with suppress(TimeoutError):  # slow or down: the stream's own checks catch up meanwhile
            await asyncio.wait_for(listening, SUBSCRIBE_WAIT_SECONDS)
    else:
        _open_mailbox()
    return listener


def publish(channel: str) -> None:
    """Tell every stream listening to ``channel`` (on every server) that it changed."""
    if not CHANNEL_NAME.fullmatch(channel):
        raise ValueError(f"not a channel name: {channel!r}")
    url = redis_url()
    if url and not _resting("publish", url):
        try:
            _redis_client(url).publish(redis_channel(), channel)
            return
        except CACHE_ERRORS as error:  # Redis down: this server's streams still hear it
            _failed_at[("publish", url)] = time.monotonic()
            log.warning("%s: could not publish through Redis (%s)", channel, error)
    if not url:
        _tell_neighbours(channel)
    elif postgres_bus.available():  # Redis failing: the other servers hear it through the database
        postgres_bus.notify(channel)
    deliver(channel)


# Redis just failed a call: for this long this process does not ask it again for the same thing
# (the marks go to the seats' rows, a change to this server's streams only), so a Redis down or
# paused costs one short timeout, not one per mark or per hand entered.
CACHE_REST_SECONDS = 5.0
_failed_at: dict[tuple[str, str], float] = {}  # by what failed ("publish", "mark"…) and Redis URL


def _resting(what: str, url: str) -> bool:
    failed_at = _failed_at.get((what, url))
    return failed_at is not None and time.monotonic() - failed_at < CACHE_REST_SECONDS


# -- one machine: the web workers tell each other through their mailboxes --------------------------
# gunicorn runs several worker processes, each with its own phones' streams. Without Redis each
# worker that has streams opens a datagram socket in VAR_DIR/table-events (one per process, named
# by its pid); a change is sent to every other mailbox there, a few bytes each. Nothing else runs.


def _mailboxes() -> Path:
    folder = Path(settings.VAR_DIR) / "table-events"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


_mailbox: socket.socket | None = None
_mailbox_loop: asyncio.AbstractEventLoop | None = None


def _open_mailbox() -> None:
    """This process's mailbox, read by its event loop (opened with its first stream)."""
    global _mailbox, _mailbox_loop
    loop = asyncio.get_running_loop()
    with _lock:
        if _mailbox is not None and _mailbox_loop is loop:
            return
        path = _mailboxes() / f"{os.getpid()}.sock"
        with suppress(FileNotFoundError):
            path.unlink()
        box = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        box.bind(str(path))
        box.setblocking(False)
        if _mailbox is not None:
            _mailbox.close()
        _mailbox, _mailbox_loop = box, loop
    loop.add_reader(box.fileno(), _read_mailbox, box)


def _read_mailbox(box: socket.socket) -> None:
    while True:
        try:
            message = box.recv(64)
        except (BlockingIOError, OSError):
            return
        deliver(message.decode("ascii", "replace"))


def _tell_neighbours(channel: str) -> None:
    """Send the change to every other worker's mailbox on this machine; a dead worker's is removed."""
    try:
        boxes = [box for box in _mailboxes().glob("*.sock") if box.stem != str(os.getpid())]
    except OSError:
        return
    if not boxes:
        return
    message = channel.encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sender:
        sender.setblocking(False)
        for box in boxes:
            try:
                sender.sendto(message, str(box))
            except (ConnectionRefusedError, FileNotFoundError):  # its worker is gone
                with suppress(OSError):
                    box.unlink()
            except OSError:  # its mailbox is full: that worker's streams catch up by themselves
                pass


def deliver(channel: str) -> None:
    """Hand a change to this process's streams listening to ``channel`` (anything else is ignored)."""
    with _lock:
        listeners = list(_listeners.get(channel, ()))
    for listener in listeners:
        with suppress(RuntimeError):  # its event loop has closed: the stream is gone
            listener.tell()


_clients: dict[str, Any] = {}


def _redis_client(url: str) -> Any:
    import redis

    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
        )
    return client


REDIS_TIMEOUT_SECONDS = 0.5  # a Redis that does not answer within this is taken for down


SUBSCRIBE_WAIT_SECONDS = 1.0  # a first stream waits this long at most for the relays to listen
type Relay = Callable[[asyncio.Event], Coroutine[Any, Any, None]]
_relays: dict[str, tuple[asyncio.Task[None], asyncio.Event]] = {}  # by kind: "redis", "postgres"


def _start_relays(url: str) -> list[asyncio.Event]:
    """This process's relays, to be waited for: from Redis, and on PostgreSQL from the database too
    (while Redis fails, the changes come that way: ``postgres_bus`` says why it always listens).
    While the Redis subscription fails, a new stream waits for the database's alone."""
    redis = _relaying("redis", partial(_relay, url))
    if not postgres_bus.available():
        return [redis]
    database = _relaying("postgres", partial(postgres_bus.relay, deliver))
    return [database] if _resting("subscribe", url) else [redis, database]


def _relaying(kind: str, relay: Relay) -> asyncio.Event:
    """One relay of each kind per process (per event loop), started with its first stream; the
    event is set once it listens (a change published before then would not reach it)."""
    loop = asyncio.get_running_loop()
    with _lock:
        running = _relays.get(kind)
        if running is None or running[0].done() or running[0].get_loop() is not loop:
            listening = asyncio.Event()
            running = _relays[kind] = (loop.create_task(relay(listening)), listening)
        return running[1]


async def _relay(url: str, subscribed: asyncio.Event) -> None:
    """Hand each message of the channel to this process's streams; reconnect if Redis goes away."""
    import redis.asyncio as aioredis

    while True:
        # No socket timeout on the subscription's reads: a quiet channel sends nothing for hours.
        # Connecting and subscribing have one; the keepalive finds a Redis gone away meanwhile.
        client = aioredis.Redis.from_url(
            url, socket_connect_timeout=REDIS_TIMEOUT_SECONDS, socket_keepalive=True
        )
        try:
            async with client.pubsub() as pubsub:
                await asyncio.wait_for(pubsub.subscribe(redis_channel()), REDIS_TIMEOUT_SECONDS * 2)
                subscribed.set()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        deliver(bytes(message["data"]).decode("ascii", "replace"))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # Redis restarting: try again shortly, streams keep polling
            _failed_at[("subscribe", url)] = time.monotonic()
            log.warning("table events: Redis subscription lost (%s); retrying", error)
            await asyncio.sleep(1)
        finally:  # its connections closed now, not when the garbage collector finds them
            with suppress(Exception):
                await asyncio.wait_for(client.aclose(), REDIS_TIMEOUT_SECONDS)


def _cache_resting() -> bool:
    return _resting("mark", redis_url())


def _cache_failed() -> None:
    _failed_at[("mark", redis_url())] = time.monotonic()


def mark_present(table_id: int, seat: int, connection: str) -> None:
    """``seat``'s phone is connected now, by the stream ``connection`` (in the seat's row while the
    cache does not answer). It waits on the cache: never call it on an event loop."""
    if not _cache_resting():
        try:
            cache.set(f"table:{table_id}:seat:{seat}:seen", connection, PRESENCE_SECONDS * 2)
            return
        except CACHE_ERRORS:
            _cache_failed()
    with suppress(DatabaseError):
        TableSeat.objects.filter(table_id=table_id, seat=seat).update(seen_at=timezone.now())


def forget_present(table_id: int, seat: int, connection: str) -> None:
    """The stream ``connection`` closed: the seat is away, unless a newer stream (a reload) marked it,
    and the table's phones are told. It waits on the cache: a stream calls ``forget_present_soon``."""
    if _cache_resting():  # the mark expires by itself
        return
    key = f"table:{table_id}:seat:{seat}:seen"
    try:
        if cache.get(key) != connection:
            return
        cache.delete(key)
    except CACHE_ERRORS:
        _cache_failed()
        return
    publish(table_channel(table_id))  # the other phones show the seat away at once


# The streams' goodbyes, one at a time in a thread of their own: none waits on its event loop, nor
# takes a request thread from the pages while the cache does not answer.
_presence_thread = ThreadPoolExecutor(1, thread_name_prefix="presence")


def forget_present_soon(table_id: int, seat: int, connection: str) -> Future[None]:
    """``forget_present`` in the presence thread, not waited for (a closing stream's ``finally``)."""
    return _presence_thread.submit(forget_present, table_id, seat, connection)


_cache_down_since: float | None = None  # when this process found the cache not answering


def present(table_id: int, seat: int) -> bool:
    """Whether ``seat``'s phone has an open stream to the table (on any server). While the cache
    does not answer, whether the stream marked the seat's row lately; for the first moments after
    it stopped answering (the phones there have not marked their rows yet) everyone is there."""
    return seat not in away_seats(table_id, (seat,))


def away_seats(table_id: int, seats: Iterable[int]) -> frozenset[int]:
    """Those of ``seats`` whose phones have no open stream to the table now (``present``), in one
    look at the cache, or at the seats' rows while it does not answer."""
    global _cache_down_since
    keys = {f"table:{table_id}:seat:{seat}:seen": seat for seat in seats}
    if not keys:
        return frozenset()
    if not _cache_resting():  # a cache that just failed is not asked again for every table
        try:
            seen = cache.get_many(list(keys))
        except CACHE_ERRORS:
            _cache_failed()
        else:
            _cache_down_since = None
            return frozenset(seat for key, seat in keys.items() if key not in seen)
    now = time.monotonic()
    if _cache_down_since is None:
        _cache_down_since = now
    if now - _cache_down_since < CACHE_DOWN_GRACE_SECONDS:
        return frozenset()
    since = timezone.now() - timedelta(seconds=PRESENCE_SECONDS * 2)
    marked = TableSeat.objects.filter(table_id=table_id, seat__in=keys.values(), seen_at__gte=since)
    return frozenset(keys.values()) - set(marked.values_list("seat", flat=True))

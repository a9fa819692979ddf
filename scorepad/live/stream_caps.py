"""How many event streams may be open at once in this web process: per table seat, per address
(an IPv4 address or an IPv6 /64, as ``throttle.client_address`` counts it) and in all.

An idle stream still holds memory and wakes the event loop every wait period, so thousands of them
(a script, or a few seat cookies copied around) slow every page of the process. A stream takes a
place for each of its keys before it starts (``take``) and gives them back when it ends
(``Place.give_back``, from the stream's ``finally`` and from its response's ``close``: whichever
comes first; the second does nothing). The counts live in this process only, under a plain lock:
taking a place never waits on the cache or the network, so it is safe on the event loop, and a
restart starts them afresh with the streams themselves.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass, field

from django.conf import settings
from django.http import StreamingHttpResponse

__all__ = ["Place", "StreamsResponse", "full", "open_streams", "take"]

PER_SEAT_WORDS = (
    "This seat already has {limit} screens following the table. Close the other tabs or phones "
    "showing it; this one tries again in a minute."
)
PER_ADDRESS_WORDS = (
    "Your network already has {limit} screens following live here. Close some of them; this one "
    "tries again in a minute."
)
PER_PROCESS_WORDS = (
    "The server is following as many screens as it can just now. This one tries again in a minute."
)
PROCESS = "process"

_lock = threading.Lock()
_open: dict[str, int] = {}


@dataclass
class Place:
    """The places one stream holds, given back once."""

    keys: tuple[str, ...]
    _held: bool = field(default=True)

    def give_back(self) -> None:
        with _lock:
            if not self._held:
                return
            self._held = False
            for key in self.keys:
                left = _open.get(key, 0) - 1
                if left > 0:
                    _open[key] = left
                else:
                    _open.pop(key, None)


def _caps(address: str, seat: str | None = None) -> list[tuple[str, int, str]]:
    """Each cap a stream from ``address`` (at ``seat``) counts against, widest first: (key, limit,
    the words when it is reached)."""
    caps = [(PROCESS, settings.STREAMS_PER_PROCESS, PER_PROCESS_WORDS)]
    caps.append((f"address:{address}", settings.STREAMS_PER_ADDRESS, PER_ADDRESS_WORDS))
    if seat is not None:
        caps.append((f"seat:{seat}", settings.STREAMS_PER_SEAT, PER_SEAT_WORDS))
    return caps


def _reached(caps: list[tuple[str, int, str]]) -> str | None:
    """The words of the narrowest of ``caps`` already reached (they say most), or None; under the lock."""
    for key, limit, words in reversed(caps):
        if _open.get(key, 0) >= limit:
            return words.format(limit=limit)
    return None


def take(*, address: str, seat: str | None = None) -> Place | str:
    """A place for one more stream from ``address`` (and for ``seat``, a table seat's key), or the
    words of the cap it would pass."""
    caps = _caps(address, seat)
    with _lock:
        if words := _reached(caps):
            return words
        for key, _, _ in caps:
            _open[key] = _open.get(key, 0) + 1
    return Place(tuple(key for key, _, _ in caps))


def full(*, address: str) -> str | None:
    """The words of the process's or ``address``'s cap when either is reached now, else None: asked
    before a stream reads anything, so a refusal costs no database read (``take`` still decides)."""
    with _lock:
        return _reached(_caps(address))


def open_streams(key: str = PROCESS) -> int:
    """How many streams hold a place under ``key`` now (the whole process by default)."""
    with _lock:
        return _open.get(key, 0)


class StreamsResponse(StreamingHttpResponse):
    """An event stream whose place is given back when the response is closed, even if its stream
    never started (the phone went away first) and so never ran its own ``finally``."""

    def __init__(self, place: Place, stream: AsyncIterator[str]) -> None:
        super().__init__(_holding(place, stream), content_type="text/event-stream")
        self.place = place

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.place.give_back()


async def _holding(place: Place, stream: AsyncIterator[str]) -> AsyncIterator[str]:
    try:
        async for event in stream:
            yield event
    finally:
        try:
            if isinstance(stream, AsyncGenerator):  # its own ``finally`` runs now, not when collected
                await stream.aclose()
        finally:
            place.give_back()

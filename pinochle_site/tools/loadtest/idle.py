"""Idle event streams for the load test (``manage.py loadtest --idle-streams N``): phones that sit at
private tables and keep the table's event stream open, tapping nothing, for as long as the
scorekeepers' run beside them lasts.

The tables are opened here, through the services, not through the forms: a six-handed table with a
person in every seat (nobody's bots think, and the table waits for the person to act) gives 18
streams within the per-seat cap, and a few hundred tables would otherwise take thousands of
requests before the run. Each stream comes from an address of the benchmarking range
(198.18.0.0/15), at most the per-address cap from each, so only the per-process cap refuses any.
The streams are held in a process of their own (as the tables' phones are): reading thousands of
connections there never keeps the scorekeepers' answers waiting on the load test's event loop.

A stream refused in words (over a cap: a 200 with ``Retry-After``) is counted by the cap that
refused it, and asks again after the time it was told, as a browser's EventSource does; a held
stream that the server ends is counted as dropped and reopened.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .browser import BrowserError
from .streams import EventStream

OPENING_AT_ONCE = 100  # streams asking at the same time while they open
FIRST_SCREEN_SECONDS = 120.0  # a stream's first answer, while thousands open
READY_SECONDS = 600.0  # every stream answered once (held or refused), or the run goes on anyway
# What each cap's words begin with (scorepad/live/stream_caps.py), to count refusals by cap.
CAP_WORDS = {"process": "The server is following", "address": "Your network", "seat": "This seat"}


@dataclass(frozen=True)
class IdleSeat:
    """One idle stream's seat: its table, the seat pass its phone holds, the address it comes from."""

    table_id: int
    cookie_name: str
    cookie_value: str
    address: str


@dataclass
class IdleStats:
    asked: int = 0  # streams
    held: int = 0  # held at once, at the most
    held_at_end: int = 0  # held when the run ended
    refused: int = 0  # answers refused in words (a stream refused again after its retry counts again)
    refused_by: dict[str, int] = field(default_factory=dict)  # by cap: process, address, seat
    never_held: int = 0  # streams refused every time they asked
    dropped: int = 0  # held streams the server ended (reopened)
    screens: int = 0  # events received on held streams
    opening_seconds: float = 0.0  # until every stream was answered once
    errors: list[str] = field(default_factory=list)


class Held:
    """What the holding process saw, once it has stopped (``stats``)."""

    stats: IdleStats | None = None


@contextlib.contextmanager
def streams_held(host: str, port: int, seats: list[IdleSeat]) -> Iterator[Held]:
    """The streams open (each answered once, held or refused) on entering; closed on leaving, when
    ``Held.stats`` says what they saw."""
    context = multiprocessing.get_context("spawn")
    ready, stop, out = context.Event(), context.Event(), context.Queue()
    holder = context.Process(target=hold_apart, args=(host, port, seats, ready, stop, out), daemon=True)
    holder.start()
    held = Held()
    try:
        ready.wait(READY_SECONDS)
        yield held
    finally:
        stop.set()
        try:
            held.stats = out.get(timeout=120)
        except Exception as error:  # the process died: say so in the report
            held.stats = IdleStats(asked=len(seats), errors=[f"the idle streams' process: {error!r}"])
        holder.join(timeout=30)
        if holder.is_alive():
            holder.terminate()


def hold_apart(host: str, port: int, seats: list[IdleSeat], ready: Any, stop: Any, out: Any) -> None:
    """The streams, in a process of their own until ``stop`` (a multiprocessing Event) is set;
    ``ready`` is set once each has been answered; what they saw is put on ``out``."""
    stats = IdleStats(asked=len(seats))
    try:
        asyncio.run(_hold_all(host, port, seats, stats, ready, stop))
    except Exception as error:  # anything unexpected is reported, not lost with the process
        stats.errors.append(f"the idle streams stopped: {error!r}")
    finally:
        ready.set()
        out.put(stats)


async def _hold_all(
    host: str, port: int, seats: list[IdleSeat], stats: IdleStats, ready: Any, stop: Any
) -> None:
    stopping = asyncio.Event()
    opening = asyncio.Semaphore(OPENING_AT_ONCE)
    answered: set[int] = set()
    holding = [0]
    began = time.monotonic()

    def first_answer(n: int) -> None:
        answered.add(n)
        if len(answered) == len(seats):
            stats.opening_seconds = round(time.monotonic() - began, 1)
            ready.set()

    async def watch_stop() -> None:
        while not stop.is_set():
            await asyncio.sleep(0.2)
        stopping.set()

    async def one(n: int, seat: IdleSeat) -> None:
        held_once = False
        while not stopping.is_set():
            stream = EventStream(
                host,
                port,
                f"/tables/{seat.table_id}/events/",
                {seat.cookie_name: seat.cookie_value},
                {"X-Forwarded-For": seat.address},
            )
            try:
                async with opening:
                    await stream.open()
                    first = await stream.next_event(FIRST_SCREEN_SECONDS)
            except (BrowserError, OSError, TimeoutError) as error:
                stats.errors.append(f"idle stream {n}: {error}")
                await stream.close()
                first_answer(n)
                return
            first_answer(n)
            retry = stream.answer_headers.get("retry-after")
            if retry is not None:  # refused in words
                await stream.close()
                stats.refused += 1
                cap = next((k for k, words in CAP_WORDS.items() if words in first.data), "other")
                stats.refused_by[cap] = stats.refused_by.get(cap, 0) + 1
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), float(retry))
                continue
            held_once = True
            holding[0] += 1
            stats.held = max(stats.held, holding[0])
            stats.screens += 1
            reading = asyncio.create_task(_read(stream, stats))
            waiting = asyncio.create_task(stopping.wait())
            await asyncio.wait({reading, waiting}, return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():
                stats.held_at_end += 1
            reading.cancel()
            waiting.cancel()
            holding[0] -= 1
            await stream.close()
            if not stopping.is_set():
                stats.dropped += 1  # the server ended it: a browser opens it again
        if not held_once:
            stats.never_held += 1

    watcher = asyncio.create_task(watch_stop())
    await asyncio.gather(*(one(n, seat) for n, seat in enumerate(seats)))
    watcher.cancel()


async def _read(stream: EventStream, stats: IdleStats) -> None:
    with contextlib.suppress(BrowserError, OSError, asyncio.IncompleteReadError, ValueError):
        while True:
            await stream.next_event(3_600)
            stats.screens += 1

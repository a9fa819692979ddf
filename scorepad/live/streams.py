"""Server-sent events: the format, and the one loop every event stream runs.

A stream draws what its screen shows, then waits for its channel's next change (``bus``) and draws
again, for as long as the phone or screen stays. What to draw comes from the view as a callable:
a table's phone draws its own seat's screen, the room's screen the club night's standings. Every
wait period without a change the stream says it lives (a proxy or phone that drops quiet
connections keeps it), and its ``look`` runs: a check the view wants made at least that often
(a change whose message was lost, with Redis down).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Protocol

from . import bus

__all__ = ["WAIT_SECONDS", "Changes", "Drawn", "event_stream", "sse_event", "sse_text"]

# What a draw gives: the events to send now ("" for nothing new) and whether the stream is over.
type Drawn = tuple[str, bool]
STILL_HERE = ": still here\n\n"
WAIT_SECONDS = 5  # a stream says it lives this often: well inside a proxy's read timeout


class Changes(Protocol):
    """What a stream waits on: a channel's mailbox (``bus.Listener``), or a reading shared by every
    stream of a process (the club night's standings feed)."""

    async def wait(self, timeout: float) -> bool: ...


def sse_event(name: str, html: str) -> str:
    """``html`` as one event named ``name`` (each of its lines a ``data:`` line)."""
    data = "\n".join(f"data: {line}" for line in html.splitlines() or [""])
    return f"event: {name}\n{data}\n\n"


def sse_text(words: str) -> str:
    """Words to show in place of the screen (an alert), as an event's HTML."""
    return f'<p class="notice" role="alert">{words}</p>'


async def event_stream(
    changes: str | Changes,
    draw: Callable[[], Awaitable[Drawn]],
    *,
    wait_seconds: float,
    retry_ms: int,
    look: Callable[[], Awaitable[bool]] | None = None,
) -> AsyncIterator[str]:
    """The stream: ``retry``, then what ``draw`` gives, again at each change of ``changes`` (a
    channel's name, listened to here, or what the caller listens to already), until a draw says
    the stream is over. ``look`` runs once every ``wait_seconds`` at least (quiet, or busy with
    changes) and says whether something changed that no message told."""
    listener: bus.Listener | None = None
    if isinstance(changes, str):
        changes = listener = await bus.listen(changes)
    try:
        yield f"retry: {retry_ms}\n\n"
        changed, looked = True, time.monotonic()
        while True:
            if changed:
                events, over = await draw()
                if events:
                    yield events
                if over:
                    return
            changed = await changes.wait(wait_seconds)
            if not changed:
                yield STILL_HERE
            if look is not None and (not changed or time.monotonic() - looked > wait_seconds):
                changed = await look() or changed
                looked = time.monotonic()
    finally:
        if listener is not None:
            listener.close()

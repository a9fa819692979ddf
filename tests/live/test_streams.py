"""The one stream loop: it draws, then draws again at each change, says it lives when quiet, looks
(``look``) at least every wait period, and ends when a draw says so."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from scorepad.live.streams import STILL_HERE, Drawn, event_stream, sse_event, sse_text


def run_alone[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test earlier in the session leaves an event
    loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


class Changes:
    """A channel whose changes the test makes: each ``wait`` takes the next of ``told``."""

    def __init__(self, *told: bool) -> None:
        self.told = list(told)

    async def wait(self, timeout: float) -> bool:
        return self.told.pop(0)


def test_the_loop_draws_at_each_change_says_it_lives_when_quiet_and_ends_when_told():
    screens = iter(["one", "", "two", "three"])
    looks: list[str] = []

    async def draw() -> Drawn:
        screen = next(screens)
        return (sse_event("screen", screen) if screen else ""), screen == "three"

    async def look() -> bool:
        looks.append("looked")
        return len(looks) == 1  # the first look finds a change no message told

    async def stream() -> list[str]:
        # changed (nothing new to draw), quiet (its look finds a change), quiet, changed
        changes = Changes(True, False, False, True)
        return [sent async for sent in event_stream(changes, draw, wait_seconds=5, retry_ms=500, look=look)]

    sent = run_alone(stream())
    assert sent == [
        "retry: 500\n\n",
        "event: screen\ndata: one\n\n",
        STILL_HERE,
        "event: screen\ndata: two\n\n",
        STILL_HERE,
        "event: screen\ndata: three\n\n",
    ]
    assert looks == ["looked", "looked"]  # once per quiet wait: a change was heard without looking


def test_an_event_carries_every_line_and_words_show_as_an_alert():
    assert sse_event("screen", "<p>\n</p>") == "event: screen\ndata: <p>\ndata: </p>\n\n"
    assert sse_event("screen", "") == "event: screen\ndata: \n\n"
    assert sse_text("Gone.") == '<p class="notice" role="alert">Gone.</p>'

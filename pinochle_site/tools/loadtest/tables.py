"""Phones at private tables, for the load test and the several-servers test: a phone opens or
joins a table through its pages (forms read from the HTML, as a browser would), taps what its
screen offers when it is its turn, and keeps the table's event stream open, noting when each
screen arrives."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from dataclasses import dataclass, field

from .browser import Browser, BrowserError, Form, read_forms

VERSION = re.compile(r'data-version="(\d+)"')
JOIN_LINK = re.compile(r'href="[^"]*/tables/join/([A-Za-z0-9_-]+)/"')
PASS_COUNT = re.compile(r"Choose (\d+) cards to pass")


@dataclass
class Event:
    name: str
    data: str
    at: float  # time.perf_counter() when it arrived

    @property
    def version(self) -> int | None:
        found = VERSION.search(self.data)
        return int(found.group(1)) if found else None


@dataclass
class EventStream:
    """A phone's open ``text/event-stream`` connection, read event by event."""

    host: str
    port: int
    path: str
    cookies: dict[str, str]
    _reader: asyncio.StreamReader | None = None
    _writer: asyncio.StreamWriter | None = None
    _text: str = ""
    _chunked: bool = True

    async def open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        head = [f"GET {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: text/event-stream"]
        self._writer.write(("\r\n".join([*head, f"Cookie: {cookie}"]) + "\r\n\r\n").encode())
        await self._writer.drain()
        status = await self._reader.readline()
        headers = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if b" 200 " not in status or "text/event-stream" not in headers.get("content-type", ""):
            raise BrowserError(f"no event stream at {self.path}: {status!r}")
        self._chunked = "chunked" in headers.get("transfer-encoding", "")

    async def next_event(self, timeout: float) -> Event:
        """The next named event (comments and the retry line are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            while "\n\n" in self._text:
                block, self._text = self._text.split("\n\n", 1)
                name, data = "message", []
                for line in block.splitlines():
                    if line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].removeprefix(" "))
                if data:
                    return Event(name, "\n".join(data), time.perf_counter())
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no event on {self.path} within {timeout} s")
            self._text += await asyncio.wait_for(self._read(), left)

    async def _read(self) -> str:
        assert self._reader is not None
        if not self._chunked:
            piece = await self._reader.read(65_536)
            if not piece:
                raise BrowserError("the event stream closed")
            return piece.decode()
        size = int((await self._reader.readline()).split(b";")[0] or b"0", 16)
        if size == 0:
            raise BrowserError("the event stream ended")
        chunk = await self._reader.readexactly(size)
        await self._reader.readline()
        return chunk.decode()

    async def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


@dataclass
class TablePhone:
    """One person's phone at a private table."""

    browser: Browser
    table_id: int = 0
    link_token: str = ""
    posted: list[tuple[int, float]] = field(default_factory=list)  # (version made, when answered)

    async def open_table(self, variant: str, host_name: str, seats: list[str]) -> None:
        """Open a table from the form: ``seats`` for seats 2 on, "open" or "bot:<strength>"."""
        page = await self.browser.get(f"/tables/?variant={variant}")
        form = next(f for f in read_forms(page.text) if "host_name" in f.names)
        data = _filled(form, {"host_name": host_name, **{f"seat_{n}": s for n, s in enumerate(seats, 1)}})
        answer = await self.browser.post("/tables/", data)
        location = answer.header("location")
        if answer.status != 302 or "/tables/" not in location:
            raise BrowserError(f"the table did not open: {answer.status} {answer.text[:300]}")
        self.table_id = int(location.rstrip("/").split("/")[-1])
        table = await self.browser.get(f"/tables/{self.table_id}/")
        found = JOIN_LINK.search(table.text)
        if found is None:
            raise BrowserError("the table page shows no link")
        self.link_token = found.group(1)

    async def join(self, link_token: str, seat: int, name: str) -> None:
        page = await self.browser.get(f"/tables/join/{link_token}/")
        action = f"/tables/join/{link_token}/seat/{seat}/"
        form = next((f for f in read_forms(page.text) if f.action == action), None)
        if form is None:
            raise BrowserError(f"seat {seat} cannot be taken: {page.text[:300]}")
        answer = await self.browser.post(action, _filled(form, {"name": name}))
        if answer.status != 302:
            raise BrowserError(f"seat {seat} was refused: {answer.status}")
        self.table_id = int(answer.header("location").rstrip("/").split("/")[-1])
        self.link_token = link_token

    def stream(self) -> EventStream:
        path = f"/tables/{self.table_id}/events/"
        return EventStream(self.browser.host, self.browser.port, path, dict(self.browser.cookies))

    async def act(self, rng: random.Random) -> tuple[str, int] | None:
        """If this phone's screen offers a decision, tap one of its answers (a card, a bid…): which
        kind, and the version it was made on; None when it is not this phone's turn."""
        page = await self.browser.get(f"/tables/{self.table_id}/", {"HX-Request": "true"})
        return await self.act_on(page.text, rng)

    async def act_on(self, html: str, rng: random.Random) -> tuple[str, int] | None:
        forms = read_forms(html)
        form = next((f for f in forms if f.action.endswith("/act/")), None)
        if form is None:
            nexts = next((f for f in forms if f.action.endswith("/next/")), None)
            if nexts is not None:
                await self.browser.post(nexts.action, _filled(nexts, {}))
            return None
        version = int(form.named("version")[0].value)
        kind, value = _choice(form, html, rng)
        data = [(c.name, c.value) for c in form.controls if c.type == "hidden"]
        data += value
        answer = await self.browser.post(form.action, data)
        if answer.status >= 500:
            raise BrowserError(f"{form.action}: {answer.status}")
        self.posted.append((version, time.perf_counter()))
        return kind, version


def _choice(form: Form, html: str, rng: random.Random) -> tuple[str, list[tuple[str, str]]]:
    """An answer the screen offers: a bid (mostly pass), the first trump, play on, a playable card,
    or the first cards to pass."""
    for name in ("card", "bid", "trump", "concede"):
        buttons = [c for c in form.named(name) if not c.disabled]
        if buttons:
            if name == "bid":
                passing = [c for c in buttons if c.value == "pass"]
                pick = passing[0] if passing and rng.random() < 0.7 else buttons[-1 if passing else 0]
            elif name == "concede":
                pick = next(c for c in buttons if c.value == "false")
            else:
                pick = rng.choice(buttons) if name == "card" else buttons[0]
            return name, [(name, pick.value)]
    boxes = form.named("pass")
    found = PASS_COUNT.search(html)
    count = int(found.group(1)) if found else 0
    return "pass", [("pass", box.value) for box in boxes[:count]]


def _filled(form: Form, values: dict[str, str]) -> list[tuple[str, str]]:
    data = []
    for control in form.controls:
        if not control.name or control.type == "submit":
            continue
        data.append((control.name, values.get(control.name, control.value)))
    return data

"""A phone's or a screen's open ``text/event-stream`` connection, read event by event: the private
tables' phones (``tables``) and the club night's standings screens (``event``) use it alike."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from dataclasses import dataclass, field

from .browser import BrowserError

VERSION = re.compile(r'data-version="(\d+)"')


@dataclass
class Event:
    name: str
    data: str
    at: float  # time.perf_counter() when it arrived
    id: str = ""  # the event's ``id:`` line, if it had one

    @property
    def version(self) -> int | None:
        found = VERSION.search(self.data)
        return int(found.group(1)) if found else None


@dataclass
class EventStream:
    """An open ``text/event-stream`` connection, read event by event; ``headers`` go with its
    request (a screen's own address, ``Last-Event-ID``)."""

    host: str
    port: int
    path: str
    cookies: dict[str, str]
    headers: dict[str, str] = field(default_factory=dict)
    _reader: asyncio.StreamReader | None = None
    _writer: asyncio.StreamWriter | None = None
    answer_headers: dict[str, str] = field(default_factory=dict)  # the response's, names lowercased
    _text: str = ""
    _chunked: bool = True

    async def open(self) -> None:
        self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        head = [f"GET {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Accept: text/event-stream"]
        head += [f"{name}: {value}" for name, value in self.headers.items()]
        self._writer.write(("\r\n".join([*head, f"Cookie: {cookie}"]) + "\r\n\r\n").encode())
        await self._writer.drain()
        status = await self._reader.readline()
        headers = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if b" 200 " not in status or "text/event-stream" not in headers.get("content-type", ""):
            raise BrowserError(f"no event stream at {self.path}: {status!r}")
        self.answer_headers = headers
        self._text = ""
        self._chunked = "chunked" in headers.get("transfer-encoding", "")

    async def next_event(self, timeout: float) -> Event:
        """The next named event (comments and the retry line are skipped)."""
        deadline = time.monotonic() + timeout
        while True:
            while "\n\n" in self._text:
                block, self._text = self._text.split("\n\n", 1)
                name, data, ident = "message", [], ""
                for line in block.splitlines():
                    if line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].removeprefix(" "))
                    elif line.startswith("id:"):
                        ident = line[3:].strip()
                if data:
                    return Event(name, "\n".join(data), time.perf_counter(), ident)
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

"""A small browser for the load benchmark: HTTP/1.1 over asyncio with keep-alive and cookies,
and the forms of a page read from its HTML, so a simulated player fills in what the page offers.

No third-party client: one event loop drives every player, which leaves the machine's cores to
the server being measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urlencode


class BrowserError(RuntimeError):
    """The connection failed or the answer was not HTTP (the command reports it in one line)."""


@dataclass
class Response:
    status: int
    headers: dict[str, list[str]]
    body: bytes
    seconds: float

    def header(self, name: str) -> str:
        return self.headers.get(name.lower(), [""])[0]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


@dataclass
class Browser:
    """One player's browser: one keep-alive connection to the server and its cookies."""

    host: str
    port: int
    cookies: dict[str, str] = field(default_factory=dict)
    extra_headers: dict[str, str] = field(default_factory=dict)
    _reader: asyncio.StreamReader | None = None
    _writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, headers: dict[str, str] | None = None) -> Response:
        """``headers`` for this request only (as htmx adds ``HX-Request``)."""
        return await self.request("GET", path, also=headers)

    async def post(self, path: str, data: list[tuple[str, str]]) -> Response:
        body = urlencode(data).encode()
        return await self.request("POST", path, body, "application/x-www-form-urlencoded")

    async def request(
        self,
        method: str,
        path: str,
        body: bytes = b"",
        content_type: str = "",
        also: dict[str, str] | None = None,
    ) -> Response:
        """One request; ``also``: headers for this one only."""
        started = time.perf_counter()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{name}: {value}" for name, value in {**self.extra_headers, **(also or {})}.items()]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if method == "POST":
            head += [f"Content-Type: {content_type}", f"Content-Length: {len(body)}"]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        reused = self._writer is not None
        try:
            response = await self._exchange(message)
        except (OSError, asyncio.IncompleteReadError, BrowserError) as error:
            await self.close()
            if not (reused and _unanswered(error)):
                raise BrowserError(str(error) or type(error).__name__) from error
            # The server had closed the idle connection before reading the request: send it again.
            try:
                response = await self._exchange(message)
            except (OSError, asyncio.IncompleteReadError, BrowserError) as again:
                await self.close()
                raise BrowserError(str(again) or type(again).__name__) from again
        status, headers, payload = response
        for cookie in headers.get("set-cookie", []):
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        if "close" in headers.get("connection", [""])[0].lower():
            await self.close()
        return Response(status, headers, payload, time.perf_counter() - started)

    async def _exchange(self, message: bytes) -> tuple[int, dict[str, list[str]], bytes]:
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
        assert self._reader is not None
        self._writer.write(message)
        await self._writer.drain()
        status_line = await self._reader.readline()
        if not status_line:
            raise asyncio.IncompleteReadError(b"", None)
        parts = status_line.decode("latin-1").split()
        if len(parts) < 2 or not parts[1].isdigit():
            raise BrowserError(f"not an HTTP answer: {status_line[:80]!r}")
        headers: dict[str, list[str]] = {}
        while (line := await self._reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        status = int(parts[1])
        if status in (204, 304) or 100 <= status < 200:
            return status, headers, b""  # no body, whatever the headers say (RFC 9110 §6.4.1)
        return status, headers, await self._body(headers)

    async def _body(self, headers: dict[str, list[str]]) -> bytes:
        assert self._reader is not None
        if "chunked" in headers.get("transfer-encoding", [""])[0].lower():
            chunks = []
            while size := int((await self._reader.readline()).split(b";")[0], 16):
                chunks.append(await self._reader.readexactly(size))
                await self._reader.readline()
            await self._reader.readline()
            return b"".join(chunks)
        if length := headers.get("content-length"):
            return await self._reader.readexactly(int(length[0]))
        body = await self._reader.read()  # no length: the body ends with the connection
        await self.close()
        return body

    async def close(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


def _unanswered(error: BaseException) -> bool:
    """Whether a reused connection failed before any answer (so the request was not handled)."""
    if isinstance(error, asyncio.IncompleteReadError):
        return not error.partial
    return isinstance(error, ConnectionResetError | BrokenPipeError)


# ---- forms ----------------------------------------------------------------------------------


@dataclass
class Control:
    """One input, button, select or textarea of a form, as the page wrote it."""

    tag: str
    name: str
    type: str
    value: str
    checked: bool
    options: list[str] = field(default_factory=list)
    disabled: bool = False


@dataclass
class Form:
    action: str
    method: str
    attrs: dict[str, str]
    controls: list[Control] = field(default_factory=list)

    def named(self, name: str) -> list[Control]:
        return [control for control in self.controls if control.name == name]

    @property
    def names(self) -> set[str]:
        return {control.name for control in self.controls if control.name}


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._select: Control | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._form = Form(a.get("action", ""), a.get("method", "get").lower(), a)
            self.forms.append(self._form)
        elif self._form is None:
            return
        elif tag in ("input", "button", "textarea", "select"):
            default_type = {"button": "submit", "input": "text"}.get(tag, tag)
            control = Control(
                tag,
                a.get("name", ""),
                a.get("type", default_type).lower(),
                a.get("value", ""),
                "checked" in a,
                disabled="disabled" in a,
            )
            self._form.controls.append(control)
            self._select = control if tag == "select" else None
        elif tag == "option" and self._select is not None:
            self._select.options.append(a.get("value", ""))
            if "selected" in a or len(self._select.options) == 1:  # what a browser sends unchanged
                self._select.value = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def read_forms(html: str) -> list[Form]:
    reader = _FormReader()
    reader.feed(html)
    reader.close()
    return reader.forms

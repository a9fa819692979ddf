"""A request body over the largest upload the site takes (a household backup and its form) is
refused with a 413 in words before any of it is read: by its Content-Length when it says one, and
as soon as the bytes pass the cap when it is streamed without one; under the ASGI server the
production one (``pinochle_site.asgi``), and in Django's own middleware for a WSGI server."""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory

from pinochle_site.asgi import application
from pinochle_site.middleware import BodyLimit, BodyLimitMiddleware
from scorepad.services.exchange import MAX_BACKUP_BYTES

CAP = settings.REQUEST_BODY_MAX_BYTES
WORDS = "more than this site takes in one request"


def test_the_cap_is_the_largest_upload_with_room_for_its_form():
    assert MAX_BACKUP_BYTES < CAP <= MAX_BACKUP_BYTES + 2_000_000


def test_a_declared_body_over_the_cap_is_refused_in_words_without_reading_it(client):
    # The test client's body refuses to be read past the one byte it holds: it is never read.
    response = client.generic(
        "POST", "/health/", b"x", content_type="application/octet-stream", CONTENT_LENGTH=str(300_000_000)
    )
    assert response.status_code == 413
    assert WORDS in response.content.decode()


@pytest.mark.django_db
def test_a_body_under_the_cap_is_read_as_before(client):
    assert client.post("/health/", {"a": "1"}).status_code == 200


def _scope(headers: list[tuple[bytes, bytes]], path: str = "/health/") -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "http_version": "1.1",
        "server": ("testserver", 80),
        "client": ("10.0.0.1", 5000),
    }


async def _call(app, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[list[dict], int]:
    """What ``app`` sent, and how many of ``chunks`` it asked for."""
    sent: list[dict] = []
    left = list(chunks)

    async def receive() -> dict:
        chunk = left.pop(0) if left else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(left)}

    async def send(message) -> None:
        sent.append(dict(message))

    await app(_scope(headers), receive, send)
    return sent, len(chunks) - len(left)


MEGABYTE = b"x" * 1_000_000


def test_the_production_application_refuses_a_declared_body_over_the_cap_before_reading_any():
    length = (b"content-length", str(300_000_000).encode())
    sent, read = asyncio.run(_call(application, [length], [MEGABYTE] * 300))
    assert sent[0]["status"] == 413
    assert WORDS in b"".join(message.get("body", b"") for message in sent[1:]).decode()
    assert read == 0


def test_the_production_application_stops_reading_a_streamed_body_at_the_cap():
    chunked = (b"transfer-encoding", b"chunked")
    sent, read = asyncio.run(_call(application, [chunked], [MEGABYTE] * 300))
    assert sent[0]["status"] == 413
    assert WORDS in b"".join(message.get("body", b"") for message in sent[1:]).decode()
    assert read <= CAP // len(MEGABYTE) + 1


def test_a_body_under_the_cap_reaches_the_application_whole():
    seen: list[bytes] = []

    async def inner(scope, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            seen.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent, _read = asyncio.run(_call(BodyLimit(inner, max_bytes=10), [], [b"abc", b"defg"]))
    assert sent[0]["status"] == 200
    assert b"".join(seen) == b"abcdefg"
    refused, _read = asyncio.run(_call(BodyLimit(inner, max_bytes=5), [], [b"abc", b"defg"]))
    assert refused[0]["status"] == 413


@pytest.mark.parametrize(
    ("length", "refused"),
    [("10", False), ("11", True), (" 11 ", True), ("1x", False), ("١١", False), ("", False)],
)
def test_both_doors_read_a_content_length_the_same_way(settings, length, refused):
    """The ASGI application and the WSGI middleware refuse the same declared lengths: over the cap,
    blanks around it allowed; one that is no plain number is left to the server and Django."""
    settings.REQUEST_BODY_MAX_BYTES = 10

    async def inner(scope, receive, send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    sent, _read = asyncio.run(_call(BodyLimit(inner), [(b"content-length", length.encode())], [b""]))
    assert (sent[0]["status"] == 413) is refused
    middleware = BodyLimitMiddleware(lambda request: HttpResponse("ok"))
    request = RequestFactory().generic("POST", "/health/", b"", CONTENT_LENGTH=length)
    assert (middleware(request).status_code == 413) is refused

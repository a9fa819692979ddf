"""Under the ASGI worker an ordinary request runs whole in one thread of the worker's pool (no
more at once than the pool has threads), and only event streams go to Django's ASGI handler."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from scorepad.live.request_threads import InThreads, application_for, is_event_stream


def test_event_streams_are_told_apart_from_pages():
    assert is_event_stream("/tables/7/events/")
    assert not is_event_stream("/tables/7/")
    assert not is_event_stream("/no/such/page/")  # its 404 page is an ordinary request's


async def _call(app, path: str, body: bytes = b"", method: str = "GET") -> list[dict]:
    sent: list[dict] = []
    chunks = [body[:3], body[3:]]

    async def receive() -> dict:
        chunk = chunks.pop(0) if chunks else b""
        return {"type": "http.request", "body": chunk, "more_body": bool(chunks)}

    async def send(message) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": b"",
        "headers": [],
        "http_version": "1.1",
        "server": ("testserver", 80),
        "client": ("10.0.0.1", 5000),
    }
    await app(scope, receive, send)
    return sent


def test_a_request_is_answered_from_one_thread_with_its_whole_body():
    threads_seen: set[str] = set()

    def wsgi(environ, start_response):
        threads_seen.add(threading.current_thread().name)
        body = environ["wsgi.input"].read()
        start_response("201 Created", [("Content-Type", "text/plain")])
        return [b"got ", body]

    sent = asyncio.run(_call(InThreads(wsgi, ThreadPoolExecutor(2)), "/hands/", b"bid=25&trump=H", "POST"))

    assert sent[0]["status"] == 201
    assert sent[1]["body"] == b"got bid=25&trump=H"
    assert len(threads_seen) == 1
    assert threading.current_thread().name not in threads_seen


def test_no_more_requests_run_at_once_than_the_pool_has_threads():
    running, most, lock = 0, 0, threading.Lock()

    def wsgi(environ, start_response):
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        start_response("200 OK", [])
        return [b"ok"]

    app = InThreads(wsgi, ThreadPoolExecutor(3))

    async def burst() -> list[int]:
        answers = await asyncio.gather(*(_call(app, "/") for _ in range(12)))
        return [sent[0]["status"] for sent in answers]

    assert asyncio.run(burst()) == [200] * 12
    assert most == 3


def test_streams_and_pages_go_their_own_ways():
    went: list[str] = []

    def recorder(name: str):
        async def app(scope, receive, send) -> None:
            went.append(name)

        return app

    app = application_for(streams=recorder("streams"), requests=recorder("requests"))
    asyncio.run(_call(app, "/tables/7/events/"))
    asyncio.run(_call(app, "/"))
    asyncio.run(app({"type": "lifespan"}, None, None))
    assert went == ["streams", "requests", "streams"]

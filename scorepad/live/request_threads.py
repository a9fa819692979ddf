"""Every ordinary request runs from start to end in one thread of its worker's pool, as under a
threaded WSGI server; only the event streams (async views) stay on the event loop.

Django's own ASGI handler runs a sync view in a thread too, but it crosses between the event loop
and that thread for the view and again around each layer of sync middleware. On a busy machine
every crossing waits for the GIL and for the loop, which is shared by all the worker's requests,
and the scorekeepers' pages were much slower than under threaded WSGI workers (the load test's
figures are in DEPLOYMENT.md). Here a request crosses twice, in and out: the loop reads its body,
one pool thread runs Django's WSGI handler (its middleware, the view, the whole response), and
the loop sends what it returned.

The pool has ``REQUEST_THREADS`` threads (``GUNICORN_THREADS``, as the threaded workers had): at
most that many requests of a worker run Django's code at once, each thread keeping its own
database connection between requests (``CONN_MAX_AGE``), and a burst waits on the loop, costing
nothing, for a free thread.
"""

from __future__ import annotations

import asyncio
import functools
import os
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import Any

from asgiref.sync import iscoroutinefunction
from asgiref.wsgi import WsgiToAsgiInstance
from django.db import close_old_connections
from django.urls import Resolver404, resolve

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

REQUEST_THREADS = int(os.getenv("GUNICORN_THREADS") or 4)
BODY_IN_MEMORY_BYTES = 64 * 1024  # a larger request body waits in a temporary file, as Django's does

_pool_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def request_pool() -> ThreadPoolExecutor:
    """This worker's request threads (made at the first request)."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="request")
        return _pool


async def in_request_thread[**P, T](function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run an event stream's database read in one of the request threads, as a request of its own:
    it waits its turn with the pages, and uses and keeps that thread's connection as a request does
    (``CONN_MAX_AGE``), instead of connecting again for every card."""

    return await asyncio.get_running_loop().run_in_executor(
        request_pool(), functools.partial(as_a_request, function, *args, **kwargs)
    )


def as_a_request[**P, T](function: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``function`` with the database connections treated as around a request: closed first if
    they are too old or broken, and after if they are not to be kept (``CONN_MAX_AGE``)."""
    close_old_connections()
    try:
        return function(*args, **kwargs)
    finally:
        close_old_connections()


def is_event_stream(path: str) -> bool:
    """Whether ``path`` is answered by an async view (an event stream): those stay on the loop."""
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


class InThreads:
    """An ASGI application answering HTTP requests with a WSGI application, each request in one
    thread of ``pool`` (by default the worker's request threads)."""

    def __init__(
        self, wsgi_application: Callable[..., Iterable[bytes]], pool: ThreadPoolExecutor | None = None
    ) -> None:
        self.wsgi_application = wsgi_application
        self.pool = pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = _ThreadedRequest(self.wsgi_application)
        request.scope = scope
        with SpooledTemporaryFile(max_size=BODY_IN_MEMORY_BYTES) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # the phone left before sending it all: nobody to answer
                body.write(message.get("body", b""))
                if not message.get("more_body"):
                    break
            body.seek(0)
            pool = self.pool or request_pool()
            start, content = await asyncio.get_running_loop().run_in_executor(pool, request.answer, body)
        await send(start)
        await send({"type": "http.response.body", "body": content})


class _ThreadedRequest(WsgiToAsgiInstance):
    """asgiref's WSGI adapter builds the environ and catches ``start_response``; the answer is
    run here in one pool thread and read whole (a page, a CSV, a static file), so the loop sends it
    in one message."""

    def answer(self, body: Any) -> tuple[Message, bytes]:
        try:
            environ = self.build_environ(self.scope, body)
        except ValueError:  # too many duplicate headers
            start = {
                "type": "http.response.start",
                "status": 400,
                "headers": [(b"content-type", b"text/plain")],
            }
            return start, b"Too many duplicate headers"
        response = self.wsgi_application(environ, self.start_response)
        try:
            content = b"".join(response)
        finally:
            close = getattr(response, "close", None)
            if close is not None:
                close()  # Django's request_finished: the connection is kept or closed, in this thread
        return self.response_start, content


def application_for(*, streams: ASGIApp, requests: ASGIApp) -> ASGIApp:
    """Event streams to Django's ASGI handler, every other HTTP request to the thread pool; what is
    not HTTP (the server's lifespan messages) to Django's handler, which declines it."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not is_event_stream(scope["path"]):
            await requests(scope, receive, send)
        else:
            await streams(scope, receive, send)

    return application

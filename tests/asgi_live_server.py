"""A live server for the browser tests that serves what production serves: the ASGI application
(``pinochle_site.asgi``) on uvicorn, in a thread of the test process, against the test database.

pytest-django's ``live_server`` is a WSGI server, under which a table's event stream answers once
and the browser asks again (a poll). Here each phone's stream is the real loop
(``live.streams.event_stream``): it waits on the table's channel, marks its seat present and is
forgotten when the phone goes, and the tables' clock (``live.clock``) moves the tables as a worker's
does. The server and its clock start once per test process (an xdist worker: a port of its own,
found free, and the worker's own test database); a test using ``asgi_live_server`` gets the
transactional database the server's threads see. The clock looks only while such a test runs: a
test without the database must not meet it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from dataclasses import dataclass

import pytest
import uvicorn
from django.db import connections

HOST = "127.0.0.1"


@dataclass
class AsgiLiveServer:
    url: str
    serving: threading.Event  # set while a test with the database runs: the clock looks then

    def __str__(self) -> str:
        return self.url


def close_connections_of(pool: ThreadPoolExecutor, threads: int) -> None:
    """Close the database connection each of ``pool``'s threads keeps (``CONN_MAX_AGE``): one task
    per thread, held at a barrier until every thread has one."""
    barrier = threading.Barrier(threads)

    def close() -> None:
        connections.close_all()
        barrier.wait(timeout=10)

    for future in [pool.submit(close) for _ in range(threads)]:
        future.result(timeout=20)


def _keep_time(serving: threading.Event, stop: threading.Event) -> None:
    """The tables' clock, as ``live.clock.start`` runs it in a worker, while a test is serving."""
    from scorepad.live import clock
    from scorepad.live.request_threads import as_a_request
    from scorepad.services.tables import table_clock_tick

    while not stop.wait(clock.CLOCK_SECONDS):
        if serving.is_set():
            # The test's database flushed under it: the next look tries again.
            with suppress(Exception):
                as_a_request(clock.run_due, table_clock_tick)
    connections.close_all()


@pytest.fixture(scope="session")
def _asgi_server(django_db_setup, django_db_blocker) -> Iterator[AsgiLiveServer]:
    from pinochle_site.asgi import application

    listening = socket.socket()
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind((HOST, 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        application, lifespan="off", log_level="warning", timeout_graceful_shutdown=2, access_log=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, name="asgi-live-server")
    serving, stop = threading.Event(), threading.Event()
    clock = threading.Thread(target=_keep_time, args=(serving, stop), name="asgi-live-clock", daemon=True)
    with django_db_blocker.unblock():
        thread.start()
        clock.start()
        deadline = time.monotonic() + 30
        while not server.started:
            assert thread.is_alive(), "uvicorn stopped as it started"
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
    try:
        yield AsgiLiveServer(f"http://{HOST}:{port}", serving)
    finally:
        stop.set()
        server.should_exit = True
        thread.join(timeout=20)
        clock.join(timeout=20)
        listening.close()  # the request threads' connections: closed with the test databases (conftest)


@pytest.fixture
def asgi_live_server(_asgi_server: AsgiLiveServer, transactional_db) -> Iterator[AsgiLiveServer]:
    """The ASGI server (uvicorn, the production application) for this test, on its database."""
    _asgi_server.serving.set()
    try:
        yield _asgi_server
    finally:
        _asgi_server.serving.clear()

"""``loadtest --event``: a club night's tables and standings screens on gunicorn lose nothing, its
staleness measure is what it says, and the load client reads a bodiless 204 without waiting for
the connection to close (else every standings poll looked like a keep-alive timeout)."""

import asyncio
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pinochle_site.tools.loadtest.browser import Browser
from pinochle_site.tools.loadtest.event import staleness

ROOT = Path(__file__).resolve().parents[2]


def test_staleness_is_the_first_poll_sent_after_each_confirmation_until_its_answer():
    polls = {0: [(1.0, 1.1), (2.0, 2.4), (3.0, 3.1)], 1: [(1.5, 1.6), (2.5, 2.6)]}
    seconds = staleness([1.2, 2.9], polls, warmup=0.0)
    # watcher 0: 1.2 -> poll sent 2.0 answered 2.4; 2.9 -> sent 3.0 answered 3.1
    # watcher 1: 1.2 -> sent 1.5 answered 1.6; 2.9 -> none sent after it (left out)
    assert [round(s, 2) for s in seconds] == [1.2, 0.2, 0.4]
    assert staleness([0.5], polls, warmup=1.0) == []  # confirmations in the warm-up are not timed


def test_a_204_is_read_at_once_on_a_kept_alive_connection():
    async def scenario() -> float:
        async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n")
            await writer.drain()
            await asyncio.sleep(5)  # keeps the connection open, as gunicorn's keep-alive does
            writer.close()

        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        browser = Browser("127.0.0.1", port)
        started = time.perf_counter()
        response = await browser.get("/")
        took = time.perf_counter() - started
        assert response.status == 204
        assert response.body == b""
        await browser.close()
        server.close()
        return took

    # In a thread of its own: a browser test in the same session leaves an event loop running here.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, scenario()).result() < 2


def test_a_tiny_club_night_on_gunicorn_loses_nothing_and_times_the_standings(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    env["VAR_DIR"] = str(tmp_path)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
    arguments = ["--event", "2", "--watchers", "3", "--seconds", "8", "--warmup", "1", "--table-pace", "0.5"]
    run = subprocess.run(
        [*manage, "loadtest", *arguments, "--json"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["ok"]
    assert report["acknowledged"] == report["stored"] > 0
    assert report["lost"] == report["duplicates"] == report["unconfirmed"] == report["errors"] == 0
    assert report["standings_differ"] == []
    assert report["alone_ms"]["n"] > 0  # the tables alone first, then with the watchers
    assert report["percentiles_ms"]["standings poll"]["n"] > 0
    assert report["standings_ms"]["n"] > 0

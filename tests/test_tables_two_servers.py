"""Two app servers and the real Redis: a card played through server A reaches a phone whose event
stream is open on server B (the table's change goes through Redis, not through one process), told
at once: before B's stream looks for itself (it does every few quiet seconds, saying it lives)."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from pinochle_site.tools.loadtest.browser import Browser
from pinochle_site.tools.loadtest.streams import EventStream
from pinochle_site.tools.loadtest.tables import TablePhone

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
REDIS_URL = "redis://127.0.0.1:6379/13"


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


pytestmark = pytest.mark.skipif(not _redis_up(), reason="needs the Redis at 127.0.0.1:6379")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(env: dict[str, str], log: Path):
    """gunicorn as the README starts it (one worker), on a free loopback port."""
    port = _free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", "python:pinochle_site.gunicorn_conf", "--bind"]
    with log.open("w") as out:
        process = subprocess.Popen([*command, f"{HOST}:{port}"], cwd=ROOT, env=env, stdout=out, stderr=out)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()[-2000:]
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.mark.server
def test_a_card_played_through_server_a_reaches_a_phone_on_server_b(migrated_var_dir):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    env |= {
        "VAR_DIR": str(migrated_var_dir),
        "CACHE_URL": REDIS_URL,
        "WEB_CONCURRENCY": "1",
        "ALLOWED_HOSTS": HOST,
        "SECURE": "false",
        "DEBUG": "false",
    }
    with ExitStack() as stack:
        port_a = stack.enter_context(server(env, migrated_var_dir / "a.log"))
        port_b = stack.enter_context(server(env, migrated_var_dir / "b.log"))
        told = asyncio.run(_play_until_a_card_is_told(port_a, port_b))
    assert told, "no card played on A reached B before B's stream looked for itself"


@dataclass
class LooksCounted(EventStream):
    """An event stream that counts its server's own looks: each quiet wait that ends with nothing
    told says the stream lives (a comment line) before the stream looks at the table itself."""

    looks: int = 0

    async def _read(self) -> str:
        chunk = await super()._read()
        self.looks += sum(1 for line in chunk.splitlines() if line.startswith(":"))
        return chunk


async def _play_until_a_card_is_told(port_a: int, port_b: int) -> bool:
    """Whether a card played through A reached B's stream with no look of B's own between: told
    through Redis. (A look may by chance fall just after a card was played: the next card counts.)"""
    rng = random.Random(5)
    host = TablePhone(Browser(HOST, port_a))
    await host.open_table("classic", "Ann", ["bot:easy", "open", "bot:easy"])
    friend = TablePhone(Browser(HOST, port_a))
    await friend.join(host.link_token, 2, "Bea")
    # The host's phone listens on server B, its friend plays through server A.
    on_b = LooksCounted(HOST, port_b, f"/tables/{host.table_id}/events/", dict(host.browser.cookies))
    await on_b.open()
    first = await on_b.next_event(30)
    assert first.name == "screen"
    told = False
    for _ in range(60):
        looks = on_b.looks
        done = await friend.act(rng)
        if done is None:
            await host.act(rng)  # the host taps on server A too; its own answer needs no stream
            continue
        kind, version = done
        while True:
            event = await on_b.next_event(30)
            if event.version is not None and event.version > version:
                break
        if kind == "card" and on_b.looks == looks:
            told = True
            break
    await on_b.close()
    return told

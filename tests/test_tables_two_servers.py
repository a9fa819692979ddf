"""Two app servers: a card played through server A reaches a phone whose event stream is open on
server B (the table's change goes through Redis, not through one process), told at once: before
B's stream looks for itself (it does every few quiet seconds, saying it lives). With Redis down, on
PostgreSQL, the change goes through the database (LISTEN/NOTIFY), a card and a quick message alike."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from psycopg import sql

from pinochle_site.tools.loadtest.browser import Browser
from pinochle_site.tools.loadtest.streams import EventStream
from pinochle_site.tools.loadtest.tables import TablePhone
from scorepad.services.tables import MESSAGE_GAP_SECONDS

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
REDIS_URL = "redis://127.0.0.1:6379/13"
DATABASE_URL = os.getenv("DATABASE_URL", "")


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not _redis_up(), reason="needs the Redis at 127.0.0.1:6379")
needs_postgres = pytest.mark.skipif(
    not DATABASE_URL.startswith("postgres"),
    reason="several servers share PostgreSQL: run the suite with DATABASE_URL=postgres://…",
)


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


def server_env(var_dir: Path, cache_url: str, database_url: str = "") -> dict[str, str]:
    """A server's environment: its own ``VAR_DIR``, the shared cache and database (SQLite in
    ``VAR_DIR`` without ``database_url``), the same secret key as every server's."""
    var_dir.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SECRET_KEY", "SECURE"}}
    env |= {
        "VAR_DIR": str(var_dir),
        "SECRET_KEY": "the same secret key on every server of the test",
        "CACHE_URL": cache_url,
        "WEB_CONCURRENCY": "1",
        "ALLOWED_HOSTS": HOST,
        "SECURE": "false",
        "DEBUG": "false",
    }
    return env | ({"DATABASE_URL": database_url} if database_url else {})


@needs_redis
@pytest.mark.server
def test_a_card_played_through_server_a_reaches_a_phone_on_server_b(migrated_var_dir):
    env = server_env(migrated_var_dir, REDIS_URL)
    with ExitStack() as stack:
        port_a = stack.enter_context(server(env, migrated_var_dir / "a.log"))
        port_b = stack.enter_context(server(env, migrated_var_dir / "b.log"))
        [told] = asyncio.run(_told(port_a, port_b, _card_told))
    assert told, "no card played on A reached B before B's stream looked for itself"


@pytest.fixture
def migrated_postgres(tmp_path, worker_id) -> Iterator[str]:
    """A PostgreSQL database of this test's own beside the suite's, migrated as an upgrade is (in a
    process of its own), dropped after: its address."""
    name = f"{urlsplit(DATABASE_URL).path.strip('/')}_servers_{worker_id}"[:63]
    with psycopg.connect(DATABASE_URL, dbname="postgres", autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = urlsplit(DATABASE_URL)._replace(path=f"/{name}").geturl()
    env = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "SECRET_KEY", "SECURE"}}
    migrate = [sys.executable, "manage.py", "migrate", "-v0"]
    try:
        env |= {"DATABASE_URL": url, "VAR_DIR": str(tmp_path)}
        subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
        yield url
    finally:
        with psycopg.connect(DATABASE_URL, dbname="postgres", autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@needs_postgres
@pytest.mark.server
def test_with_redis_down_a_card_and_a_quick_message_reach_a_phone_on_the_other_server(
    migrated_postgres, tmp_path
):
    redis_down = f"redis://{HOST}:{_free_port()}/0"  # nothing listens there
    with ExitStack() as stack:
        ports = [
            stack.enter_context(server(server_env(var_dir, redis_down, migrated_postgres), var_dir / "log"))
            for var_dir in (tmp_path / "a", tmp_path / "b")
        ]
        card, message = asyncio.run(_told(*ports, _card_told, _message_told))
    assert (card, message) == (True, True), "(a card, a quick message) on A reached B before B's own look"


@dataclass
class LooksCounted(EventStream):
    """An event stream that counts its server's own looks: each quiet wait that ends with nothing
    told says the stream lives (a comment line) before the stream looks at the table itself."""

    looks: int = 0

    async def _read(self) -> str:
        chunk = await super()._read()
        self.looks += sum(1 for line in chunk.splitlines() if line.startswith(":"))
        return chunk


@dataclass
class Watched:
    """A table opened through server A, its host's phone listening on server B and their friend's
    tapping through A."""

    host: TablePhone
    friend: TablePhone
    on_b: LooksCounted


async def _watched(port_a: int, port_b: int) -> Watched:
    host = TablePhone(Browser(HOST, port_a))
    await host.open_table("classic", "Ann", ["bot:easy", "open", "bot:easy"])
    friend = TablePhone(Browser(HOST, port_a))
    await friend.join(host.link_token, 2, "Bea")
    on_b = LooksCounted(HOST, port_b, f"/tables/{host.table_id}/events/", dict(host.browser.cookies))
    await on_b.open()
    first = await on_b.next_event(30)
    assert first.name == "screen"
    return Watched(host, friend, on_b)


async def _told(port_a: int, port_b: int, *checks: Callable[[Watched], Awaitable[bool]]) -> list[bool]:
    """What each check found, one after another at one watched table."""
    watched = await _watched(port_a, port_b)
    try:
        return [await check(watched) for check in checks]
    finally:
        await watched.on_b.close()


async def _card_told(watched: Watched) -> bool:
    """Whether a card played through A reached B's stream with no look of B's own between: told
    from server to server. (A look may by chance fall just after a card was played: the next card
    counts.)"""
    rng = random.Random(5)
    on_b = watched.on_b
    for _ in range(60):
        looks = on_b.looks
        done = await watched.friend.act(rng)
        if done is None:
            await watched.host.act(rng)  # the host taps on server A too; its own answer needs no stream
            continue
        kind, version = done
        while True:
            event = await on_b.next_event(30)
            if event.version is not None and event.version > version:
                break
        if kind == "card" and on_b.looks == looks:
            return True
    return False


async def _message_told(watched: Watched) -> bool:
    """Whether a quick message said through A reached B's stream with no look of B's own between
    (a look falling just then: the next message, once the table lets Bea say another)."""
    on_b = watched.on_b
    for key, words in (("nice", "Bea: Nice hand!"), ("oops", "Bea: Oops"), ("gg", "Bea: Good game")):
        looks = on_b.looks
        await watched.friend.say(key)
        while words not in (await on_b.next_event(30)).data:
            pass
        if on_b.looks == looks:
            return True
        await asyncio.sleep(MESSAGE_GAP_SECONDS)
    return False

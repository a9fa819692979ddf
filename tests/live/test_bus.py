"""The change messages on one machine: a change published in one process (another web worker)
reaches a stream listening in this one, and only that channel's: a table's, or a club night's
standings."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from scorepad.live import bus

ROOT = Path(__file__).resolve().parents[2]
PUBLISH = "import django; django.setup(); from scorepad.live import bus; bus.publish({channel!r})"


def run_alone[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test earlier in the session leaves an event
    loop running in this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def publish_from_another_process(var_dir: Path, channel: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "DATABASE_URL"}}
    env |= {"VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "pinochle_site.settings"}
    code = PUBLISH.format(channel=channel)
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)


@pytest.mark.slow  # a process of its own
def test_a_change_in_another_worker_reaches_this_workers_streams_of_that_table(settings, tmp_path):
    settings.VAR_DIR = tmp_path

    async def listen() -> tuple[bool, bool]:
        at_42 = await bus.listen(bus.table_channel(42))
        at_43 = await bus.listen(bus.table_channel(43))
        try:
            await asyncio.to_thread(publish_from_another_process, tmp_path, bus.table_channel(42))
            return await at_42.wait(5), await at_43.wait(0.2)
        finally:
            at_42.close()
            at_43.close()

    assert run_alone(listen()) == (True, False)


def test_a_dead_workers_mailbox_is_cleared_away(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    folder = tmp_path / "table-events"
    folder.mkdir()
    dead = folder / "999999.sock"
    dead.touch()  # not a socket anyone reads: sending to it fails, so it goes
    bus.publish(bus.table_channel(7))
    assert not dead.exists()


@pytest.mark.slow  # a process of its own
def test_a_club_nights_standings_are_their_own_channel_beside_its_tables(settings, tmp_path):
    """Event 42's standings and table 42 share a number, not a channel: a standings change wakes
    the room's screens, not the table's phones, and the other way round."""
    settings.VAR_DIR = tmp_path

    async def listen() -> tuple[bool, bool, bool]:
        standings = await bus.listen(bus.standings_channel(42))
        table = await bus.listen(bus.table_channel(42))
        try:
            await asyncio.to_thread(publish_from_another_process, tmp_path, bus.standings_channel(42))
            heard, table_heard = await standings.wait(5), await table.wait(0.2)
            bus.publish(bus.table_channel(42))  # this process: straight to its streams
            return heard, table_heard, await standings.wait(0.2)
        finally:
            standings.close()
            table.close()

    assert run_alone(listen()) == (True, False, False)


def test_a_message_that_names_no_channel_is_refused_before_it_is_sent():
    with pytest.raises(ValueError, match="not a channel name"):
        bus.publish("club-standings:7\nclub-standings:8")

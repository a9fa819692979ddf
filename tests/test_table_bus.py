"""The tables' change messages on one machine: a change published in one process (another web
worker) reaches a stream listening in this one, and only that table's."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from scorepad import table_bus

ROOT = Path(__file__).resolve().parent.parent
PUBLISH = "import django; django.setup(); from scorepad import table_bus; table_bus.publish({table})"


def publish_from_another_process(var_dir: Path, table: int) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"CACHE_URL", "DATABASE_URL"}}
    env |= {"VAR_DIR": str(var_dir), "DJANGO_SETTINGS_MODULE": "pinochle_site.settings"}
    code = PUBLISH.format(table=table)
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, timeout=60)


def test_a_change_in_another_worker_reaches_this_workers_streams_of_that_table(settings, tmp_path):
    settings.VAR_DIR = tmp_path

    async def listen() -> tuple[bool, bool]:
        at_42, at_43 = await table_bus.listen(42), await table_bus.listen(43)
        try:
            await asyncio.to_thread(publish_from_another_process, tmp_path, 42)
            return await at_42.wait(5), await at_43.wait(0.2)
        finally:
            at_42.close()
            at_43.close()

    assert asyncio.run(listen()) == (True, False)


def test_a_dead_workers_mailbox_is_cleared_away(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    folder = tmp_path / "table-events"
    folder.mkdir()
    dead = folder / "999999.sock"
    dead.touch()  # not a socket anyone reads: sending to it fails, so it goes
    table_bus.publish(7)
    assert not dead.exists()

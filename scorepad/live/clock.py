"""The private tables' clock: it moves a table that nobody's request moves.

A table needs it when the bots' turn came while they were busy elsewhere, when a seat's grace runs
out with nobody there, and while a bot covers a seat (to see its person back). Every write to a
table stores when it next needs the clock (``PrivateTable.due_at``). One thread per server process
(``start``) looks every ``CLOCK_SECONDS`` for tables due and claims each with one conditional
update, a lease: ``due_at`` moved on by ``LEASE_SECONDS`` where it still holds the value read. Of
the processes or servers that saw a table due, one claims it and the others match no row, so one
table is moved by one runner at a time, wherever it lives. The runner then does the table's
``tick`` (what to do comes from above: ``services.tables.table_clock_tick``), which says when the
table is next due; that is stored unless a write changed it meanwhile. A tick that fails leaves
the lease, and the table is looked at again when it ends.

The database is the clock's only shared state: no Redis is needed, and nothing waits on a phone's
stream. ``run_due`` is the same look, once, for tests and for ``manage.py table_clock``.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import datetime, timedelta
from typing import Protocol

from django.utils import timezone

from ..models import PrivateTable
from .request_threads import as_a_request

__all__ = ["CLOCK_SECONDS", "LEASE_SECONDS", "Tick", "claim", "run_due", "start"]

CLOCK_SECONDS = float(os.getenv("TABLE_CLOCK_SECONDS") or 0.5)  # 0: no clock thread in this process
LEASE_SECONDS = 60  # a claimed table is the claimer's this long at most (its bots think within it)
TABLES_AT_ONCE = 50  # a look claims at most this many tables; the rest wait for the next look
log = logging.getLogger(__name__)


class Tick(Protocol):
    """What the clock does for one table it claimed; returns when the table is next due (None: not
    until someone acts)."""

    def __call__(self, *, table_id: int) -> datetime | None: ...


def claim(table_id: int, due_at: datetime, *, now: datetime) -> datetime | None:
    """The lease on a table seen due at ``due_at``: its end, or None when another runner (or a
    write) changed the table's due time since it was read."""
    lease = now + timedelta(seconds=LEASE_SECONDS)
    won = PrivateTable.objects.filter(pk=table_id, due_at=due_at, status=PrivateTable.OPEN).update(
        due_at=lease
    )
    return lease if won else None


def run_due(tick: Tick, *, now: datetime | None = None) -> list[int]:
    """Claim every table due by ``now`` and tick it; the tables this runner ticked."""
    now = now or timezone.now()
    due = PrivateTable.objects.filter(status=PrivateTable.OPEN, due_at__lte=now).order_by("due_at")
    ticked = []
    for table_id, due_at in due.values_list("pk", "due_at")[:TABLES_AT_ONCE]:
        lease = None if due_at is None else claim(table_id, due_at, now=now)
        if lease is None:
            continue
        ticked.append(table_id)
        try:
            next_due = tick(table_id=table_id)
        except Exception:  # a bug of ours, or the database gone: looked at again when the lease ends
            log.exception("table %s: the clock could not move it", table_id)
            continue
        # Where a write changed the due time while this tick ran, the write's stands.
        PrivateTable.objects.filter(pk=table_id, due_at=lease).update(due_at=next_due)
    return ticked


_lock = threading.Lock()
_runner: tuple[int, threading.Thread] | None = None  # the process that started it, and the thread


def start(tick: Tick) -> bool:
    """This process's clock thread (once per process, a forked one included); whether it started
    now. The entry points start it: the web applications as they load."""
    global _runner
    if CLOCK_SECONDS <= 0:
        return False
    with _lock:
        if _runner is not None and _runner[0] == os.getpid() and _runner[1].is_alive():
            return False
        thread = threading.Thread(target=_keep_time, args=(tick,), name="table-clock", daemon=True)
        _runner = (os.getpid(), thread)
        thread.start()
    return True


def _keep_time(tick: Tick) -> None:
    while True:
        time.sleep(CLOCK_SECONDS)
        try:
            as_a_request(run_due, tick)  # its connection kept between looks, as a request thread's
        except Exception:  # the database restarting: the next look tries again
            log.exception("the tables' clock could not look for tables due")

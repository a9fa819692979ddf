"""Playwright's event loop, set aside while a test without a browser runs.

Once a browser test has started Playwright in a test process, its event loop counts as running in
that process's thread until Playwright stops at the end of the session: a later test without a
browser could not call ``asyncio.run`` nor an async view through the test client. Such a test runs
with the loop set aside (``tests/conftest.py``), as if no browser test had come before it. The
database connections it opens meanwhile are the thread's own, not the loop's (asgiref keeps them
apart): they are closed before the loop is put back, and the loop is put back before Playwright
stops (``tests/browser/conftest.py``), should the session end on such a test.
"""

from __future__ import annotations

import asyncio

from django.db import connections

_aside: list[asyncio.AbstractEventLoop] = []


def set_aside() -> None:
    loop = asyncio.events._get_running_loop()
    if loop is not None:
        asyncio.events._set_running_loop(None)
        _aside.append(loop)


def put_back() -> None:
    if _aside:
        for connection in connections.all(initialized_only=True):
            # A transaction still open is a module's data kept for its next test (RUN_WHOLE in
            # tests/conftest.py): it ends, and its connection is closed, with the module.
            if not connection.in_atomic_block:
                connection.close()
        asyncio.events._set_running_loop(_aside.pop())

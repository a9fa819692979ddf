"""``manage.py table_clock``: move the private tables that are due now, once (bots that were busy,
a player away past the grace), as each web process's clock thread does twice a second. For a server
run with ``TABLE_CLOCK_SECONDS=0`` (no clock thread in its web processes), run it with ``--every``
as a process of its own; several runners never move one table twice (``live.clock``'s lease).
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from scorepad.live import clock
from scorepad.services.tables import table_clock_tick


class Command(BaseCommand):
    help = "Move the private tables that are due now (once, or every --every seconds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--every", type=float, default=0, help="look again this many seconds apart (default: once)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"]
        if every < 0:
            raise CommandError(f"--every is a number of seconds, 0 or more; got {every}")
        while True:
            try:
                moved = clock.run_due(table_clock_tick)
            except DatabaseError as error:
                raise CommandError(
                    f"the database is not ready ({error}): run manage.py migrate first"
                ) from None
            if not every:
                self.stdout.write(f"{len(moved)} table(s) due, moved by this runner")
                return
            time.sleep(every)
